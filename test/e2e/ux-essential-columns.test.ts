/**
 * Issue 21, item 1, in real terminals of 60, 80 and 100 columns: each table keeps what the reader
 * came for (the id, the name or address, and what went wrong) and gives up counters and descriptions
 * first; headers say whose errors they count; a failed fleet change names each distinct reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { direct, inactiveCompany, lines } from '../helpers/core.js';
import { TMUX_MISSING } from '../helpers/tmux.js';

const WIDTHS = [60, 80, 100] as const;
let h: Harness;
let terminals: AgencyTerminals;
/** An active company with a mailbox whose error is long, and that error. */
let broken: { id: number; name: string; email: string; error: string };

beforeAll(async () => {
  h = await startHarness();
  terminals = await startAgencyTerminals(h.configDir, WIDTHS);
  for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => c.active)) {
    const answer = await direct(h.sandbox, '/v2/mailboxes', { company: company.id });
    const failing = (answer.body as { details: { email: string; error?: string | null } }[]).find(
      (m) => (m.details.error ?? '').length > 40,
    );
    if (failing) {
      const { email, error } = failing.details;
      broken = { id: company.id, name: company.name, email, error: error as string };
      break;
    }
  }
  expect(broken).toBeDefined();
  h.sandbox.reset();
});
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `essential columns (skipped: ${TMUX_MISSING})` : 'essential columns in a terminal',
  () => {
    it.each(WIDTHS)('mailboxes at %i columns: the id and the error stay, readable', async (width) => {
      const { output, exit } = await terminals.at(width).run(`agency mailboxes --company ${broken.id}`);
      expect(exit).toBe(0);
      expect(lines(output)[0]).toMatch(/^ID +EMAIL +ERROR/);
      const row = lines(output).find((line) => line.includes(broken.error.slice(0, 18)));
      // The error keeps at least its first 18 characters, and the address at least its mailbox part.
      expect(row, output).toBeDefined();
      expect(row).toContain(broken.email.slice(0, broken.email.indexOf('@') + 1));
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(width);
      if (width === 100) expect(row).toContain(broken.email);
      // The counters went first, and the note says so.
      expect(output.replace(/\s+/g, ' ')).toMatch(
        /columns hidden \(type, from name, daily limit, sent today/,
      );
    });

    it.each(WIDTHS)('inventory at %i columns: ids, names and PROBLEMS; no bare ERRORS', async (width) => {
      const inactive = inactiveCompany(h.sandbox);
      const { output, exit } = await terminals
        .at(width)
        .run(`agency inventory --company ${broken.id} --company ${inactive.id}`);
      expect(exit).toBe(5);
      const header = lines(output)[0] as string;
      expect(header).toMatch(/^ID +NAME +.*PROBLEMS$/);
      expect(header).not.toMatch(/(^| )ERRORS/);
      expect(output).toMatch(
        new RegExp(`^${broken.id} +${escapeRegExp(broken.name)} .*\\d mailbox error`, 'm'),
      );
      expect(output).toMatch(new RegExp(`^${inactive.id} +${escapeRegExp(inactive.name)} .*inactive$`, 'm'));
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(width);
    });

    it('inventory at 100 columns: headers say whose errors they count', async () => {
      const { output } = await terminals
        .at(100)
        .run(`agency inventory --company ${broken.id} --columns id,keys,mailbox_errors,campaign_errors`);
      expect(lines(output)[0]).toMatch(/^ID +KEYS +MAILBOX ERRORS +CAMPAIGN ERRORS$/);
    });

    it.each(WIDTHS)(
      'webhooks subscribe with failures at %i columns: company, result, reason',
      async (width) => {
        const inactive = inactiveCompany(h.sandbox);
        // Three URLs for one event is the service's limit: the fourth is refused (409) for that reason.
        for (const n of [1, 2, 3]) {
          const r = await h.run([
            'webhooks',
            'subscribe',
            '--event',
            'link_clicked',
            '--url',
            `https://crm${n}.example.com/h`,
            '--company',
            String(broken.id),
          ]);
          expect([0, 5]).toContain(r.code);
        }
        const { output, exit } = await terminals
          .at(width)
          .run(
            `agency webhooks subscribe --event link_clicked --url https://crm4.example.com/h --company ${broken.id} --company ${inactive.id}`,
          );
        expect(exit).toBe(5);
        expect(lines(output)[0]).toMatch(/^COMPANY +(EVENT +)?(TARGET URL +)?RESULT +REASON$/);
        expect(output).toMatch(
          new RegExp(`^${inactive.id} .*failed +Company ${inactive.id} is inactive$`, 'm'),
        );
        expect(output).toMatch(new RegExp(`^${broken.id} .*failed +An event can be subscribed`, 'm'));
        // The summary names both causes, not one guess that covers every 409.
        const summary = output.replace(/\s+/g, ' ');
        expect(summary).toContain('1 failed: 409 Conflict — Company is inactive');
        expect(summary).toContain('1 failed: 409 Conflict — An event can be subscribed to at most 3 URLs');
        expect(summary).not.toContain('inactive, or a limit');
        for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(width);
      },
    );

    it.each(WIDTHS)('health at %i columns: company, name, severity and detail', async (width) => {
      const { output, exit } = await terminals.at(width).run(`agency health --company ${broken.id}`);
      expect(exit).toBe(7);
      expect(lines(output)[0]).toMatch(/^COMPANY +NAME +SEVERITY +(CHECK +)?DETAIL$/);
      const row = lines(output).find(
        (line) => line.includes('critical') && line.startsWith(String(broken.id)),
      );
      expect(row, output).toBeDefined();
      // The name keeps at least its first 15 characters, the detail its first 15.
      expect(row).toContain(broken.name.slice(0, 15));
      expect(row).toMatch(new RegExp(`critical +${escapeRegExp(broken.email.slice(0, 15))}`));
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(width);
    });

    it.each(WIDTHS)('companies list at %i columns: ids and names whole', async (width) => {
      const { output, exit } = await terminals.at(width).run('agency companies list --limit 10');
      expect(exit).toBe(0);
      expect(lines(output)[0]).toMatch(/^ID +NAME +/);
      for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID).slice(0, 10)) {
        expect(output).toMatch(new RegExp(`^${company.id} +${escapeRegExp(company.name)}( |$)`, 'm'));
      }
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(width);
    });
  },
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
