/** The sandbox's public surface, for the `agency sandbox` command and the tests. */

export { type BannerData, bannerData, type SandboxSettings } from './banner.js';
export type { FaultKind, FaultRule } from './faults.js';
export {
  errorBody,
  type RecordedRequest,
  type RequestLogEntry,
  type Sandbox,
  type SandboxOptions,
  type SandboxStats,
  startSandbox,
  stateSummary,
  timestamp,
} from './server.js';
export { Store } from './store.js';
export {
  type CompanyRecord,
  FOREIGN_AGENCY_ID,
  type HqContext,
  type KeyRecord,
  MAIN_AGENCY_ID,
  type SandboxState,
  type UserRecord,
} from './types.js';
