/**
 * Hints for a request that got no answer, from what only the run knows: a practice sandbox that is
 * not running, or a deadline that came from AGENCY_TIMEOUT (which the user may have set long ago).
 * A hint names the setting a value came from (--base-url, AGENCY_BASE_URL or a profile), so that
 * the user changes the right one.
 */
import { type Context, DEFAULT_TIMEOUT_SECONDS, type Environment, type GlobalFlags } from '../context.js';
import { AgencyError, NetworkError, ProxyFailure } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { option, run, variable } from '../terms.js';

export interface RunFacts {
  baseUrl: string | undefined;
  baseUrlSource: Context['baseUrlSource'] | undefined;
  profileName: string | undefined;
  /** --timeout's value, AGENCY_TIMEOUT's, or neither (the default). */
  timeoutFlag: string | undefined;
  timeoutEnv: string | undefined;
  defaultTimeoutSeconds: number;
}

/** The hint to show instead of the error's own, or undefined to keep it. */
export function networkHint(error: unknown, facts: RunFacts): string | undefined {
  // "the base URL" in a hint of the API layer: say which one, and where it was set.
  if (error instanceof AgencyError && !(error instanceof NetworkError) && facts.baseUrl !== undefined) {
    const where = baseUrlOrigin(facts);
    return error.hintText?.includes('the base URL')
      ? error.hintText.replace('the base URL', `the base URL (${facts.baseUrl}, from ${where})`)
      : undefined;
  }
  if (!(error instanceof NetworkError) || error instanceof ProxyFailure) return undefined;
  const code = causeCode(error);
  if (code === 'ECONNREFUSED' && facts.baseUrl !== undefined && isLocal(facts.baseUrl)) {
    return `${pointsAt(facts)} ${facts.baseUrl}: is the sandbox running? ${run('sandbox')} in another terminal, or check the port.`;
  }
  if (code === 'ETIMEDOUT') {
    const range = 'more than 0 and at most 3600 seconds';
    if (facts.timeoutFlag !== undefined)
      return `The deadline per request was ${option('timeout')} ${facts.timeoutFlag}; give more (${range}), or check the network.`;
    if (facts.timeoutEnv !== undefined)
      return `The deadline per request comes from ${variable('AGENCY_TIMEOUT')}=${facts.timeoutEnv}; raise it (${range}) or unset it (${facts.defaultTimeoutSeconds} s).`;
  }
  return undefined;
}

/** Where the base URL was set, in the words the user typed it: --base-url, AGENCY_BASE_URL, a profile. */
function baseUrlOrigin(facts: RunFacts): string {
  switch (facts.baseUrlSource) {
    case 'flag':
      return option('base-url');
    case 'env':
      return variable('AGENCY_BASE_URL');
    case 'profile':
      return `the "${facts.profileName}" profile`;
    default:
      return 'the default';
  }
}

function pointsAt(facts: RunFacts): string {
  if (facts.baseUrlSource === 'default' || facts.baseUrlSource === undefined) return 'Nothing answers at';
  // A reference is capitalised where it starts the sentence (src/terms.ts).
  return facts.baseUrlSource === 'profile'
    ? `The "${facts.profileName}" profile points at`
    : `${baseUrlOrigin(facts)} points at`;
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
    baseUrlSource: ctx?.baseUrlSource,
    profileName: ctx?.profileName,
    timeoutFlag: flags.timeout,
    timeoutEnv: environment.timeout,
    defaultTimeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
  };
}
