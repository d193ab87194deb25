/** The sandbox's public surface, for the `agency sandbox` command and the tests. */

export type { FaultKind, FaultRule } from './faults.js';
export {
  errorBody,
  type RecordedRequest,
  type Sandbox,
  type SandboxOptions,
  type SandboxStats,
  startSandbox,
  stateSummary,
  timestamp,
} from './server.js';
export {
  type CompanyRecord,
  FOREIGN_AGENCY_ID,
  type KeyRecord,
  MAIN_AGENCY_ID,
  type SandboxState,
  Store,
  type UserRecord,
} from './store.js';
