/**
 * How an armed fault changes an answer: some answer instead of the service (before anything is
 * processed), others damage the service's own answer after the request was processed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type FaultRule, largePageBody } from './faults.js';
import type { Result, Route } from './routing.js';
import { send, sendError } from './wire.js';

/** Set on the recorded request by whoever answers. */
interface Recorded {
  status: number;
}

/**
 * Answers in place of the service, before processing. Returns true when the request is finished
 * (answered or dropped), false when it goes on to the service.
 */
export async function answerBeforeProcessing(
  fault: FaultRule | undefined,
  res: ServerResponse,
  record: Recorded,
  gone: AbortSignal,
): Promise<boolean> {
  switch (fault?.kind) {
    case 'status': {
      const status = fault.status ?? 500;
      record.status = status;
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      const detail =
        status === 429
          ? 'Too many concurrent requests for this account'
          : `The service answered ${status} (sandbox fault)`;
      sendError(res, status, detail, headers);
      return true;
    }
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

/** Sends the service's answer, damaged as the fault says (after the request was processed). */
export function answerAfterProcessing(
  fault: FaultRule | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  result: Result & { route?: Route },
): void {
  let payload = result.body;
  if (fault?.kind === 'large-page' && result.status === 200 && result.route?.list && req.method === 'GET') {
    payload = largePageBody(result.route.list, fault.size ?? 5000);
  }
  if (fault?.kind === 'reset-after') {
    req.socket.destroy();
    return;
  }
  if (fault?.kind === 'truncated') {
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
