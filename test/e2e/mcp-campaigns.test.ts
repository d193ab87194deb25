/**
 * The campaign tools of `agency mcp --allow-writes` through the SDK's own client: offered only with
 * --allow-writes, pause and stop annotated destructive, no question (the client confirms the call),
 * dry_run sends nothing, a second call sends nothing.
 */
import { describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { SHARED_MAILBOX } from '../../src/sandbox/seed/campaigns.js';
import { clientCampaigns, sendsFromShared } from '../helpers/campaigns.js';
import { sent } from '../helpers/core.js';
import { resultJson, sharedMcp, startMcp } from '../helpers/mcp.js';

const shared = sharedMcp(['--allow-writes'], { seed: { companies: 26 } });
const call = shared.call;
const writes = () => sent(shared.h.sandbox).filter((q) => q.method !== 'GET');

interface Row {
  company_id: number;
  campaign_id: number;
  result: string;
}

describe('agency mcp campaign tools', () => {
  it('are offered with --allow-writes only; pause and stop are destructive; no yes or record argument', async () => {
    const { tools } = await shared.mcp.client.listTools();
    const tool = (name: string) => tools.find((t) => t.name === name);
    expect(tool('campaigns_pause')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(tool('campaigns_stop')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tool('campaigns_resume')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    expect(tool('campaigns_bounce_shield')?.annotations).toMatchObject({ readOnlyHint: false });
    expect(tool('campaigns_pause')?.inputSchema.properties).not.toHaveProperty('yes');
    expect(tool('campaigns_pause')?.inputSchema.properties).not.toHaveProperty('record');
    expect(tool('campaigns_pause')?.inputSchema.properties).toHaveProperty('dry_run');
    expect(tool('campaigns_resume')?.inputSchema.properties).not.toHaveProperty('from_record');
    expect(tool('campaigns_pause')?.inputSchema.properties).toHaveProperty('mailbox.items.format', 'email');
    expect(tool('campaigns_bounce_shield')?.inputSchema.properties).toHaveProperty('set.type', 'integer');
    const readOnly = await startMcp(shared.h, []);
    try {
      const names = (await readOnly.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('campaigns_list');
      expect(names.filter((name) => /^campaigns_(pause|stop|resume|bounce_shield)$/.test(name))).toEqual([]);
    } finally {
      await readOnly.close();
    }
  });

  it('pauses by mailbox across every client (dry_run first), then resumes those; second calls send nothing', async () => {
    const running = clientCampaigns(shared.h.sandbox).filter(
      (c) => sendsFromShared(c) && c.status === 'RUNNING',
    );
    const dry = resultJson(
      await call('campaigns_pause', { all: true, mailbox: [SHARED_MAILBOX], dry_run: true }),
    ) as Row[];
    expect(writes()).toEqual([]);
    expect(dry.filter((r) => r.result === 'would-pause').map((r) => r.campaign_id)).toEqual(
      running.map((c) => c.id),
    );

    const paused = resultJson(
      await call('campaigns_pause', { all: true, mailbox: [SHARED_MAILBOX] }),
    ) as Row[];
    expect(paused.filter((r) => r.result === 'paused').map((r) => r.campaign_id)).toEqual(
      running.map((c) => c.id),
    );
    expect(writes()).toHaveLength(running.length);
    shared.h.sandbox.reset();
    resultJson(await call('campaigns_pause', { all: true, mailbox: [SHARED_MAILBOX] }));
    expect(writes()).toEqual([]);

    const companies = [...new Set(running.map((c) => c.company))];
    const campaign = running.map((c) => String(c.id));
    const resumed = resultJson(await call('campaigns_resume', { company: companies, campaign })) as Row[];
    expect(resumed.map((r) => r.result)).toEqual(running.map(() => 'resumed'));
    expect(
      clientCampaigns(shared.h.sandbox)
        .filter((c) => running.some((r) => r.id === c.id))
        .map((c) => c.status),
    ).toEqual(running.map(() => 'RUNNING'));
  });

  it('sets a Bounce Shield threshold where it differs', async () => {
    const company = shared.h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[0];
    const rows = resultJson(
      await call('campaigns_bounce_shield', { company: [company?.id], set: 4 }),
    ) as Row[];
    const set = rows.filter((r) => r.result === 'set');
    expect(writes().map((q) => q.method)).toEqual(set.map(() => 'PUT'));
    shared.h.sandbox.reset();
    resultJson(await call('campaigns_bounce_shield', { company: [company?.id], set: 4 }));
    expect(writes()).toEqual([]);
  });
});
