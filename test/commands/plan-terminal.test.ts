/**
 * plan's change lines on a terminal are wrapped between words with a hanging indent, as the messages
 * on stderr are, so that an 80-column terminal never cuts a word; piped, each change stays one line.
 * apply's lines of what it made likewise.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/text.js';
import { lines, sharedInProcessHarness } from '../helpers/core.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

const shared = sharedInProcessHarness();
const HOOK = 'https://crm.example.com/hooks/woodpecker';

/** Terminal lines back into whole lines: a continuation (indented 2) joins the line before it. */
function unwrap(text: string): string[] {
  const whole: string[] = [];
  for (const line of plain(text).split('\n').filter(Boolean)) {
    if (line.startsWith('  ') && whole.length > 0) whole[whole.length - 1] += ` ${line.trimStart()}`;
    else whole.push(line);
  }
  return whole;
}

describe('plan and apply on an 80-column terminal', () => {
  it('wrap each change between words under a 2-space indent; piped, one change per line', async () => {
    const { h, tmp } = shared;
    const path = join(tmp, 'wrap.yaml');
    writeFileSync(
      path,
      [
        'defaults:',
        '  keys: [crm-sync]',
        '  webhooks:',
        `    - { event: prospect_replied, url: ${HOOK} }`,
        'companies:',
        '  - Harbor Light Photography Studio',
        '  - Blue Harbor Dental Ltd',
        '',
      ].join('\n'),
    );
    const piped = await h.run(['plan', '-f', path]);
    expect(piped.code, piped.stderr).toBe(0);
    const changes = lines(piped.stdout);
    expect(changes).toContain(`+ webhook PROSPECT_REPLIED → ${HOOK} for "Harbor Light Photography Studio"`);
    expect(changes.some((line) => line.length > 80)).toBe(true);

    const shown = await runOnTerminal(h, ['plan', '-f', path], { columns: 80 });
    expect(shown.code, shown.stderr).toBe(0);
    const rows = plain(shown.stdout).split('\n').filter(Boolean);
    for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(80);
    expect(rows).toContain(`+ webhook PROSPECT_REPLIED → ${HOOK} for`);
    expect(rows).toContain('  "Harbor Light Photography Studio"');
    // Nothing lost or cut: the rows join back into the piped lines.
    expect(unwrap(shown.stdout)).toEqual(changes);
    // A terminal that reports no width: COLUMNS says it, for these lines as for a table.
    const hinted = await runOnTerminal(h, ['plan', '-f', path], { columns: 0, env: { COLUMNS: '80' } });
    expect(hinted.stdout).toBe(shown.stdout);

    const applied = await runOnTerminal(h, ['apply', '-f', path, '--yes'], { columns: 80 });
    expect(applied.code, applied.stderr).toBe(0);
    for (const row of plain(applied.stdout).split('\n')) expect(displayWidth(row)).toBeLessThanOrEqual(80);
    expect(unwrap(applied.stdout)).toContain(
      `+ webhook PROSPECT_REPLIED → ${HOOK} for "Harbor Light Photography Studio"`,
    );
  });
});
