import { describe, expect, it } from 'vitest';
import { pollOffsets } from '../../src/fleet/report-run.js';

/** The first `n` offsets of the schedule. */
function offsets(n: number): number[] {
  const out: number[] = [];
  for (const at of pollOffsets()) {
    out.push(at);
    if (out.length === n) break;
  }
  return out;
}

/** Offsets up to `ms`. */
function offsetsWithin(ms: number): number[] {
  const out: number[] = [];
  for (const at of pollOffsets()) {
    if (at > ms) break;
    out.push(at);
  }
  return out;
}

describe("report's poll schedule", () => {
  it('starts fast: the first poll 0.2 s after the hash, 0.2 s apart while that is a tenth or more', () => {
    expect(offsets(10)).toEqual([200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000]);
  });

  it('loses at most a tenth of the wait (or 0.2 s): each gap is bounded by the time since the hash', () => {
    const all = offsetsWithin(120_000);
    for (let i = 1; i < all.length; i++) {
      const gap = (all[i] as number) - (all[i - 1] as number);
      expect(gap).toBeLessThanOrEqual(Math.max(200, (all[i - 1] as number) * 0.1) + 1e-9);
    }
  });

  it('backs off to 5 s apart and no further', () => {
    const all = offsetsWithin(200_000);
    const gaps = all.slice(1).map((at, i) => at - (all[i] as number));
    expect(Math.max(...gaps)).toBe(5_000);
    expect(gaps.slice(-5)).toEqual([5_000, 5_000, 5_000, 5_000, 5_000]);
  });

  it('asks a bounded number of times over the default 120 s wait', () => {
    // Dense at first, then logarithmic, then one every 5 s: about 60 GETs on the client's own queue.
    expect(offsetsWithin(120_000).length).toBeLessThanOrEqual(60);
    expect(offsetsWithin(2_000).length).toBe(10);
  });
});
