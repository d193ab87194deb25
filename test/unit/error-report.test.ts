/**
 * How an error reads: one human line (and a hint) and, with --json, one JSON object as the last line of
 * stderr — both from src/output/error-report.ts, with server text made inert on a terminal.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, UsageError } from '../../src/errors.js';
import { reportError } from '../../src/output/error-report.js';
import { Writer } from '../../src/output/writer.js';

function stderrOf(options: { json: boolean; tty: boolean }) {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const writer = new Writer(
    {
      stdout: new PassThrough(),
      stderr: stream,
      stdoutIsTTY: false,
      stderrIsTTY: options.tty,
      columns: undefined,
    },
    { json: options.json, color: false, stderrColor: false },
  );
  return { writer, text: () => text };
}

const hostile = new ApiError('The service refused: \u001b]0;pwned\u0007 \u009b31m \u202eevil', {
  status: 409,
  title: 'Conflict \u009b2J',
  detail: 'inactive \u202e company',
  hint: 'Company 7 is inactive.',
});

describe('the error report', () => {
  it.each([
    [
      'an API error',
      hostile,
      5,
      { status: 409, title: 'Conflict \u009b2J', detail: 'inactive \u202e company' },
    ],
    ['a local error', new UsageError('Invalid --page "x"'), 2, { status: null, title: null, detail: null }],
    [
      'a network error',
      new NetworkError('connection refused'),
      1,
      { status: null, title: null, detail: null },
    ],
    ['a bug', new TypeError('x is undefined'), 1, { status: null, title: null, detail: null }],
  ])('%s: the exit code, and with --json one object on the last line', (_name, error, code, fields) => {
    const { writer, text } = stderrOf({ json: true, tty: false });
    expect(reportError(writer, error)).toBe(code);
    const lines = text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: /);
    expect(JSON.parse(lines.at(-1) ?? '')).toEqual({ error: { ...fields, message: expect.any(String) } });
  });

  it('makes server text inert on a terminal, in the human line and in the JSON object', () => {
    const { writer, text } = stderrOf({ json: true, tty: true });
    reportError(writer, hostile);
    const out = text();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is that none is left
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const object = out.trimEnd().split('\n').at(-1) ?? '';
    expect(object).toContain('\\u009b2J');
    expect(object).toContain('\\u202e');
    // The same value as the service sent, escaped rather than dropped.
    expect(JSON.parse(object).error.title).toBe('Conflict \u009b2J');
  });

  it('leaves out a hint that only repeats the message, and keeps one that adds to it', () => {
    const repeated = stderrOf({ json: false, tty: false });
    reportError(
      repeated.writer,
      new ApiError('Company 7 is inactive.', { status: 409, hint: 'Company 7 is inactive.' }),
    );
    expect(repeated.text()).toBe('error: Company 7 is inactive.\n');
    const useful = stderrOf({ json: false, tty: false });
    reportError(useful.writer, hostile);
    expect(useful.text()).toMatch(/\nhint: Company 7 is inactive\.\n$/);
  });

  it('puts the fields it is given first, for a failure among many (keys create)', () => {
    const { writer, text } = stderrOf({ json: true, tty: false });
    reportError(writer, hostile, { message: 'company 7: refused', fields: { company_id: 7 } });
    expect(text().trimEnd().split('\n').at(-1)).toMatch(/^\{"error":\{"company_id":7,"status":409,/);
    expect(text()).toMatch(/^error: company 7: refused\n/);
  });
});
