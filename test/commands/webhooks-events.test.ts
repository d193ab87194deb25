/**
 * `agency webhooks events`: the event names --event takes and the names the service lists, from the
 * tool itself: no key needed, no request sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lines, sent, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();

describe('webhooks events', () => {
  it('piped: one row per event, the --event form then the listed form; nothing sent', async () => {
    const r = await shared.h.run(['webhooks', 'events']);
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(rows).toContainEqual(['prospect_replied', 'PROSPECT_REPLIED']);
    expect(rows).toContainEqual(['campaign_paused_by_bounce_shield', 'CAMPAIGN_PAUSED_BY_BOUNCE_SHIELD']);
    for (const [event, listedAs, ...rest] of rows) {
      expect(rest).toEqual([]);
      expect(event).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(listedAs).toBe(event?.toUpperCase());
    }
    expect(new Set(rows.map(([event]) => event)).size).toBe(rows.length);
    expect(sent(shared.h.sandbox)).toEqual([]);
  });

  it('needs no key: no profile and no AGENCY_API_KEY still list the events', async () => {
    const r = await shared.h.run(['webhooks', 'events', '--json'], {
      env: { AGENCY_API_KEY: undefined, AGENCY_CONFIG_DIR: shared.tmp },
    });
    expect(r.code, r.stderr).toBe(0);
    const events = JSON.parse(r.stdout) as { event: string; listed_as: string }[];
    expect(events).toContainEqual({ event: 'email_opened', listed_as: 'EMAIL_OPENED' });
    expect(sent(shared.h.sandbox)).toEqual([]);
  });

  it('every event it lists is one that subscribe takes without a warning', async () => {
    const events = lines((await shared.h.run(['webhooks', 'events', '--columns', 'event'])).stdout);
    const args = events.flatMap((event) => ['--event', event]);
    const r = await shared.h.run([
      'webhooks',
      'subscribe',
      ...args,
      '--url',
      'https://crm.example.com/h',
      '--dry-run',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/not an event the tool knows/);
    expect(lines(r.stdout)).toHaveLength(events.length);
  });
});

describe('a misspelled --event', () => {
  it('an event within two edits of a known one is refused: exit 2, "did you mean prospect_replied?", nothing sent', async () => {
    for (const command of [
      ['subscribe', '--url', 'https://crm.example.com/h'],
      ['unsubscribe', '--url', 'https://crm.example.com/h'],
      ['move', '--from', 'https://a.example/h', '--to', 'https://b.example/h'],
    ]) {
      shared.h.sandbox.reset();
      const [verb, ...rest] = command;
      const r = await shared.h.run([
        'webhooks',
        verb as string,
        '--event',
        'prospect_replyed',
        ...rest,
        '--all',
      ]);
      expect(r.code, verb).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'error: "prospect_replyed" (--event) is not an event the tool knows: did you mean prospect_replied?\n' +
          'hint: Nothing was sent. If the service has an event by that name, add --allow-unknown-event.\n',
      );
      expect(sent(shared.h.sandbox)).toEqual([]);
    }
  });

  it('--allow-unknown-event sends it as given, with the warning naming the event meant', async () => {
    const r = await shared.h.run([
      'webhooks',
      'subscribe',
      '--event',
      'campain_sent',
      '--url',
      'https://crm.example.com/h',
      '--allow-unknown-event',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: "campain_sent" (--event) is not an event the tool knows (did you mean campaign_sent?); used as given.\n',
    );
    expect(r.stderr).not.toContain('Known events:');
    expect(r.stdout).toBe('\tCAMPAIN_SENT\thttps://crm.example.com/h\tsubscribed\n');
    const posts = sent(shared.h.sandbox).filter((q) => q.method === 'POST');
    expect(posts.map((q) => q.body)).toEqual([
      { target_url: 'https://crm.example.com/h', event: 'campain_sent' },
    ]);
  });

  it('a plan file follows the same rule: refused naming its line (plan and apply, nothing sent); escapes say so', async () => {
    const file = join(shared.tmp, 'typo.yaml');
    const hook = 'https://crm.example.com/h';
    writeFileSync(
      file,
      `companies:\n  - name: Acme Ltd\n    webhooks:\n      - {event: prospect_replyed, url: ${hook}}\n`,
    );
    for (const command of [['plan'], ['apply', '--yes']]) {
      const r = await shared.h.run([...command, '-f', file]);
      expect(r.code, command[0]).toBe(2);
      expect(r.stderr).toContain(
        `error: Invalid plan file: "prospect_replyed" (${file} line 4) is not an event the tool knows: did you mean prospect_replied?`,
      );
      expect(r.stderr).toContain('add allow_unknown_event: true to that webhook in the file');
      expect(sent(shared.h.sandbox)).toEqual([]);
    }
    const allowed = await shared.h.run(['plan', '-f', file, '--allow-unknown-event']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain(`+ webhook PROSPECT_REPLYED → ${hook} for "Acme Ltd"`);
    expect(allowed.stderr).toContain('(did you mean prospect_replied?); used as given.');
    writeFileSync(
      file,
      `companies:\n  - name: Acme Ltd\n    webhooks:\n      - {event: prospect_replyed, url: ${hook}, allow_unknown_event: true}\n`,
    );
    const inFile = await shared.h.run(['plan', '-f', file]);
    expect(inFile.code, inFile.stderr).toBe(0);
    expect(inFile.stdout).toBe(allowed.stdout);
  });

  it('a name far from every known event gets the list instead', async () => {
    const r = await shared.h.run([
      'webhooks',
      'subscribe',
      '--event',
      'brand_new_thing',
      '--url',
      'https://crm.example.com/h',
      '--dry-run',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('did you mean');
    expect(r.stderr).toMatch(/Known events: prospect_replied, /);
  });

  it('help points to the documented events (not choices, not all 22 of them), since others are accepted', async () => {
    for (const command of ['subscribe', 'unsubscribe', 'move']) {
      const r = await shared.h.run(['webhooks', command, '--help']);
      expect(r.code).toBe(0);
      const flat = r.stdout.replace(/\s+/g, ' ');
      expect(flat).toMatch(
        /--event <event> .*\(one of the documented events: see `agency webhooks events`; others are accepted with a warning\)/,
      );
      expect(flat).not.toContain('choices:');
      // The list itself is left to `agency webhooks events`: the option's help is a few lines.
      const at = r.stdout.indexOf('  --event');
      const option = r.stdout.slice(at, r.stdout.indexOf('\n  --', at));
      expect(option).not.toContain('prospect_bounced');
      expect(option.split('\n').length).toBeLessThanOrEqual(4);
    }
  });
});
