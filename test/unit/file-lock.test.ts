/**
 * The lock file on a full disk: the lock is created, but its owner cannot be written into it. The
 * attempt must fail with the user's error and leave no empty lock file, which later runs would take
 * for a lock being written and wait on.
 */
import fs, { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/file-lock.js';

const errors = {
  cannotLock: (lockFile: string, reason: string) => new Error(`cannot lock ${lockFile}: ${reason}`),
  busy: (lockFile: string) => new Error(`busy ${lockFile}`),
};

const originalWriteSync = fs.writeSync;
let dir: string | undefined;

afterEach(() => {
  fs.writeSync = originalWriteSync;
  syncBuiltinESMExports();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('acquireLock on a full disk', () => {
  it('fails with cannotLock and leaves no lock file behind', async () => {
    dir = mkdtempSync(join(tmpdir(), 'agency-lock-'));
    const lockFile = join(dir, 'history.db.lock');
    fs.writeSync = (() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }) as typeof fs.writeSync;
    syncBuiltinESMExports();
    await expect(acquireLock(lockFile, errors)).rejects.toThrow(/cannot lock .*ENOSPC/);
    fs.writeSync = originalWriteSync;
    syncBuiltinESMExports();
    expect(existsSync(lockFile)).toBe(false);
    // The next run takes the lock at once (an empty file left behind would hold it for 10 s).
    const release = await acquireLock(lockFile, errors);
    expect(existsSync(lockFile)).toBe(true);
    release();
    expect(existsSync(lockFile)).toBe(false);
  });
});
