/**
 * Turns one answer of the service (status, headers, body text) into data or a typed error. Pure — no
 * I/O — so every error dialect and odd answer is unit-tested without a server. http.ts calls
 * `readAnswer` once per attempt (to decide about retries) and `settle` on the answer it keeps.
 */
import { ApiError, exitCodeForStatus, ProxyFailure, ResponseError } from '../errors.js';
import { option } from '../terms.js';
import { hintFor } from './hints.js';
import { MAX_DEPTH, parseJson, TooDeepError } from './json.js';
import { type ProxySettings, proxyAddress } from './proxy.js';
import { isRecord, v1Envelope } from './types.js';

type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface HttpResponse {
  status: number;
  /** The reason phrase of the status ("OK", "Not Found"), for `api -i`; '' when not a standard status. */
  statusText?: string;
  headers: ResponseHeaders;
  /** Parsed JSON body, or undefined for an empty body. */
  data: unknown;
}

/** An answer as it came off the wire. */
export interface Answer {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

/** The service's error, whichever of its dialects it used. */
export interface ServiceError {
  /** v2 `title`, v1 `status.code`, or `code`. */
  title?: string | undefined;
  /** v2 `detail`, v1 `status.msg`, or `message` (with `details`). */
  detail?: string | undefined;
  /** The v1/alternative error code, e.g. 'E_TOO_MANY_REQUESTS'. */
  code?: string | undefined;
}

export interface ReadAnswer extends Answer {
  data: unknown;
  /** The body was there but was not JSON. */
  parseFailed: boolean;
  /** The body was JSON nested deeper than any answer of the service (json.ts). */
  tooDeep?: boolean;
  serviceError: ServiceError;
  /**
   * The status the answer means: 429 for a v1 E_TOO_MANY_REQUESTS whatever status carried it; for a v1
   * error, 401 for E_SESSION and 404 for E_URL_NOT_FOUND / E_RECORD_NOT_FOUND (contract, "Errors").
   */
  meaning: number;
  /** A v1 error envelope ({"status": {"status": "ERROR"}}): an error whatever status carried it. */
  v1Error: boolean;
}

export interface AnswerContext {
  method: string;
  path: string;
  baseUrl: string;
  /** What the request does in the user's terms ("list the keys of company 1042"). */
  action?: string | undefined;
  /** The company the request was about (path or header), for hints. */
  company?: number | undefined;
  /** x-company-id was sent. */
  companyHeader: boolean;
  /** An empty success body is a value (a v1 list read's "nothing"), not an error. */
  emptyIsNothing?: boolean | undefined;
  attempts: number;
  /** The service asked (Retry-After) for a longer wait than the tool makes. */
  refusedRetryAfterMs?: number | undefined;
  debugging: boolean;
  /** Removes the key from any text about to be shown. */
  redact: (text: string) => string;
  /**
   * Set when the base URL is on this machine but a proxy carries the requests: a gateway error is then
   * most likely the proxy's, and this hint (NO_PROXY) replaces the service's.
   */
  proxyHint?: string | undefined;
  /** The proxy the request went through (none when direct): a refusal in its own words is its. */
  proxy?: ProxySettings | undefined;
}

/** The answers a proxy gives when it cannot reach the address it was asked for. */
const GATEWAY_STATUSES = [502, 503, 504];

const TOO_MANY_REQUESTS = 'E_TOO_MANY_REQUESTS';
/** The status each v1 error code means, whatever status carried it (contract, "Errors and exit codes"). */
const V1_CODE_MEANING: Record<string, number> = {
  E_SESSION: 401,
  E_URL_NOT_FOUND: 404,
  E_RECORD_NOT_FOUND: 404,
};
/** What the tool says about an answer whose meaning differs from its status. */
const MEANING_WORDS: Record<number, string> = {
  401: 'the key was refused',
  404: 'not found',
  429: 'too many requests',
};
/** Server text quoted in a message is kept to one readable line. */
const MAX_QUOTED = 300;

export function readAnswer(answer: Answer): ReadAnswer {
  let data: unknown;
  let parseFailed = false;
  let tooDeep = false;
  if (answer.text.trim() !== '') {
    try {
      data = parseJson(answer.text);
    } catch (error) {
      parseFailed = true;
      tooDeep = error instanceof TooDeepError;
    }
  }
  const serviceError = readServiceError(data);
  const v1Error = v1Envelope(data) === 'ERROR';
  const code = serviceError.code?.toUpperCase() ?? '';
  let meaning = answer.status;
  if (code === TOO_MANY_REQUESTS) meaning = 429;
  // A v1 code says what the answer means whatever status carried it (a 400 as the docs list them, a 200
  // with the envelope, a 409): an E_SESSION is a refused key, never "company N is inactive". A status
  // that already means as much (a 403 E_SESSION: no access to that company) keeps its own hint.
  else {
    const coded = V1_CODE_MEANING[code];
    if (coded !== undefined && exitCodeForStatus(coded) !== exitCodeForStatus(answer.status)) meaning = coded;
  }
  return { ...answer, data, parseFailed, tooDeep, serviceError, meaning, v1Error };
}

/** Reads the three error dialects: v2 {title, detail}, v1 {status: {code, msg}}, and {code, message, details}. */
export function readServiceError(data: unknown): ServiceError {
  if (!isRecord(data)) return {};
  const v1 = isRecord(data.status) ? data.status : undefined;
  const code = text(v1?.code) ?? text(data.code);
  const message = text(data.message) ?? text(data.error);
  const details = Array.isArray(data.details)
    ? data.details.filter((d): d is string => typeof d === 'string').join('; ') || undefined
    : text(data.details);
  const detail =
    text(data.detail) ??
    text(v1?.msg) ??
    (message && details ? `${message} (${details})` : (message ?? details));
  return { title: text(data.title) ?? code, detail, code };
}

/** The data of a successful answer, or the error the user sees. */
export function settle(answer: ReadAnswer, ctx: AnswerContext): HttpResponse {
  const { status, headers, data, meaning } = answer;
  const statusText = reasonPhrase(status);
  if (meaning >= 400 || answer.v1Error) throw proxyRefused(answer, ctx) ?? apiError(answer, ctx);
  // A redirect is never followed: it could take the key to another host.
  if (status >= 300) {
    const location =
      typeof headers.location === 'string' ? ` to ${oneLine(ctx.redact(headers.location))}` : '';
    throw new ResponseError(
      failed(ctx, `the service answered ${status}, a redirect${location}, which is not followed`),
      status,
      { hint: 'Check the base URL (it must include /rest, e.g. https://api.woodpecker.co/rest).' },
    );
  }
  if (answer.tooDeep) {
    throw new ResponseError(
      failed(ctx, `the service's answer was not understood (nested more than ${MAX_DEPTH} levels deep)`),
      status,
      { hint: 'The service (or something in between) sent an answer no agency endpoint sends; try again.' },
    );
  }
  if (answer.parseFailed) {
    const contentType = String(headers['content-type'] ?? '');
    const kind = isHtml(answer) ? 'an HTML page' : 'a body that is not valid JSON';
    throw new ResponseError(
      failed(
        ctx,
        `the service answered ${status} with ${kind} instead of JSON${contentType ? ` (${contentType})` : ''}`,
      ),
      status,
      {
        hint:
          ctx.proxyHint ??
          (ctx.debugging
            ? 'The response may have been cut short or come from a proxy; try again.'
            : `The response may have been cut short or come from a proxy; try again, or run with ${option('debug')}.`),
      },
    );
  }
  // 204 is "nothing" by definition; an empty 200 to a read is an answer we cannot use, unless the
  // read is one whose "nothing" the service sends that way (v1 lists).
  const readsData = ctx.method === 'GET';
  if (data === undefined && status !== 204 && readsData && !ctx.emptyIsNothing) {
    throw new ResponseError(
      failed(ctx, `the service answered ${status} with an empty body instead of JSON`),
      status,
      {
        hint: 'Check that the base URL points at the agency API (it must include /rest).',
      },
    );
  }
  return { status, statusText, headers, data };
}

function apiError(answer: ReadAnswer, ctx: AnswerContext): ApiError {
  const { status, meaning, serviceError } = answer;
  const title = serviceError.title === undefined ? undefined : ctx.redact(serviceError.title);
  const detail = serviceError.detail === undefined ? undefined : ctx.redact(serviceError.detail);
  const contentType = String(answer.headers['content-type'] ?? '');
  const served = !answer.parseFailed
    ? ''
    : isHtml(answer)
      ? ' with an HTML page instead of JSON'
      : ` with a body that is not JSON${contentType ? ` (${contentType})` : ''}`;
  const quoted = [title, detail]
    .filter((part): part is string => Boolean(part))
    .map(oneLine)
    .join(' — ');
  const meant =
    meaning !== status && MEANING_WORDS[meaning]
      ? ` (${MEANING_WORDS[meaning]})`
      : meaning < 400
        ? ' with an error'
        : '';
  const tries = ctx.attempts > 1 ? ` (tried ${ctx.attempts} times)` : '';
  const waited =
    ctx.refusedRetryAfterMs === undefined
      ? ''
      : `; it asked to retry after ${Math.ceil(ctx.refusedRetryAfterMs / 1000)} s, longer than this tool waits`;
  const message = failed(
    ctx,
    `the service answered ${status}${meant}${quoted ? ` ${quoted}` : ''}${served}${tries}${waited}`,
  );
  const fromProxy = ctx.proxyHint !== undefined && GATEWAY_STATUSES.includes(status);
  const hint = fromProxy
    ? ctx.proxyHint
    : hintFor({
        status: meaning,
        title,
        detail,
        path: ctx.path,
        baseUrl: ctx.baseUrl,
        company: ctx.company,
        companyHeader: ctx.companyHeader,
        message,
      });
  // The status is the service's own, except a 429 in disguise (retried and reported as one); the exit
  // code follows the meaning.
  return new ApiError(message, {
    status: meaning === 429 ? 429 : status,
    meaning,
    title,
    detail,
    ...(hint === undefined ? {} : { hint }),
  });
}

/** The statuses a proxy refuses with: its policy (403) or its credentials (407). */
const PROXY_REFUSALS = [403, 407];

/**
 * A 403 or 407 through a proxy whose body is not the service's error (no title, detail or code: a
 * squid ACL's text/plain "denied destination", an HTML page) came from the proxy, not the service: it
 * is said of the proxy (host:port and the variable, never its credentials), exit 1, never blamed on
 * the API key.
 */
function proxyRefused(answer: ReadAnswer, ctx: AnswerContext): ProxyFailure | undefined {
  const { proxy } = ctx;
  const { status, serviceError } = answer;
  if (!proxy || !PROXY_REFUSALS.includes(status)) return undefined;
  if (serviceError.title !== undefined || serviceError.detail !== undefined) return undefined;
  const said = proxyWords(answer);
  const named = `the proxy ${proxyAddress(proxy.url)} (${proxy.variable})`;
  const reason = `${named} answered ${status} ${reasonPhrase(status)}`.trimEnd();
  return new ProxyFailure(failed(ctx, said ? `${reason}: ${ctx.redact(said)}` : reason), {
    hint:
      ctx.proxyHint ??
      `The proxy refused to carry the request to ${ctx.baseUrl}, not the service. Check ${proxy.variable} ` +
        `(user:password@ before the host if the proxy asks for them), ask its administrators to allow ` +
        `this host, or list it in NO_PROXY to go direct.`,
  });
}

/** What a proxy's refusal says, short: a page's title, else the text's first words. */
function proxyWords(answer: Answer): string {
  if (isHtml(answer))
    return oneLine(/<title[^>]*>([^<]*)<\/title>/i.exec(answer.text)?.[1] ?? '').slice(0, 120);
  const flat = oneLine(answer.text);
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

/** "Could not list the keys of company 1042: ..." when the caller said what it was doing. */
export function failed(
  ctx: Pick<AnswerContext, 'action' | 'method' | 'path' | 'redact'>,
  reason: string,
): string {
  return ctx.redact(
    ctx.action ? `Could not ${ctx.action}: ${reason}` : `${ctx.method} ${ctx.path} failed: ${reason}`,
  );
}

function isHtml(answer: Answer): boolean {
  return (
    /html/i.test(String(answer.headers['content-type'] ?? '')) || /^\s*<(!doctype|html)/i.test(answer.text)
  );
}

/** Server text on one line, clipped: a multi-line or huge detail must not swamp (or forge) our own lines. */
function oneLine(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_QUOTED ? `${flat.slice(0, MAX_QUOTED)}…` : flat;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The standard reason phrase (undici's request() does not pass the server's own). */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? '';
}
