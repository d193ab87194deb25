/**
 * A lock file shared by the processes of this tool: the config file's writers (src/config.ts) and the
 * history store's (src/history/store.ts). Neither conf nor sql.js locks a file, and two runs at once
 * (two logins, a cron job overlapping another) must not lose each other's writes. The lock is a file
 * created exclusively; one whose holder died (kill -9, power cut) is broken so that it never blocks for
 * good.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 15_000;

interface LockHolder {
  owner: string;
  ino: number;
  ageMs: number;
}

/** The errors a lock's user reports: the file cannot be created at all, or another process holds it. */
export interface LockErrors {
  cannotLock(lockFile: string, reason: string): Error;
  busy(lockFile: string): Error;
}

/**
 * Takes `lockFile` (created exclusively, holding `pid@host`), waiting up to 15 s for another holder; a
 * lock whose holder died (or older than 10 s) is broken. Returns the release.
 */
export async function acquireLock(lockFile: string, errors: LockErrors): Promise<() => void> {
  const owner = `${process.pid}@${hostname()}`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      createHolding(lockFile, owner);
      return () => {
        // Only our own lock: if it was (wrongly) broken and taken over, the new holder keeps it.
        if (inspectLock(lockFile)?.owner === owner) rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw errors.cannotLock(lockFile, (error as Error).message);
      }
    }
    breakStaleLock(lockFile);
    if (Date.now() > deadline) {
      throw errors.busy(lockFile);
    }
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * Math.min(50, 5 * attempt)));
  }
}

/**
 * Creates `file` (exclusively, 0600) holding `owner`. A file created but not written (a full disk) is
 * removed before the error is thrown: left empty, it would pass for a lock being written and block
 * every later run for LOCK_STALE_MS.
 */
function createHolding(file: string, owner: string): void {
  const bytes = Buffer.from(owner);
  const fd = openSync(file, 'wx', 0o600);
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
  closeSync(fd);
}

function inspectLock(lockFile: string): LockHolder | undefined {
  try {
    const owner = readFileSync(lockFile, 'utf8');
    const stat = statSync(lockFile);
    return { owner, ino: stat.ino, ageMs: Date.now() - stat.mtimeMs };
  } catch {
    return undefined;
  }
}

/** A lock left by a process that died (kill -9, power cut) would block every later write. */
function isStale(holder: LockHolder): boolean {
  if (holder.ageMs > LOCK_STALE_MS) return true;
  const match = /^(\d+)@(.*)$/.exec(holder.owner);
  // An empty lock is being written by its creator right now; a pid means something only on this host.
  return match !== null && match[2] === hostname() && !isAlive(Number(match[1]));
}

/**
 * Two waiters that both see a dead holder must not both delete "the" lock: the second would delete
 * the first one's fresh lock. So breaking takes a lock of its own, and re-checks under it that the
 * lock file is still the same stale one (same inode, same owner) before removing it.
 */
function breakStaleLock(lockFile: string): void {
  const seen = inspectLock(lockFile);
  if (!seen || !isStale(seen)) return;
  const breaker = `${lockFile}.break`;
  try {
    createHolding(breaker, String(process.pid));
  } catch {
    // Someone else is breaking it; a breaker that died while doing so must not block forever.
    const stuck = inspectLock(breaker);
    if (stuck && stuck.ageMs > LOCK_STALE_MS) rmSync(breaker, { force: true });
    return;
  }
  try {
    const now = inspectLock(lockFile);
    if (now && now.ino === seen.ino && now.owner === seen.owner && isStale(now))
      rmSync(lockFile, { force: true });
  } finally {
    rmSync(breaker, { force: true });
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
