/**
 * How an armed fault changes an answer: some answer instead of the service (before anything is
 * processed), others replace or damage the service's own answer after the request was processed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Dialect, errorIn } from './error-body.js';
import { type FaultRule, largePageBody } from './faults.js';
import type { Result, Route } from './routing.js';
import { send } from './wire.js';

/** Set on the recorded request by whoever answers. */
interface Recorded {
  status: number;
}

function faultDetail(status: number): string {
  return status === 429
    ? 'Too many concurrent requests for this account'
    : `The service answered ${status} (sandbox fault)`;
}

/** The error a 'status' or 'status-after' rule answers, in the rule's dialect (default: the path's). */
function sendFaultError(res: ServerResponse, fault: FaultRule, pathDialect: Dialect, record: Recorded): void {
  const status = fault.status ?? 500;
  record.status = status;
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  const body = errorIn(fault.dialect ?? pathDialect, status, fault.detail ?? faultDetail(status), fault.code);
  send(res, status, body, headers);
}

/** An answer without a body: 204 by default; 200 or 201 with an empty body when asked. */
function sendEmpty(res: ServerResponse, fault: FaultRule, record: Recorded): void {
  const status = fault.status ?? 204;
  record.status = status;
  send(res, status, undefined, status === 204 ? {} : { 'content-type': 'application/json' });
}

/** Whether the rule answers in place of the service (nothing processed, no slot taken). */
export function answersInsteadOfService(fault: FaultRule | undefined): boolean {
  return (
    fault?.kind === 'status' ||
    fault?.kind === 'empty' ||
    fault?.kind === 'html' ||
    fault?.kind === 'not-json' ||
    fault?.kind === 'v1-nothing' ||
    fault?.kind === 'deep' ||
    fault?.kind === 'report-failed' ||
    fault?.kind === 'report-pending'
  );
}

/**
 * Answers in place of the service, before processing. Returns true when the request is finished
 * (answered or dropped), false when it goes on to the service.
 */
export async function answerBeforeProcessing(
  fault: FaultRule | undefined,
  res: ServerResponse,
  record: Recorded,
  dialect: Dialect,
  gone: AbortSignal,
): Promise<boolean> {
  switch (fault?.kind) {
    case 'status':
      sendFaultError(res, fault, dialect, record);
      return true;
    case 'empty':
      sendEmpty(res, fault, record);
      return true;
    case 'html': {
      const status = fault.status ?? 502;
      record.status = status;
      const html = `<html><body><h1>${status} ${STATUS_CODES[status] ?? 'Error'}</h1></body></html>`;
      res.writeHead(status, {
        'content-type': 'text/html',
        'content-length': String(Buffer.byteLength(html)),
      });
      res.end(html);
      return true;
    }
    case 'not-json':
      record.status = 200;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '16' });
      res.end('this is not json');
      return true;
    case 'v1-nothing':
      // The v1 success envelope with no data: the service's way of saying "an empty list".
      record.status = 200;
      send(res, 200, { status: { status: 'OK' }, message: fault.detail ?? 'No records found' });
      return true;
    case 'deep': {
      // Valid JSON nested deeper than any answer should be: {"a":{"a":…}}.
      const depth = fault.size ?? 100_000;
      const text = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      record.status = 200;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.end(text);
      return true;
    }
    // A report (GET /v2/reports/{hash}) the service could not make, or one it is still preparing.
    case 'report-failed':
      record.status = 200;
      send(res, 200, { status: 'FAILED' });
      return true;
    case 'report-pending':
      record.status = 200;
      send(res, 200, { status: 'PENDING' });
      return true;
    case 'stall':
      try {
        await sleep(fault.stallMs ?? 60_000, undefined, { signal: gone });
      } catch {
        return true;
      }
      return false;
    default:
      return false;
  }
}

/**
 * Sends the service's answer, replaced or damaged as the fault says (after the request was
 * processed). `previous` is the last 200 answered to the same account on the same path, for
 * 'repeat-page'.
 */
export function answerAfterProcessing(
  fault: FaultRule | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  result: Result & { route?: Route },
  record: Recorded,
  dialect: Dialect,
  previous: unknown,
): void {
  const answered = result.status < 300;
  switch (fault?.kind) {
    case 'reset-after':
      req.socket.destroy();
      return;
    case 'status-after':
      sendFaultError(res, fault, dialect, record);
      return;
    case 'empty-after':
      sendEmpty(res, fault, record);
      return;
    default:
      break;
  }
  let payload = result.body;
  if (fault?.kind === 'large-page' && result.status === 200 && result.route?.list && req.method === 'GET') {
    payload = largePageBody(result.route.list, fault.size ?? 5000);
  }
  if (fault?.kind === 'repeat-page' && answered && previous !== undefined) payload = previous;
  if (fault?.kind === 'truncated' && payload !== undefined) {
    const full = Buffer.from(JSON.stringify(payload));
    res.writeHead(result.status, {
      'content-type': 'application/json',
      'content-length': String(full.length),
    });
    res.write(full.subarray(0, Math.floor(full.length / 2)), () => req.socket.destroy());
    return;
  }
  send(res, result.status, payload, result.headers);
}
