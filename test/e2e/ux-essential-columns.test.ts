/**
 * Issue 21, item 1, in terminals of 60, 80 and 100 columns: each table keeps what the reader came for
 * (the id, the name or address, what went wrong, and the short columns a reader filters on) and gives up
 * counters and descriptions first; a long cell wraps within its column and is read back whole, never
 * cut; headers say whose errors they count; a failed fleet change names each reason. A check made at
 * every width reads 80 columns in tmux and 60 and 100 in a virtual terminal, which shows the same screen
 * (test/e2e/virtual-terminal.test.ts); a check made at one width reads it in tmux.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { direct, inactiveCompany, lines } from '../helpers/core.js';
import { readOnce } from '../helpers/read-once.js';
import { readTable, wholeText } from '../helpers/table-text.js';
import { TMUX_MISSING } from '../helpers/tmux.js';

const WIDTHS = [60, 80, 100] as const;
/** The widths whose sweeps run in a virtual terminal (test/helpers/virtual-terminal.ts); 80 in tmux. */
const IN_PROCESS = [60, 100];
let h: Harness;
let terminals: AgencyTerminals;
/** An active company with a mailbox whose error is long, and that error. */
let broken: { id: number; name: string; email: string; error: string };
interface Campaign {
  id: number;
  name: string;
  status: string;
  error?: string | null;
}
/** A company with a campaign whose error is long, and its campaigns as the service lists them. */
let campaignsWithError: { company: number; list: Campaign[] };

beforeAll(async () => {
  h = await startHarness({}, { inProcess: true });
  terminals = await startAgencyTerminals(h.configDir, WIDTHS, 50, IN_PROCESS);
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
  for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => c.active)) {
    const answer = await direct(h.sandbox, '/v1/campaign_list', { company: company.id });
    const list = answer.body as Campaign[];
    if (Array.isArray(list) && list.some((c) => (c.error ?? '').length > 20)) {
      campaignsWithError = { company: company.id, list };
      break;
    }
  }
  expect(campaignsWithError).toBeDefined();
  h.sandbox.reset();
});
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

/**
 * What a piped (--json) or direct read returns, read once and shared by the widths that compare a table
 * with it: none of the checks between changes what it reads (each entry names what it reads).
 */
const once = readOnce();

/** A terminal table read back: its lines never wider than the terminal, and nothing cut with '…'. */
function tableAt(width: number, output: string, headers: readonly string[], rowStart?: RegExp) {
  const table = readTable(output, headers, rowStart);
  for (const line of lines(output)) expect(line.length, output).toBeLessThanOrEqual(width);
  expect(output).not.toContain('…');
  return table;
}

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `essential columns (skipped: ${TMUX_MISSING})` : 'essential columns in a terminal',
  () => {
    it.each(WIDTHS)('mailboxes at %i columns: id, type, address and error whole (wrapped)', async (width) => {
      const { output, exit } = await terminals.run(width, `agency mailboxes --company ${broken.id}`);
      expect(exit).toBe(0);
      const table = tableAt(width, output, ['ID', 'TYPE', 'EMAIL', 'ERROR']);
      const answer = await once('mailboxes of broken', () =>
        direct(h.sandbox, '/v2/mailboxes', { company: broken.id }),
      );
      const mailboxes = answer.body as {
        id: number;
        type: string;
        details: { email: string; error?: string };
      }[];
      expect(table.rows.map((r) => r.ID?.join(''))).toEqual(mailboxes.map((m) => String(m.id)));
      mailboxes.forEach((m, i) => {
        const row = table.rows[i];
        expect(row?.TYPE?.join('')).toBe(m.type);
        expect(wholeText(row?.EMAIL, m.details.email), output).toBe(true);
        expect(wholeText(row?.ERROR, m.details.error ?? ''), output).toBe(true);
      });
      if (width === 100) expect(output).toContain(broken.email);
      // The counters went first, and the note says so.
      expect(output.replace(/\s+/g, ' ')).toMatch(/columns hidden \(from_name, daily_limit, sent_today/);
    });

    it.each(WIDTHS)(
      'inventory at %i columns: ids, names and PROBLEMS whole; no bare ERRORS',
      async (width) => {
        const inactive = inactiveCompany(h.sandbox);
        const targets = `--company ${broken.id} --company ${inactive.id}`;
        const { output, exit } = await terminals.run(width, `agency inventory ${targets}`);
        expect(exit).toBe(5);
        const header = lines(output)[0] as string;
        expect(header).toMatch(/^ID +NAME +.*PROBLEMS$/);
        // No column named ERRORS alone (MAILBOX ERRORS says whose), now that a broken mailbox is one
        // problem and PROBLEMS leaves it the room at 100 columns.
        expect(header.split(/ {2,}/)).not.toContain('ERRORS');
        const table = tableAt(width, output, ['ID', 'NAME', 'PROBLEMS']);
        const json = await once(`inventory ${targets}`, () =>
          h.run(['inventory', ...targets.split(' '), '--json']),
        );
        const reports = JSON.parse(json.stdout) as { id: number; name: string; problems: string[] }[];
        expect(table.rows.map((r) => r.ID?.join(''))).toEqual(reports.map((r) => String(r.id)));
        reports.forEach((report, i) => {
          expect(wholeText(table.rows[i]?.NAME, report.name), output).toBe(true);
          expect(wholeText(table.rows[i]?.PROBLEMS, report.problems.join(', ')), output).toBe(true);
        });
        expect(reports[0]?.problems.join(' ')).toMatch(/\d mailbox error/);
        expect(reports[1]?.problems).toEqual(['inactive']);
      },
    );

    it.each(WIDTHS)(
      'inventory of companies with no problems at %i columns (the README tour): PROBLEMS stays, empty; no error count hidden for a description',
      async (width) => {
        const json = await once('inventory --limit 12', () =>
          h.run(['inventory', '--limit', '12', '--json']),
        );
        const clean = (JSON.parse(json.stdout) as { id: number; active: boolean; problems: string[] }[])
          .filter((r) => r.active && r.problems.length === 0)
          .slice(0, 3);
        expect(clean).toHaveLength(3);
        const { output, exit } = await terminals.run(
          width,
          `agency inventory ${clean.map((r) => `--company ${r.id}`).join(' ')}`,
        );
        expect(exit).toBe(0);
        const shown = (lines(output)[0] as string).trim().split(/ {2,}/);
        expect(shown.at(-1), output).toBe('PROBLEMS');
        const table = tableAt(width, output, ['ID', 'NAME', 'PROBLEMS']);
        expect(table.rows.map((r) => r.PROBLEMS)).toEqual([[], [], []]);
        const note = output.replace(/\s+/g, ' ');
        expect(note).not.toMatch(/hidden \([^)]*problems/);
        // What is hidden matters less than what is shown: the descriptions go before the error counts.
        if (shown.includes('MAILBOX TYPES')) expect(shown).toContain('MAILBOX ERRORS');
        if (width >= 80) expect(shown).toContain('MAILBOX ERRORS');
      },
    );

    it('campaigns at 60 columns with no campaign error: the note says ERROR was hidden as empty', async () => {
      const json = await h.run(['campaigns', '--company', '1001', '--json']);
      const list = JSON.parse(json.stdout) as Campaign[];
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((c) => !c.error)).toBe(true);
      const { output, exit } = await terminals.at(60).run('agency campaigns --company 1001');
      expect(exit).toBe(0);
      expect(lines(output)[0]).toMatch(/^ID +NAME +STATUS +FROM EMAIL$/);
      const note = output.replace(/\s+/g, ' ');
      expect(note).toContain('2 columns hidden (created, per_day)');
      expect(note).toContain('error is hidden too: it is empty in every row');
    });

    it('inventory at 100 columns: headers say whose errors they count', async () => {
      const { output } = await terminals
        .at(100)
        .run(`agency inventory --company ${broken.id} --columns id,keys,mailbox_errors,campaign_errors`);
      expect(lines(output)[0]).toMatch(/^ID +KEYS +MAILBOX ERRORS +CAMPAIGN ERRORS$/);
    });

    it.each(WIDTHS)(
      'webhooks subscribe with failures at %i columns: company, URL, result and reason whole',
      async (width) => {
        const inactive = inactiveCompany(h.sandbox);
        // Three URLs for one event is the service's limit: the fourth fails, with no request sent.
        // Once for the three widths: subscribing them again would change nothing.
        await once('three URLs for link_clicked on broken', async () => {
          for (const n of [1, 2, 3]) {
            const r = await h.run([
              'webhooks',
              'subscribe',
              '--event',
              'link_clicked',
              '--url',
              `${HOOK}/${n}`,
              '--company',
              String(broken.id),
            ]);
            expect([0, 5]).toContain(r.code);
          }
        });
        const { output, exit } = await terminals.run(
          width,

          `agency webhooks subscribe --event link_clicked --url ${HOOK}/4 --company ${broken.id} --company ${inactive.id}`,
        );
        expect(exit).toBe(5);
        expect(lines(output)[0]).toMatch(/^COMPANY +(EVENT +)?TARGET URL +RESULT +REASON$/);
        const table = tableAt(width, output, ['COMPANY', 'TARGET URL', 'RESULT', 'REASON']);
        const [limited, refused] = table.rows;
        expect(limited?.COMPANY).toEqual([String(broken.id)]);
        expect(refused?.COMPANY).toEqual([String(inactive.id)]);
        for (const row of table.rows) {
          expect(wholeText(row['TARGET URL'], `${HOOK}/4`), output).toBe(true);
          expect(row.RESULT).toEqual(['failed']);
        }
        // The reason names the URLs that hold the slots; nothing was sent for it.
        const slots = [1, 2, 3].map((n) => `${HOOK}/${n}`).join(', ');
        expect(
          wholeText(
            limited?.REASON,
            `LINK_CLICKED has 3 URLs already, the service's limit per event and account (${slots}); not sent`,
          ),
          output,
        ).toBe(true);
        expect(wholeText(refused?.REASON, `Company ${inactive.id} is inactive`)).toBe(true);
        // The summary names both causes, not one guess that covers every 409.
        const summary = output.replace(/\s+/g, ' ');
        expect(summary).toContain('1 failed: 409 Conflict — Company is inactive');
        expect(summary).toContain("1 failed: LINK_CLICKED has 3 URLs already (the service's limit)");
        expect(summary).not.toContain('inactive, or a limit');
        // webhooks list: each URL whole, wrapped where it must be.
        const list = await terminals.run(width, `agency webhooks list --company ${broken.id}`);
        const listed = tableAt(width, list.output, ['COMPANY', 'EVENT', 'TARGET URL'], /^\d+ {2}/);
        for (const n of [1, 2, 3]) {
          const whole = listed.rows.filter((r) => wholeText(r['TARGET URL'], `${HOOK}/${n}`));
          expect(whole, list.output).toHaveLength(1);
        }
      },
    );

    it.each(WIDTHS)(
      'webhooks subscribe of a short URL with a failure at %i columns: the URL on one line, the reason wraps',
      async (width) => {
        const inactive = inactiveCompany(h.sandbox);
        const url = 'https://h.example/d';
        const { output, exit } = await terminals.run(
          width,

          `agency webhooks subscribe --event prospect_bounced --url ${url} --company ${broken.id} --company ${inactive.id}`,
        );
        expect(exit).toBe(5);
        const table = tableAt(width, output, ['COMPANY', 'TARGET URL', 'RESULT', 'REASON']);
        expect(table.rows.length).toBeGreaterThan(0);
        for (const row of table.rows) expect(row['TARGET URL'], output).toEqual([url]);
        const refused = table.rows.find((r) => r.COMPANY?.[0] === String(inactive.id));
        expect(wholeText(refused?.REASON, `Company ${inactive.id} is inactive`), output).toBe(true);
        // Without a failure, a URL of 30 on one line too: the event (typed in the command) gives way.
        // One URL per width: a pair already subscribed is not listed on a terminal.
        const long = `https://t.example/hook-crm-${String(width).padStart(3, '0')}`;
        expect(long).toHaveLength(30);
        const done = await terminals.run(
          width,
          `agency webhooks subscribe --event task_done --url ${long} --company ${broken.id}`,
        );
        expect(done.exit).toBe(0);
        const subscribed = tableAt(width, done.output, ['COMPANY', 'TARGET URL', 'RESULT']);
        expect(subscribed.rows[0]?.['TARGET URL'], done.output).toEqual([long]);
      },
    );

    it.each(WIDTHS)(
      'webhooks move --dry-run at %i columns: company, the new URL whole, result',
      async (width) => {
        // Once for the three widths: the moves are dry runs, the subscription stays.
        const subscribed = await once('HOOK/1 subscribed on broken', () =>
          h.run([
            'webhooks',
            'subscribe',
            '--event',
            'link_clicked',
            '--url',
            `${HOOK}/1`,
            '--company',
            String(broken.id),
          ]),
        );
        expect(subscribed.code, subscribed.stderr).toBe(0);
        const to = `${HOOK}/moved-to-the-new-crm`;
        const { output, exit } = await terminals.run(
          width,
          `agency webhooks move --from ${HOOK}/1 --to ${to} --company ${broken.id} --dry-run`,
        );
        expect(exit).toBe(0);
        const table = tableAt(width, output, ['COMPANY', 'TO', 'RESULT'], /^\d+ {2}/);
        expect(table.rows).toHaveLength(1);
        expect(table.rows[0]?.COMPANY).toEqual([String(broken.id)]);
        expect(wholeText(table.rows[0]?.TO, to), output).toBe(true);
        expect(table.rows[0]?.RESULT).toEqual(['would-move']);
      },
    );

    it.each(WIDTHS)(
      'health at %i columns: company, name, severity and detail whole; the check whole from 100 up, hidden at 60',
      async (width) => {
        const { output, exit } = await terminals.run(width, `agency health --company ${broken.id}`);
        expect(exit).toBe(7);
        // At 60 CHECK (it repeats what DETAIL says; piped and --json keep it) gives way before DETAIL
        // would wrap to lines of 13 that break its words (second new-user pass, finding 1).
        const headers = ['COMPANY', 'NAME', 'SEVERITY', ...(width > 60 ? ['CHECK'] : []), 'DETAIL'];
        expect(lines(output)[0]).toMatch(new RegExp(`^${headers.join(' +')}$`));
        if (width === 60) expect(output).toContain('1 column hidden (check)');
        const table = tableAt(width, output, headers);
        const detailStart = (lines(output)[0] as string).indexOf('DETAIL');
        expect(width - detailStart).toBeGreaterThanOrEqual(20);
        const json = await once('health of broken', () =>
          h.run(['health', '--company', String(broken.id), '--json']),
        );
        const problems = (JSON.parse(json.stdout) as { problems: Record<string, string | number>[] })
          .problems;
        expect(problems.length).toBeGreaterThan(1);
        expect(table.rows).toHaveLength(problems.length);
        const detailWidth = Math.max(...table.rows.flatMap((r) => (r.DETAIL ?? []).map((l) => l.length)));
        problems.forEach((problem, i) => {
          const row = table.rows[i];
          expect(row?.COMPANY).toEqual([String(problem.company_id)]);
          expect(row?.SEVERITY).toEqual([problem.severity]);
          expect(wholeText(row?.NAME, String(problem.name)), output).toBe(true);
          // From 100 columns the check, an identifier a reader greps for, is on one line (finding 2).
          if (width >= 100) expect(row?.CHECK, output).toEqual([problem.check]);
          else if (width > 60) expect(wholeText(row?.CHECK, String(problem.check)), output).toBe(true);
          expect(wholeText(row?.DETAIL, String(problem.detail)), output).toBe(true);
          // Wrapped at spaces: no word that fits the column is split across its lines.
          const printed = (row?.DETAIL ?? []).flatMap((line) => line.split(' '));
          for (const word of String(problem.detail).split(' ')) {
            if (word.length <= detailWidth) expect(printed, output).toContain(word);
          }
        });
        expect(problems.some((p) => String(p.detail).includes(broken.error))).toBe(true);
      },
    );

    it.each(WIDTHS)(
      'campaigns at %i columns: id, name, STATUS (what --status filters on) and error whole (new-user finding 27)',
      async (width) => {
        const company = campaignsWithError.company;
        const { output, exit } = await terminals.run(width, `agency campaigns --company ${company}`);
        expect(exit).toBe(0);
        const table = tableAt(width, output, ['ID', 'NAME', 'STATUS', 'ERROR']);
        expect(table.rows.map((r) => r.ID?.join(''))).toEqual(
          campaignsWithError.list.map((c) => String(c.id)),
        );
        campaignsWithError.list.forEach((campaign, i) => {
          const row = table.rows[i];
          expect(row?.STATUS?.join(''), output).toBe(campaign.status);
          expect(wholeText(row?.NAME, campaign.name), output).toBe(true);
          expect(wholeText(row?.ERROR, campaign.error ?? ''), output).toBe(true);
        });
      },
    );

    it.each(WIDTHS)(
      'companies email-accounts at %i columns: id, TYPE (SMTP or IMAP), address and error whole (new-user finding 4)',
      async (width) => {
        const { output, exit } = await terminals.run(width, `agency companies email-accounts ${broken.id}`);
        expect(exit).toBe(0);
        const table = tableAt(width, output, ['ID', 'TYPE', 'EMAIL', 'ERROR']);
        const json = await once('email accounts of broken', () =>
          h.run(['companies', 'email-accounts', String(broken.id), '--json']),
        );
        const accounts = JSON.parse(json.stdout) as {
          id: number;
          type: string;
          details: { email: string; error?: string | null };
        }[];
        // The broken mailbox is among them: the checks below are not over an empty list.
        expect(accounts.some((a) => a.details.error)).toBe(true);
        expect(table.rows.map((r) => r.ID?.join(''))).toEqual(accounts.map((a) => String(a.id)));
        accounts.forEach((account, i) => {
          expect(table.rows[i]?.TYPE?.join('')).toBe(account.type);
          expect(wholeText(table.rows[i]?.EMAIL, account.details.email), output).toBe(true);
          expect(wholeText(table.rows[i]?.ERROR, account.details.error ?? ''), output).toBe(true);
        });
      },
    );

    it.each(WIDTHS)('companies list at %i columns: ids and names whole', async (width) => {
      const { output, exit } = await terminals.run(width, 'agency companies list --limit 10');
      expect(exit).toBe(0);
      const table = tableAt(width, output, ['ID', 'NAME']);
      const companies = h.sandbox.store.companies(MAIN_AGENCY_ID).slice(0, 10);
      expect(table.rows.map((r) => r.ID?.join(''))).toEqual(companies.map((c) => String(c.id)));
      // Names whole, on one line: the counters gave way for them.
      expect(table.rows.map((r) => r.NAME)).toEqual(companies.map((c) => [c.name]));
    });

    it.each(WIDTHS)(
      'companies users at %i columns: id, name, email whole; roles on one line (N3)',
      async (width) => {
        const { output, exit } = await terminals.run(width, `agency companies users ${broken.id}`);
        expect(exit).toBe(0);
        const table = tableAt(width, output, ['ID', 'NAME', 'EMAIL', 'ROLES']);
        const json = await once('users of broken', () =>
          h.run(['companies', 'users', String(broken.id), '--json']),
        );
        const users = JSON.parse(json.stdout) as {
          id: number;
          name: string;
          email: string;
          roles: string[];
        }[];
        expect(users.some((u) => u.roles.join(',').length > 20)).toBe(true);
        expect(table.rows.map((r) => r.ID?.join(''))).toEqual(users.map((u) => String(u.id)));
        users.forEach((user, i) => {
          expect(wholeText(table.rows[i]?.NAME, user.name), output).toBe(true);
          expect(wholeText(table.rows[i]?.EMAIL, user.email), output).toBe(true);
          // `authorized_team_member` is what one greps for: never split, the address wraps instead.
          expect(table.rows[i]?.ROLES, output).toEqual([user.roles.join(',')]);
        });
      },
    );
  },
);

/** Long webhook URLs, as CRMs give them. */
const HOOK = 'https://hooks.crm-integration.example.com/webhooks/woodpecker/link-clicked';
