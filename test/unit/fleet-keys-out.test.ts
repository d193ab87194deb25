import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { KeysOut } from '../../src/fleet/keys-out.js';
import { testDir } from '../helpers/temp-dir.js';

describe('--keys-out file', () => {
  it('is created 0600 and each line is on disk as soon as it is appended', () => {
    const dir = testDir('keys-out-');
    const path = join(dir, 'keys.tsv');
    const out = KeysOut.open(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    out.append('1001\tAcme Ltd\tzapier\tk-1\n');
    expect(readFileSync(path, 'utf8')).toBe('1001\tAcme Ltd\tzapier\tk-1\n');
    out.append('1002\tBlue\tzapier\tk-2\n');
    out.close();
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
  });

  it('appends to an existing file and tightens it if others could read it', () => {
    const dir = testDir('keys-out-');
    const path = join(dir, 'keys.tsv');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o644);
    const out = KeysOut.open(path);
    out.append('new\n');
    out.close();
    expect(readFileSync(path, 'utf8')).toBe('old\nnew\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('a path that cannot be written is a usage error before anything is sent', () => {
    expect(() => KeysOut.open('/nonexistent-dir/keys.tsv')).toThrow(UsageError);
    expect(() => KeysOut.open(tmpdir())).toThrow(UsageError);
  });
});
