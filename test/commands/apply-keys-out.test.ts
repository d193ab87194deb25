/**
 * `apply --keys-out FILE` with a path that cannot be written is a local error found before the
 * agency is read: exit 2, stdout empty, not one request (the exit-code table's promise for 2).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectUsageError, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();

describe('apply --keys-out that cannot be written', () => {
  it('stops before any request when the directory does not exist, the path is a directory, empty or -', async () => {
    const file = join(shared.tmp, 'agency.yaml');
    writeFileSync(file, 'defaults:\n  keys: [zapier]\ncompanies:\n  - V Keys Out Co\n');
    const cases: [string, RegExp][] = [
      [join(shared.tmp, 'missing', 'keys.tsv'), /Cannot write the keys file .*its directory does not exist/],
      // A folder: said as health --html says it, with a file name to give instead.
      [shared.tmp, /--keys-out \S+ is a folder: give a file name such as \S+keys\.tsv\./],
      // No name at all: said so, not "Cannot write the keys file : its directory does not exist".
      ['', /--keys-out needs a file name, such as keys\.tsv: it was given an empty one\./],
      ['-', /--keys-out needs a file name, such as keys\.tsv: - \(stdout\) is not supported/],
    ];
    for (const [keysOut, message] of cases) {
      shared.h.sandbox.reset();
      const r = await shared.h.run(['apply', '-f', file, '--yes', '--keys-out', keysOut]);
      expectUsageError(r, shared.h.sandbox, message);
    }
  });
});
