/**
 * Tests you can find: test/README.md maps every command of the tree to the test files that run it
 * (scripts/gen-test-index.mjs, from the built program, as the reference is), and every command has one.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

describe('the test index', () => {
  it('names a test file for every command of the tree', () => {
    const check = spawnSync(process.execPath, [join(ROOT, 'scripts/gen-test-index.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(check.stderr, 'add a test that runs the command').toBe('');
    expect(check.status).toBe(0);
  });
});
