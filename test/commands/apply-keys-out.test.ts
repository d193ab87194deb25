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
  it('stops before any request when the directory does not exist, or the path is a directory', async () => {
    const file = join(shared.tmp, 'agency.yaml');
    writeFileSync(file, 'defaults:\n  keys: [zapier]\ncompanies:\n  - V Keys Out Co\n');
    for (const keysOut of [join(shared.tmp, 'missing', 'keys.tsv'), shared.tmp]) {
      shared.h.sandbox.reset();
      const r = await shared.h.run(['apply', '-f', file, '--yes', '--keys-out', keysOut]);
      expectUsageError(r, shared.h.sandbox, /Cannot write the keys file/);
    }
  });
});
