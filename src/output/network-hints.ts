/**
 * Hints for a request that got no answer, from what only the run knows: a practice sandbox that is
 * not running, or a deadline that came from AGENCY_TIMEOUT (which the user may have set long ago).
 */
import { DEFAULT_TIMEOUT_SECONDS, type Environment, type GlobalFlags } from '../context.js';
import { NetworkError } from '../errors.js';
import type { Runtime } from '../runtime.js';

export interface RunFacts {
  baseUrl: string | undefined;
  profileName: string | undefined;
  /** --timeout's value, AGENCY_TIMEOUT's, or neither (the default). */
  timeoutFlag: string | undefined;
  timeoutEnv: string | undefined;
  defaultTimeoutSeconds: number;
}

/** The hint to show instead of the error's own, or undefined to keep it. */
export function networkHint(error: unknown, facts: RunFacts): string | undefined {
  if (!(error instanceof NetworkError)) return undefined;
  const code = causeCode(error);
  if (code === 'ECONNREFUSED' && facts.baseUrl !== undefined && isLocal(facts.baseUrl)) {
    const sandbox =
      facts.profileName === 'sandbox' ? 'The "sandbox" profile points at' : 'Nothing answers at';
    return `${sandbox} ${facts.baseUrl}: is \`agency sandbox\` running? Start it in another terminal, or check the port.`;
  }
  if (code === 'ETIMEDOUT') {
    const range = 'more than 0 and at most 3600 seconds';
    if (facts.timeoutFlag !== undefined)
      return `The deadline per request was --timeout ${facts.timeoutFlag}; give more (${range}), or check the network.`;
    if (facts.timeoutEnv !== undefined)
      return `The deadline per request comes from AGENCY_TIMEOUT=${facts.timeoutEnv}; raise it (${range}) or unset it (${facts.defaultTimeoutSeconds} s).`;
  }
  return undefined;
}

function causeCode(error: Error): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code === 'ECONNREFUSED' || code === 'ETIMEDOUT')) return code;
  }
  return /connection refused/.test(error.message) ? 'ECONNREFUSED' : undefined;
}

function isLocal(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** What a hint about a lost answer needs to know of the run (the context, when it was resolved). */
export function runFacts(
  flags: GlobalFlags,
  environment: Environment,
  runtime: Runtime | undefined,
): RunFacts {
  let ctx: Runtime['ctx'] | undefined;
  try {
    ctx = runtime?.ctx;
  } catch {
    // The context itself failed (that is the error being reported).
  }
  return {
    baseUrl: ctx?.baseUrl,
    profileName: ctx?.profileName,
    timeoutFlag: flags.timeout,
    timeoutEnv: environment.timeout,
    defaultTimeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
  };
}
