/** Each account's turn: reads up to the depth, writes alone and in order, 1 after a 429. */
import { describe, expect, it } from 'vitest';
import { AccountGates } from '../../src/api/limit.js';
import { InterruptedError } from '../../src/errors.js';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** Asks for a turn and records when it was granted; `done()` ends the turn. */
function ask(gates: AccountGates, account: string, access: 'read' | 'write', log: string[], name: string) {
  let release: (() => void) | undefined;
  const granted = gates.acquire(account, access).then((r) => {
    log.push(name);
    release = r;
  });
  return { granted, done: () => release?.() };
}

describe('AccountGates', () => {
  it('lets up to the depth of reads go at once on one account, the next when one ends', async () => {
    const gates = new AccountGates(3);
    const log: string[] = [];
    const reads = ['r1', 'r2', 'r3', 'r4'].map((n) => ask(gates, 'hq', 'read', log, n));
    await tick();
    expect(log).toEqual(['r1', 'r2', 'r3']);
    reads[1]?.done();
    await tick();
    expect(log).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(gates.peak('hq')).toBe(3);
  });

  it('counts each account separately', async () => {
    const gates = new AccountGates(1);
    const log: string[] = [];
    ask(gates, 'hq', 'read', log, 'hq1');
    ask(gates, 'hq', 'read', log, 'hq2');
    ask(gates, 'c1', 'read', log, 'c1');
    ask(gates, 'c2', 'read', log, 'c2');
    await tick();
    expect(log).toEqual(['hq1', 'c1', 'c2']);
  });

  it('a write waits for the reads in flight, goes alone, and reads asked after it wait for it', async () => {
    const gates = new AccountGates(3);
    const log: string[] = [];
    const r1 = ask(gates, 'hq', 'read', log, 'r1');
    const w1 = ask(gates, 'hq', 'write', log, 'w1');
    const r2 = ask(gates, 'hq', 'read', log, 'r2');
    await tick();
    expect(log).toEqual(['r1']);
    r1.done();
    await tick();
    expect(log).toEqual(['r1', 'w1']);
    w1.done();
    await tick();
    expect(log).toEqual(['r1', 'w1', 'r2']);
    r2.done();
  });

  it('writes go one at a time, in the order asked', async () => {
    const gates = new AccountGates(7);
    const log: string[] = [];
    const writes = ['w1', 'w2', 'w3'].map((n) => ask(gates, 'hq', 'write', log, n));
    for (let i = 0; i < 3; i++) {
      await tick();
      expect(log).toEqual(['w1', 'w2', 'w3'].slice(0, i + 1));
      expect(gates.peak('hq')).toBe(1);
      writes[i]?.done();
    }
  });

  it('after a 429 the depth is 1 for every account, for the rest of the run', async () => {
    const gates = new AccountGates(3);
    expect(gates.depth()).toBe(3);
    const log: string[] = [];
    const first = [1, 2, 3].map((i) => ask(gates, 'hq', 'read', log, `r${i}`));
    await tick();
    gates.slowDown();
    expect(gates.depth()).toBe(1);
    const later = [4, 5].map((i) => ask(gates, 'hq', 'read', log, `r${i}`));
    await tick();
    first[0]?.done();
    first[1]?.done();
    await tick();
    expect(log).toEqual(['r1', 'r2', 'r3']);
    first[2]?.done();
    await tick();
    expect(log).toEqual(['r1', 'r2', 'r3', 'r4']);
    later[0]?.done();
    await tick();
    expect(log).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(gates.peak('hq', true)).toBe(1);
  });

  it('a retry goes ahead of newer requests', async () => {
    const gates = new AccountGates(1);
    const log: string[] = [];
    const a = ask(gates, 'hq', 'read', log, 'a');
    ask(gates, 'hq', 'read', log, 'b');
    await tick();
    let retried = false;
    void gates.acquire('hq', 'read', undefined, true).then(() => {
      retried = true;
      log.push('retry');
    });
    a.done();
    await tick();
    expect(retried).toBe(true);
    expect(log).toEqual(['a', 'retry']);
  });

  it('Ctrl-C while waiting for a turn ends with InterruptedError and frees nothing it did not hold', async () => {
    const gates = new AccountGates(1);
    const log: string[] = [];
    const a = ask(gates, 'hq', 'read', log, 'a');
    const abort = new AbortController();
    const waiting = gates.acquire('hq', 'read', abort.signal);
    abort.abort();
    await expect(waiting).rejects.toBeInstanceOf(InterruptedError);
    ask(gates, 'hq', 'read', log, 'b');
    await tick();
    expect(log).toEqual(['a']);
    a.done();
    await tick();
    expect(log).toEqual(['a', 'b']);
  });

  it('the depth is kept within 1..7', () => {
    expect(new AccountGates(0).depth()).toBe(1);
    expect(new AccountGates(99).depth()).toBe(7);
    expect(new AccountGates().depth()).toBe(3);
  });

  it('names accounts by key and company, never with the key itself', () => {
    const gates = new AccountGates();
    const hq = gates.account('https://x/rest', 'SECRET_KEY_1', undefined);
    expect(hq).not.toContain('SECRET');
    expect(gates.account('https://x/rest', 'SECRET_KEY_1', undefined)).toBe(hq);
    expect(gates.account('https://x/rest', 'SECRET_KEY_1', '42')).not.toBe(hq);
    expect(gates.account('https://x/rest', 'OTHER_KEY_2', undefined)).not.toBe(hq);
  });
});
