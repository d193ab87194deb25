/**
 * Runs the program's main() in this process, as bin/agency.js would run it in its own: the same argv,
 * an environment built like a spawned run's, stdin written and closed, stdout and stderr captured from
 * streams that are not terminals. A run costs milliseconds instead of a Node start-up, so the suite
 * keeps spawning the binary only for what only the binary shows (start-up paths, signals, terminals,
 * several processes at once, the installed package).
 */
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli.js';
import { keptStream } from '../../src/output/kept.js';
import { agencyEnv, canaryLeak, type RunOptions, type RunResult } from './cli.js';

export async function runInProcess(
  args: string[],
  options: RunOptions & { configDir: string },
): Promise<RunResult> {
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const stdout = keptStream();
  const stderr = keptStream();
  const code = await main(args, {
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: agencyEnv(options),
  });
  const r: RunResult = { code, signal: null, stdout: stdout.text(), stderr: stderr.text() };
  const leak = canaryLeak(r, options.allowCanary);
  if (leak) throw new Error(`the canary key leaked on ${leak} of: agency ${args.join(' ')}\n${r[leak]}`);
  return r;
}
