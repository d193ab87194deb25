/**
 * The program in this process against a harness's sandbox, with stdout and stderr as terminals of a
 * given width: what a person at a terminal sees (a table, colour, the summary lines), without tmux.
 */
import { main } from '../../src/cli.js';
import { agencyEnv, type Harness } from './cli.js';
import { fakeTerminal } from './fake-terminal.js';

export async function runOnTerminal(
  h: Harness,
  args: string[],
  options: { columns?: number; env?: Record<string, string | undefined> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const terminal = fakeTerminal({ tty: true, columns: options.columns ?? 160 });
  const env = agencyEnv({ configDir: h.configDir, env: { FORCE_COLOR: undefined, ...options.env } });
  const code = await main(args, { ...terminal.streams, env });
  return { code, stdout: terminal.stdout(), stderr: terminal.stderr() };
}

/** Text without colour codes. */
export function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing colour codes is the point
  return text.replace(/\u001b\[[\d;]*m/g, '');
}
