/**
 * The one whole-file writer (src/whole-file.ts), behind the history store, the sandbox's state file and
 * the --html pages: the file is replaced whole (0600 unless told), no temporary file is left after a
 * write or a failed one, and the leftovers of a killed writer are found by the file's name only.
 */
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeLeftoverTemporaries, replaceFileWhole } from '../../src/whole-file.js';
import { testDir } from '../helpers/temp-dir.js';

describe('replaceFileWhole', () => {
  it('replaces the file whole, 0600 by default, and leaves nothing beside it', () => {
    const dir = testDir('agency-whole-');
    const file = join(dir, 'history.db');
    writeFileSync(file, 'old and much longer than the new text');
    replaceFileWhole(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    replaceFileWhole(file, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(['history.db']);
  });

  it('takes a mode for files meant to be shared (before the umask)', () => {
    const dir = testDir('agency-whole-');
    const file = join(dir, 'acme.html');
    const umask = process.umask();
    replaceFileWhole(file, '<p>', 0o666);
    expect(statSync(file).mode & 0o777).toBe(0o666 & ~umask);
  });

  it('a write that fails leaves the old file as it was and no temporary file', () => {
    if (process.getuid?.() === 0) {
      // root writes into a read-only folder: the failure is made by a missing folder instead.
      const dir = testDir('agency-whole-');
      expect(() => replaceFileWhole(join(dir, 'missing', 'state.json'), '{}')).toThrow(/ENOENT/);
      expect(readdirSync(dir)).toEqual([]);
      return;
    }
    const dir = testDir('agency-whole-');
    const file = join(dir, 'state.json');
    writeFileSync(file, 'kept');
    chmodSync(dir, 0o500);
    try {
      expect(() => replaceFileWhole(file, 'lost')).toThrow(/EACCES/);
    } finally {
      chmodSync(dir, 0o700);
    }
    expect(readFileSync(file, 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

describe('removeLeftoverTemporaries', () => {
  it("removes only the temporaries of that file, never another file's or a user's", () => {
    const dir = testDir('agency-whole-');
    const names = [
      'history.db',
      '.history.db.4242.0badf00d.tmp', // a writer of history.db killed mid-write
      '.history.db.17.ffffffff.tmp',
      '.config.json.4242.0badf00d.tmp', // another file's
      'history.db.tmp', // not ours: a name a user could give
      '.history.db.x.0badf00d.tmp',
    ];
    for (const name of names) writeFileSync(join(dir, name), '');
    removeLeftoverTemporaries(join(dir, 'history.db'));
    expect(readdirSync(dir).sort()).toEqual(
      ['history.db', '.config.json.4242.0badf00d.tmp', 'history.db.tmp', '.history.db.x.0badf00d.tmp'].sort(),
    );
  });
});
