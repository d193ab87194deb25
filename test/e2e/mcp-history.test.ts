/**
 * Memory for assistants: a server whose runs are recorded (no AGENCY_NO_HISTORY) gives `health` results
 * with each problem's `new` and `first_seen` and the `resolved` list, keeps only the new ones with
 * `new: true`, and offers the history as read-only tools whose results equal `agency history … --json`.
 */
import { describe, expect, it } from 'vitest';
import { USER_RUNS } from '../../src/terms.js';
import { resultJson, sharedMcp } from '../helpers/mcp.js';

const RECORDED = { AGENCY_NO_HISTORY: undefined };
// 12 companies: 1010 has a paused campaign with an error, whose detail ends with the next step.
const shared = sharedMcp([], { seed: { companies: 12 } }, RECORDED);

interface Problem {
  company_id: number;
  check: string;
  detail?: string;
  new?: boolean;
  first_seen?: string;
}
interface Report {
  problems: Problem[];
  resolved?: Problem[];
}

/** Each test runs several tool calls and commands: room for a machine shared with other work. */
const SLOW = 120_000;

describe('the history through agency mcp', () => {
  it(
    'health: new and first_seen from the recorded runs, resolved, new=true; history_health as the command gives it',
    async () => {
      const first = resultJson(await shared.call('health')) as Report;
      expect(first.problems.length).toBeGreaterThan(3);
      expect(first.problems.every((p) => p.new === true && typeof p.first_seen === 'string')).toBe(true);

      const second = resultJson(await shared.call('health')) as Report;
      // The same problems, none new now, each first seen by the first run.
      expect(second.problems.map((p) => [p.company_id, p.check])).toEqual(
        first.problems.map((p) => [p.company_id, p.check]),
      );
      expect(second.problems.every((p) => p.new === false)).toBe(true);
      expect(second.problems.map((p) => p.first_seen)).toEqual(first.problems.map((p) => p.first_seen));
      expect(second.resolved).toEqual([]);

      const onlyNew = resultJson(await shared.call('health', { new: true })) as Report;
      expect(onlyNew.problems).toEqual([]);

      const episodes = resultJson(await shared.call('history_health')) as Problem[];
      const cli = await shared.h.run(['history', 'health', '--json'], { env: RECORDED });
      expect(cli.code, cli.stderr).toBe(0);
      // The same episodes; a next step in a detail is said in each host's terms (stored as the command
      // line says it, read back as a reference).
      const inCli = JSON.parse(cli.stdout) as Problem[];
      expect(episodes).toEqual(inCli.map((e) => ({ ...e, detail: expect.any(String) })));
      expect(episodes.length).toBe(first.problems.length);
      const stalled = (list: Problem[]) =>
        list
          .filter((e) => e.company_id === 1010 && e.check === 'campaign_error')
          .map((e) => e.detail)
          .join('\n');
      expect(stalled(inCli)).toContain(
        'once fixed: agency campaigns resume --company 1010 --campaign 101006',
      );
      // This server offers no writes: resuming is for the user (with --allow-writes, the tool call).
      expect(stalled(episodes)).toContain(
        'once fixed: ask the user to run `agency campaigns resume --company 1010 --campaign 101006`',
      );
      expect(JSON.stringify(episodes).replace(USER_RUNS, '')).not.toMatch(/agency |--company|\uE000/);

      const one = first.problems[0] as Problem;
      const filtered = resultJson(
        await shared.call('history_health', { company: [String(one.company_id)], check: [one.check] }),
      ) as Problem[];
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.every((p) => p.company_id === one.company_id && p.check === one.check)).toBe(true);
    },
    SLOW,
  );

  it(
    'history_report: the totals a recorded report run stored, as `agency history report --json` gives them',
    async () => {
      const report = resultJson(await shared.call('report', { by: 'client' })) as { clients: unknown[] };
      expect(report.clients.length).toBeGreaterThan(0);
      const stored = resultJson(await shared.call('history_report')) as { company_id: number }[];
      const cli = await shared.h.run(['history', 'report', '--json'], { env: RECORDED });
      expect(cli.code, cli.stderr).toBe(0);
      expect(stored).toEqual(JSON.parse(cli.stdout));
      expect(stored.length).toBe(report.clients.length);
    },
    SLOW,
  );

  it('the history tools are read-only and take the command filters (company, since as a date)', async () => {
    const { tools } = await shared.mcp.client.listTools();
    for (const name of ['history_health', 'history_report', 'history_deliverability']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.annotations?.readOnlyHint, name).toBe(true);
      const properties = (tool?.inputSchema.properties ?? {}) as Record<string, { pattern?: string }>;
      expect(properties.since?.pattern, name).toBe('^\\d{4}-\\d{2}-\\d{2}$');
      expect(properties).toHaveProperty('company');
      // A file of names is the command line's: the assistant passes the names.
      expect(properties).not.toHaveProperty('file');
    }
  });
});
