/**
 * `report` on a terminal of a given width, as an operator reads it: the note of hidden columns names
 * them as --columns takes them (so they can be copied into it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { lines, startCoreHarness } from '../helpers/core.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

/** The names the note under a table gives the hidden columns ("3 columns hidden (a, b, c) — …"). */
function hiddenNames(stderr: string): string[] {
  const note = /columns? hidden \(([^)]*)\)/.exec(plain(stderr).replace(/\s+/g, ' '));
  return note?.[1]?.split(', ') ?? [];
}

/** The header line of a table on a terminal, as its words (`REPLY %` is one column, two words). */
const headerOf = (stdout: string) => plain(lines(stdout)[0] ?? '');

describe('report tables on a terminal', () => {
  let h: Harness;
  // 8 companies: a few clients with campaigns, enough rows for the widths to matter.
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 8 }, reports: { pendingPolls: 0 } }, { inProcess: true });
  });
  afterAll(() => h.close());

  it('the hidden columns are named as --columns takes them: the note copied into --columns shows them', async () => {
    const narrow = await runOnTerminal(h, ['report'], { columns: 100 });
    expect(narrow.code, narrow.stderr).toBe(0);
    const hidden = hiddenNames(narrow.stderr);
    // A rate and a two-word count are among them: their headers (`open %`, `maybe later`) are not
    // names --columns takes.
    expect(hidden).toEqual(expect.arrayContaining(['campaign_id', 'maybe_later', 'open_rate']));
    const chosen = await runOnTerminal(h, ['report', '--columns', hidden.join(',')], { columns: 200 });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(headerOf(chosen.stdout)).toMatch(/^CAMPAIGN ID .*MAYBE LATER .*OPEN %/);
    expect(plain(chosen.stderr)).not.toContain('hidden');
  });
});
