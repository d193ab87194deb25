/**
 * What `agency sandbox` prints when it starts: the facts a user needs to use it (its URL, the HQ
 * keys, the size of the world) and the settings that change its behaviour, as label/value rows the
 * command renders as a table on a terminal.
 */
import type { Store } from './store.js';

export interface SandboxSettings {
  latencyMs: number;
  rttMs: number;
  queueLimit: number;
  queueTimeoutMs: number;
  docsMode: boolean;
  v1Dialect: boolean;
  statePath: string | undefined;
}

export interface BannerData {
  baseUrl: string;
  hqKey: string;
  users: { name: string; email: string; role: string; hqKey: string }[];
  companies: { total: number; active: number; inactive: number };
  settings: SandboxSettings;
  /** Label/value rows in display order (keys included: the banner is where the user asked for them). */
  rows: { label: string; value: string }[];
}

export function bannerData(sandbox: {
  baseUrl: string;
  hqKey: string;
  store: Store;
  settings: SandboxSettings;
}): BannerData {
  const { store, settings } = sandbox;
  const agency = store.mainAgency;
  const users = store.users(agency.id).map((u) => ({
    name: u.name,
    email: u.email,
    role: u.role === 'AGENCY_OWNER' ? 'admin' : 'member',
    hqKey: u.hqKey,
  }));
  const all = store.companies(agency.id);
  const active = all.filter((c) => c.active).length;
  const companies = { total: all.length, active, inactive: all.length - active };
  const ms = (n: number) => (n === 0 ? 'none' : `${n} ms`);
  const rows = [
    { label: 'Base URL', value: sandbox.baseUrl },
    ...users.map((u) => ({ label: `HQ key, ${u.name} (${u.role})`, value: u.hqKey })),
    { label: 'Agency', value: agency.name },
    {
      label: 'Companies',
      value:
        companies.total === 0
          ? 'none (an empty agency)'
          : `${companies.total} (${active} active, ${companies.inactive} inactive)`,
    },
    { label: 'Latency', value: ms(settings.latencyMs) },
    { label: 'Round trip', value: ms(settings.rttMs) },
    {
      label: 'Queue per account',
      // Values stay within ~48 columns so that the table fits an 80-column terminal.
      value: `1 + ${settings.queueLimit} waiting (${settings.queueTimeoutMs / 1000} s at most), then 429`,
    },
    {
      label: 'Mode',
      value: settings.docsMode
        ? 'docs (webhooks only at /v2/webhooks, older paging names)'
        : settings.v1Dialect
          ? 'specification, v1 answers as the service gives'
          : 'specification only',
    },
    { label: 'State', value: settings.statePath ?? 'in memory' },
  ];
  return { baseUrl: sandbox.baseUrl, hqKey: sandbox.hqKey, users, companies, settings, rows };
}
