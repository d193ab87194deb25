/**
 * `--file -` with a person at the terminal: the line that says what is read and how to end it is
 * wrapped like every other message (it was written raw, and a narrow terminal cut it mid-word).
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock } from '../helpers/http-mock.js';

describe('reading --file - from a terminal', () => {
  it('says how to finish, wrapped between words at the terminal width; then the input is read as usual', async () => {
    const http = new HttpMock();
    // A name twice is refused before any request: what was typed was read.
    const r = await runCommand(['companies', 'create', '--file', '-'], http, {
      tty: true,
      stdinTTY: true,
      columns: 40,
      input: 'Acme Ltd\nAcme Ltd\n',
    });
    http.verify();
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n');
    const start = lines.findIndex((line) => line.startsWith('Reading company names'));
    expect(start).toBeGreaterThanOrEqual(0);
    const told = lines.slice(start, start + 3);
    expect(told.every((line) => line.length <= 40)).toBe(true);
    expect(told.join(' ').replace(/\s+/g, ' ')).toContain('press Ctrl-D on a new line to finish.');
    expect(r.stderr).toContain('Acme Ltd');
  });

  it('is not shown when stdin is a pipe', async () => {
    const http = new HttpMock();
    const r = await runCommand(['companies', 'create', '--file', '-'], http, {
      tty: true,
      columns: 40,
      input: 'Acme Ltd\nAcme Ltd\n',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('Ctrl-D');
  });
});
