/**
 * The process's controlling terminal (/dev/tty), for an answer when stdin is taken by the input (a
 * plan piped in: `cat agency.yaml | agency apply -f -`), as sudo and ssh ask for a password. bin/agency.js
 * hands this to the program; a host that does not (a test, `agency mcp`) has none.
 */
import { openSync } from 'node:fs';
import { ReadStream } from 'node:tty';

/** Undefined when the process has no controlling terminal (cron, a service, `setsid`). */
export function openControllingTerminal(): ReadStream | undefined {
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r');
  } catch {
    return undefined;
  }
  return new ReadStream(fd);
}
