/**
 * The `health` tool of `agency mcp` carries the same report as `agency health --json`, and takes the
 * command's filters as arguments (severity, check, columns, limit), so that an assistant asks for the
 * problems it needs instead of the whole agency's.
 */
import { describe, expect, it } from 'vitest';
import { resultJson, sharedMcp } from '../helpers/mcp.js';

// 24 companies: a mix of every check, few enough for a quick whole-agency run.
const shared = sharedMcp([], { seed: { companies: 24 } });

interface Report {
  companies_checked: number;
  problems: Record<string, unknown>[];
}

describe('the health tool', () => {
  it('offers the filters of the command: severity (its values), check (a list), columns, limit', async () => {
    const { tools } = await shared.mcp.client.listTools();
    const properties = (tools.find((t) => t.name === 'health')?.inputSchema.properties ?? {}) as Record<
      string,
      { type?: string; minimum?: number; enum?: unknown; items?: { enum?: unknown } }
    >;
    expect(properties.severity?.enum).toEqual(['critical', 'warning', 'info']);
    expect(properties.check?.type).toBe('array');
    expect(properties.columns?.type).toBe('array');
    expect(properties.limit).toMatchObject({ type: 'integer', minimum: 1 });
    // The verdict is the command line's business: the report is the answer.
    expect(properties).not.toHaveProperty('fail_on');
  });

  it('severity, check, columns and limit: the same report as the command line, owners included', async () => {
    const args = [
      '--severity',
      'warning',
      '--check',
      'mailbox_error,bounce_rate,mailbox_warning',
      '--limit',
      '12',
    ];
    const columns = ['company_id', 'owner', 'severity', 'check'];
    const cli = await shared.h.run(['health', '--json', ...args, '--columns', columns.join(',')]);
    expect([0, 7]).toContain(cli.code);
    const expected = JSON.parse(cli.stdout) as Report;
    expect(expected.problems.length).toBeGreaterThan(0);
    const report = resultJson(
      await shared.call('health', {
        severity: 'warning',
        check: ['mailbox_error', 'bounce_rate', 'mailbox_warning'],
        limit: 12,
        columns,
      }),
    ) as Report;
    expect(report).toEqual(expected);
    expect(report.companies_checked).toBe(12);
    for (const problem of report.problems) {
      expect(Object.keys(problem)).toEqual(columns);
      expect(['critical', 'warning']).toContain(problem.severity);
      expect(['mailbox_error', 'bounce_rate', 'mailbox_warning']).toContain(problem.check);
      expect(typeof problem.owner).toBe('string');
    }
  });
});
