/**
 * One-line advice for an API error, in the user's terms. The service's own words (its detail) come
 * first: a missing add-on is not a wrong key, and a wrong key is not a missing add-on.
 */
import { command, run, variable } from '../terms.js';

export interface HintFacts {
  status: number;
  /** The service's title/code and detail/msg, as read from any of its error dialects. */
  title?: string | undefined;
  detail?: string | undefined;
  /** The request path under the base URL, e.g. '/v1/me'. */
  path: string;
  baseUrl: string;
  /** The company the request was about (path or header). */
  company?: number | undefined;
  /** Whether x-company-id was sent (the 409 "inactive" rule applies only then). */
  companyHeader: boolean;
  /** The error message the hint will follow: a hint that only repeats it is left out. */
  message: string;
}

const DEFAULT_BASE_URL = 'https://api.woodpecker.co/rest';

export function hintFor(facts: HintFacts): string | undefined {
  const hint = chooseHint(facts);
  return hint === undefined || repeats(facts.message, hint) ? undefined : hint;
}

function chooseHint(facts: HintFacts): string | undefined {
  const { status, company } = facts;
  const words = `${facts.title ?? ''} ${facts.detail ?? ''}`;
  if (/no agency add-?on/i.test(words)) {
    return 'The account has no Agency add-on: agency commands need it (Add-ons in the web app).';
  }
  if (/no api add-?on|upgrade your plan/i.test(words)) {
    return 'The account has no API add-on: enable it under Add-ons → API and integrations (or upgrade the plan).';
  }
  if (/invalid api key/i.test(words)) {
    return `The API key is wrong: ${run('login')} again, or check ${variable('AGENCY_API_KEY')}.`;
  }
  // `agency api /rest/v1/me`: the path as the service's docs write it, under a base URL that ends in /rest.
  const doubled = status === 404 ? doubledBasePath(facts.baseUrl, facts.path) : undefined;
  if (doubled) {
    return `The base URL ${facts.baseUrl} already ends in ${doubled.prefix}: give the path after it, ${doubled.rest}.`;
  }
  // A 404 of the agency's own paths from a base URL without /rest: the address, not the record, is wrong.
  const agencyPath = facts.path === '/v1/me' || facts.path.startsWith('/v2/agency/');
  if (status === 404 && !/\/rest\/?$/.test(facts.baseUrl) && (agencyPath || !facts.detail)) {
    return `The base URL ${facts.baseUrl} does not end in /rest: use the API's address, e.g. ${DEFAULT_BASE_URL}.`;
  }
  if (status === 401)
    return `The API key was refused: ${run('login')} again, or check ${variable('AGENCY_API_KEY')}.`;
  if (status === 403 && company !== undefined) {
    return `This key is not the agency's HQ key, or your user has no access to company ${company}.`;
  }
  if (status === 403)
    return "The key has no access to this: agency commands need the agency's HQ (main account) key.";
  if (status === 404 && company !== undefined)
    return `Find its id with \`${command('companies list')}\` (this key reaches only its own agency's companies).`;
  // A 409 can also be a v1 "already defined" refusal; only a company context can be inactive.
  if (status === 409 && facts.companyHeader && company !== undefined && !isOtherConflict(words)) {
    return `Company ${company} is inactive.`;
  }
  if (status === 429)
    return 'The service is busy with other requests of this account; try again in a moment.';
  return undefined;
}

/** The base URL's own path (`/rest`) when the request path repeats it (`/rest/v1/me` → `/v1/me`). */
function doubledBasePath(baseUrl: string, path: string): { prefix: string; rest: string } | undefined {
  let prefix: string;
  try {
    prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
  if (prefix === '' || !path.startsWith(`${prefix}/`)) return undefined;
  return { prefix, rest: path.slice(prefix.length) };
}

function isOtherConflict(words: string): boolean {
  return /E_WRONG_PARAM|already|defined|exists|duplicate/i.test(words);
}

/** "Company 1007 is inactive." adds nothing after "... 409 Conflict — Company 1007 is inactive". */
function repeats(message: string, hint: string): boolean {
  const plain = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return plain(message).includes(plain(hint));
}
