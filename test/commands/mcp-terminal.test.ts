/**
 * `agency mcp` typed at a prompt (stdin a terminal) says what it waits for, in lines wrapped like
 * every other message; started by a client (stdin a pipe), stdout stays pure JSON-RPC and stderr has
 * no such line. The program runs in this process, its streams say whether they are terminals.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { agencyEnv } from '../helpers/cli.js';
import { sharedInProcessHarness } from '../helpers/core.js';
import { capture } from '../helpers/fake-terminal.js';
import { INITIALIZE } from '../helpers/mcp.js';

const shared = sharedInProcessHarness();

/** `agency mcp` until its stdin ends: `input` written first; on a terminal, ended once it has spoken. */
async function mcp(terminal: boolean, input = '') {
  const stdin = Object.assign(new PassThrough(), { isTTY: terminal });
  const stdout = capture(terminal, 80);
  const stderr = capture(terminal, 80);
  const env = agencyEnv({ configDir: shared.h.configDir, env: { FORCE_COLOR: undefined } });
  const run = main(['mcp'], { stdin, stdout: stdout.stream, stderr: stderr.stream, env });
  stdin.write(input);
  for (let i = 0; i < 200 && !stderr.text().includes('agency mcp: serving'); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  stdin.end();
  const code = await run;
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('agency mcp and the terminal', () => {
  it('on a terminal: one more line says it waits for a client started by an AI assistant; lines fit 80 columns', async () => {
    const r = await mcp(true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
    // Wrapped between words, continuation lines indented (as every message on a terminal).
    expect(lines[1]).toMatch(/^ {2}\S/);
    const text = r.stderr.replace(/\s+/g, ' ');
    expect(text).toContain('reads only (start with --allow-writes to offer changes).');
    expect(text).toContain(
      'agency mcp: waiting for an MCP client on stdin; this server is meant to be started by an AI assistant (see docs/mcp.md). Ctrl-C stops it.',
    );
  });

  it('started by a client (stdin a pipe): stdout is JSON-RPC alone and stderr says nothing of waiting', async () => {
    const r = await mcp(false, `${JSON.stringify(INITIALIZE)}\n`);
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: number });
    expect(answers.map((a) => a.id)).toEqual([1]);
    expect(r.stderr).toContain('agency mcp: serving');
    expect(r.stderr).not.toContain('waiting');
  });
});
