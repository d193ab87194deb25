/**
 * What a short command does besides its work: nothing that creates ICU's number formatter or collator
 * (12–16 ms and 6 ms of the run that first uses them, docs/performance.md). A module that wrote a number
 * with toLocaleString when it was loaded (an endpoint table's description) cost every run 30 ms, the
 * program's whole loading time again, and no test saw it. A preload in the spawned binary counts the
 * calls; src/output/text.ts's groupDigits writes 1,000 without them.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/cli.js';

/** Wraps what creates ICU's formatters; at exit, each call's name and caller go to stderr as `icu: …`. */
const PRELOAD = `
const calls = [];
const tell = (name) => calls.push(name + ' ' + (new Error().stack.split('\\n')[3] || '').trim());
const wrap = (owner, key, name) => {
  const original = owner[key];
  owner[key] = function (...args) { tell(name); return original.apply(this, args); };
};
wrap(Number.prototype, 'toLocaleString', 'Number#toLocaleString');
wrap(String.prototype, 'localeCompare', 'String#localeCompare');
wrap(Date.prototype, 'toLocaleString', 'Date#toLocaleString');
for (const name of ['NumberFormat', 'Collator']) {
  const Original = Intl[name];
  Intl[name] = new Proxy(Original, {
    construct(target, args) { tell('Intl.' + name); return new target(...args); },
    apply(target, self, args) { tell('Intl.' + name); return target(...args); },
  });
}
process.on('exit', () => { for (const call of calls) require('node:fs').writeSync(2, 'icu: ' + call + '\\n'); });
`;

describe('a short command creates no ICU formatter', () => {
  let h: Harness;
  let preload: string;
  beforeAll(async () => {
    h = await startHarness();
    preload = join(h.configDir, '..', 'icu-preload.cjs');
    writeFileSync(preload, PRELOAD);
  });
  afterAll(() => h.close());

  const icuCalls = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('icu: '));

  it('the preload tells of a call when there is one (so that its silence below means something)', () => {
    const creating = [
      "(1000).toLocaleString('en-US')",
      "'a'.localeCompare('b')",
      'new Intl.Collator()',
      'Intl.NumberFormat()',
    ];
    for (const code of creating) {
      const told = spawnSync(process.execPath, ['--require', preload, '-e', code], { encoding: 'utf8' });
      expect(icuCalls(told.stderr), code).toHaveLength(1);
    }
  });

  for (const args of [
    ['companies', 'list', '--json'],
    ['companies', 'list'],
    ['me', '--json'],
    ['keys', 'list', '1001'],
    ['mailboxes', '--company', '1001'],
  ]) {
    it(`agency ${args.join(' ')}`, async () => {
      const r = await h.run(args, { env: { NODE_OPTIONS: `--require ${preload}` } });
      expect(r.code, r.stderr).toBe(0);
      expect(icuCalls(r.stderr)).toEqual([]);
    });
  }
});
