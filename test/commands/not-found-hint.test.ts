/** A 404 for a company: the hint adds what to do, and does not say the service's words again. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { startCoreHarness } from '../helpers/core.js';

let h: Harness;
beforeAll(async () => {
  h = await startCoreHarness({}, { inProcess: true });
});
afterAll(async () => {
  await h.close();
});

it('keys list of a company outside the agency: exit 4, the service words once, then where to find ids', async () => {
  const r = await h.run(['keys', 'list', '999999']);
  expect(r.code).toBe(4);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/not found/);
  expect(r.stderr).not.toMatch(/does not exist in this agency/);
  expect(r.stderr).toContain('hint: Find its id with `agency companies list`');
});
