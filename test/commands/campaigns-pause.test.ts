/**
 * `campaigns pause | stop | resume` against the sandbox, in-process: the incident playbook (pause by
 * mailbox across every client with a record, resume from the record), only what changes a status
 * sent, the question and --yes, --dry-run, faults (a 409, a lost answer, a 500), and the record file.
 * Each checked by stdout, stderr, the exit code and the requests the sandbox received and holds.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { campaignsOf } from '../../src/sandbox/resources/campaigns.js';
import { SHARED_MAILBOX, unsupportedCampaign } from '../../src/sandbox/seed/campaigns.js';
import type { CompanyRecord } from '../../src/sandbox/store.js';
import { accountOfCompany } from '../../src/sandbox/types.js';
import {
  clientCampaigns as clientCampaignsOf,
  clientContext as clientContextOf,
  sendsFromShared,
} from '../helpers/campaigns.js';
import { agencyEnv, type Harness, startHarness } from '../helpers/cli.js';
import { expectUsageError, lines } from '../helpers/core.js';
import { fakeTerminal } from '../helpers/fake-terminal.js';
import { testDir } from '../helpers/temp-dir.js';

let h: Harness;
let dir: string;
let files = 0;
// Each test changes campaign statuses: each gets a sandbox of its own.
beforeEach(async () => {
  h = await startHarness({ seed: { companies: 26 } }, { inProcess: true });
  dir = testDir('campaigns-pause-');
});
afterEach(() => h.close());

const recordPath = () => join(dir, `record-${++files}.jsonl`);

const clientContext = (companyId: number) => clientContextOf(h.sandbox, companyId);
const clientCampaigns = () => clientCampaignsOf(h.sandbox);

function activeClient(index: number) {
  const company = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[index];
  if (!company) throw new Error('too few active clients');
  return company;
}

/** A client with a RUNNING campaign the v2 API accepts. */
function pickRunning() {
  for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })) {
    const campaign = campaignsOf(clientContext(company.id)).find(
      (c) => c.status === 'RUNNING' && !unsupportedCampaign(c.id),
    );
    if (campaign) return { company, campaign };
  }
  throw new Error('no seeded client runs a campaign');
}

const writes = () => h.requests().filter((q) => q.method !== 'GET');
/** `campaigns pause` of one campaign of one client, recorded in `record`, without asking. */
/** The command on a terminal, `answer` typed at its question. */
async function onTerminal(argv: string[], answer: string) {
  const terminal = fakeTerminal({ tty: true, stdinTTY: true, input: answer, columns: 120 });
  const code = await main(argv, { ...terminal.streams, env: agencyEnv({ configDir: h.configDir }) });
  return { code, stdout: terminal.stdout(), stderr: terminal.stderr() };
}

const pauseOne = (company: { id: number }, campaign: { id: number }, record: string) =>
  h.run([
    'campaigns',
    'pause',
    '--company',
    String(company.id),
    '--campaign',
    String(campaign.id),
    '--record',
    record,
    '--yes',
  ]);
const actionPath = (id: number, action: string) => `/rest/v2/campaigns/${id}/${action}`;

describe('the incident: pause by mailbox across every client, resume from the record', () => {
  it('pauses exactly the RUNNING campaigns sending from the address, records them, and resume puts back exactly those', async () => {
    const before = clientCampaigns();
    const running = before.filter((c) => sendsFromShared(c) && c.status === 'RUNNING');
    expect(new Set(running.map((c) => c.company)).size, 'several clients share the mailbox').toBeGreaterThan(
      2,
    );
    const alreadyPaused = before.filter((c) => sendsFromShared(c) && c.status === 'PAUSED');
    expect(alreadyPaused.length).toBeGreaterThan(0);
    const record = recordPath();

    const r = await h.run([
      'campaigns',
      'pause',
      '--all',
      '--mailbox',
      'OPS@client.example',
      '--record',
      record,
      '--yes',
    ]);
    expect(r.code, r.stderr).toBe(0);
    // One POST pause per running campaign of that mailbox, no body, with the client's x-company-id.
    expect(
      writes()
        .map((q) => q.path)
        .sort(),
    ).toEqual(running.map((c) => actionPath(c.id, 'pause')).sort());
    for (const q of writes()) {
      const campaign = running.find((c) => actionPath(c.id, 'pause') === q.path);
      expect(q.headers['x-company-id']).toBe(String(campaign?.company));
      expect(q.body).toBeUndefined();
    }
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.filter((row) => row[4] === 'paused').map((row) => Number(row[1]))).toEqual(
      running.map((c) => c.id),
    );
    expect(rows.filter((row) => row[4] === 'already-paused').map((row) => Number(row[1]))).toEqual(
      alreadyPaused.map((c) => c.id),
    );
    expect(r.stderr).toContain(`${running.length} paused`);
    // The record: one line per campaign paused, 0600.
    expect(statSync(record).mode & 0o777).toBe(0o600);
    const recorded = lines(readFileSync(record, 'utf8')).map((line) => JSON.parse(line));
    // Lines come as each account's changes are confirmed (accounts run several at once).
    const byId = (a: { campaign_id: number }, b: { campaign_id: number }) => a.campaign_id - b.campaign_id;
    expect(
      recorded.sort(byId).map((e) => [e.company_id, e.campaign_id, e.campaign, e.status_before]),
    ).toEqual(running.map((c) => [c.company, c.id, c.name, 'RUNNING']));
    for (const e of recorded) expect(Date.parse(e.at)).not.toBeNaN();
    // The list shows them paused; nothing else changed.
    const after = clientCampaigns();
    for (const c of after) {
      const was = before.find((b) => b.id === c.id)?.status;
      expect(c.status).toBe(running.some((p) => p.id === c.id) ? 'PAUSED' : was);
    }

    // A second run changes nothing.
    h.sandbox.reset();
    const again = await h.run([
      'campaigns',
      'pause',
      '--all',
      '--mailbox',
      SHARED_MAILBOX,
      '--record',
      record,
      '--yes',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(writes()).toEqual([]);
    expect(lines(readFileSync(record, 'utf8'))).toHaveLength(running.length);

    // Resume from the record: exactly those, never the ones that were paused before the pause run.
    h.sandbox.reset();
    const resumed = await h.run(['campaigns', 'resume', '--from-record', record, '--yes']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(
      writes()
        .map((q) => q.path)
        .sort(),
    ).toEqual(running.map((c) => actionPath(c.id, 'run')).sort());
    expect(lines(resumed.stdout).map((line) => line.split('\t')[4])).toEqual(running.map(() => 'resumed'));
    expect(clientCampaigns()).toEqual(before);

    h.sandbox.reset();
    const twice = await h.run(['campaigns', 'resume', '--from-record', record, '--yes']);
    expect(twice.code, twice.stderr).toBe(0);
    expect(writes()).toEqual([]);
    // Five runs over every client, and the first run of the file loads the program: time on a busy machine.
  }, 90_000);

  it('`campaigns list` shows the status after a pause', async () => {
    const { company, campaign: target } = pickRunning();
    const id = String(target?.id);
    expect(
      (await h.run(['campaigns', 'pause', '--company', String(company.id), '--campaign', id, '--yes'])).code,
    ).toBe(0);
    const listed = await h.run(['campaigns', '--company', String(company.id), '--json']);
    expect(JSON.parse(listed.stdout).find((c: { id: number }) => c.id === target?.id).status).toBe('PAUSED');
  });
});

/** A client with a RUNNING campaign the v2 API refuses (409) and at least one it accepts. */
function clientWithUnsupported() {
  for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })) {
    const running = campaignsOf(clientContext(company.id)).filter((c) => c.status === 'RUNNING');
    const refused = running.filter((c) => unsupportedCampaign(c.id));
    if (refused.length > 0 && refused.length < running.length) return { company, running, refused };
  }
  throw new Error('no seeded client with an unsupported running campaign');
}

describe('what is sent, and what is not', () => {
  it('a 409 fails only its row, with the service words; the others are paused; exit 5', async () => {
    const { company, running, refused } = clientWithUnsupported();
    const record = recordPath();
    const r = await h.run([
      'campaigns',
      'pause',
      '--company',
      String(company.id),
      '--record',
      record,
      '--yes',
    ]);
    expect(r.code).toBe(5);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    for (const c of running) {
      const row = rows.find((x) => Number(x[1]) === c.id);
      if (refused.includes(c)) {
        expect(row?.[4]).toBe('failed');
        expect(row?.[5]).toContain('API_UNSUPPORTED_CAMPAIGN_FEATURES');
      } else expect(row?.[4]).toBe('paused');
    }
    expect(writes()).toHaveLength(running.length);
    const recorded = lines(readFileSync(record, 'utf8')).map((line) => JSON.parse(line).campaign_id);
    expect(recorded).toEqual(running.filter((c) => !refused.includes(c)).map((c) => c.id));
    expect(r.stderr).toMatch(/1 of \d+ rows failed|rows failed/);
  });

  it('--dry-run reads only and shows would-pause; without --yes and no terminal: exit 2, nothing read', async () => {
    const dry = await h.run(['campaigns', 'pause', '--all', '--mailbox', SHARED_MAILBOX, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(writes()).toEqual([]);
    expect(lines(dry.stdout).some((line) => line.endsWith('\twould-pause'))).toBe(true);
    expect(dry.stderr).toContain('Nothing was sent.');
    h.sandbox.reset();
    const record = recordPath();
    const refused = await h.run(['campaigns', 'pause', '--all', '--record', record]);
    expectUsageError(refused, h.sandbox, /needs --yes when it cannot ask/);
    expect(() => statSync(record)).toThrow();
  });

  it('on a terminal the changes are listed and asked: no sends nothing (exit 1), yes pauses', async () => {
    const company = activeClient(1);
    const running = campaignsOf(clientContext(company.id)).filter(
      (c) => c.status === 'RUNNING' && !unsupportedCampaign(c.id),
    );
    expect(running.length).toBeGreaterThan(0);
    const args = ['campaigns', 'pause', '--company', String(company.id)];
    const ids = running.flatMap((c) => ['--campaign', String(c.id)]);
    const ask = (answer: string) => onTerminal([...args, ...ids], answer);
    const no = await ask('n\n');
    expect(no.code).toBe(1);
    // Given by id, the company is named all the same (its name read from the company list's first page).
    const account = `${JSON.stringify(company.name)} (${company.id})`;
    const campaigns = `campaign${running.length === 1 ? '' : 's'}`;
    expect(no.stderr).toContain(`Pause ${running.length} running ${campaigns} of ${account}?`);
    expect(no.stderr).toContain(
      `${JSON.stringify(running[0]?.name)} (${running[0]?.id}) of ${account}, RUNNING`,
    );
    expect(no.stderr).not.toContain(`company ${company.id}`);
    expect(h.requests().filter((q) => q.path === '/rest/v2/agency/companies')).toHaveLength(1);
    expect(no.stderr).toContain('nothing was changed');
    expect(no.stdout).toBe('');
    expect(writes()).toEqual([]);
    const yes = await ask('y\n');
    expect(yes.code, yes.stderr).toBe(0);
    expect(writes().map((q) => q.path)).toEqual(running.map((c) => actionPath(c.id, 'pause')));
  });

  it('stop on two clients given by id: the question says which statuses and how many clients, each line names its client', async () => {
    const stops = (company: { id: number }) =>
      campaignsOf(clientContext(company.id)).some((c) => c.status === 'RUNNING' || c.status === 'PAUSED');
    const [a, b] = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).filter(stops) as [
      CompanyRecord,
      CompanyRecord,
    ];
    const stoppable = [a, b].flatMap((company) =>
      campaignsOf(clientContext(company.id))
        .filter((c) => c.status === 'RUNNING' || c.status === 'PAUSED')
        .map((c) => ({ company, campaign: c })),
    );
    const statuses = ['RUNNING', 'PAUSED'].filter((s) => stoppable.some((x) => x.campaign.status === s));
    const kind = statuses.map((s) => s.toLowerCase()).join(' or ');
    const r = await onTerminal(
      ['campaigns', 'stop', '--company', String(a.id), '--company', String(b.id)],
      'n\n',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Stop ${stoppable.length} ${kind} campaigns of 2 clients?`);
    for (const { company, campaign } of stoppable)
      expect(r.stderr).toContain(
        `${JSON.stringify(campaign.name)} (${campaign.id}) of ${JSON.stringify(company.name)} (${company.id}), ${campaign.status}`,
      );
    expect(writes()).toEqual([]);
  });

  it('a --campaign id in none of the lists: exit 4 naming it, nothing sent', async () => {
    const company = activeClient(0);
    const r = await h.run([
      'campaigns',
      'stop',
      '--company',
      String(company.id),
      '--campaign',
      '424242',
      '--yes',
    ]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('424242');
    expect(r.stdout).toBe('');
    expect(writes()).toEqual([]);
  });

  it('stop stops RUNNING and PAUSED; resume runs PAUSED and STOPPED, never DRAFT, EDITED or COMPLETED', async () => {
    const company = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).find((c) => {
      const statuses = campaignsOf(clientContext(c.id)).map((x) => x.status);
      return (
        ['RUNNING', 'PAUSED'].every((s) => statuses.includes(s as never)) &&
        statuses.some((s) => ['DRAFT', 'EDITED', 'COMPLETED'].includes(s))
      );
    });
    if (!company) throw new Error('no seeded client with varied campaigns');
    const seeded = campaignsOf(clientContext(company.id)).filter((c) => !unsupportedCampaign(c.id));
    const ids = seeded.flatMap((c) => ['--campaign', String(c.id)]);
    const stop = await h.run(['campaigns', 'stop', '--company', String(company.id), ...ids, '--yes']);
    expect(stop.code, stop.stderr).toBe(0);
    const stoppable = seeded.filter((c) => c.status === 'RUNNING' || c.status === 'PAUSED');
    expect(writes().map((q) => q.path)).toEqual(stoppable.map((c) => actionPath(c.id, 'stop')));
    h.sandbox.reset();
    const resume = await h.run(['campaigns', 'resume', '--company', String(company.id), ...ids, '--yes']);
    expect(resume.code, resume.stderr).toBe(0);
    const resumable = seeded.filter((c) => ['RUNNING', 'PAUSED', 'STOPPED'].includes(c.status));
    expect(writes().map((q) => q.path)).toEqual(resumable.map((c) => actionPath(c.id, 'run')));
    const rows = lines(resume.stdout).map((line) => line.split('\t'));
    for (const c of seeded.filter((x) => ['DRAFT', 'EDITED', 'COMPLETED'].includes(x.status)))
      expect(rows.find((row) => Number(row[1]) === c.id)?.[4]).toBe('not-paused');
  });

  it('without targets: the HQ account itself, said on stderr', async () => {
    const r = await h.run(['campaigns', 'pause', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('on the HQ account itself only; --all for every client');
    expect(h.requests().length).toBeGreaterThan(0);
    expect(h.requests().every((q) => q.headers['x-company-id'] === undefined)).toBe(true);
    expect(lines(r.stdout)[0]?.startsWith('\t')).toBe(true);
  });
});

describe('lost answers and failures', () => {
  it('an answer lost after the pause was done: read back, reported paused and recorded; one POST', async () => {
    const { company, campaign } = pickRunning();
    h.sandbox.addFault({
      kind: 'status-after',
      status: 502,
      method: 'POST',
      path: `/v2/campaigns/${campaign.id}/pause`,
    });
    const record = recordPath();
    const r = await pauseOne(company, campaign, record);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)[0]?.split('\t')[4]).toBe('paused');
    expect(r.stderr).toMatch(/was lost; read again, it is PAUSED: done/);
    expect(writes()).toHaveLength(1);
    expect(
      h.requests().some((q) => q.method === 'GET' && q.path === `/rest/v2/campaigns/${campaign.id}`),
    ).toBe(true);
    expect(lines(readFileSync(record, 'utf8'))).toHaveLength(1);
  });

  it('a 500 before the pause was done: read back, the row fails as not changed, no record line, never sent again', async () => {
    const { company, campaign } = pickRunning();
    h.sandbox.addFault({
      kind: 'status',
      status: 500,
      method: 'POST',
      path: `/v2/campaigns/${campaign.id}/pause`,
    });
    const record = recordPath();
    const r = await pauseOne(company, campaign, record);
    expect(r.code).toBe(1);
    const row = lines(r.stdout)[0]?.split('\t');
    expect(row?.[4]).toBe('failed');
    expect(row?.[5]).toMatch(/read again, is RUNNING: it was not changed/);
    expect(writes()).toHaveLength(1);
    expect(readFileSync(record, 'utf8')).toBe('');
  });

  it('a campaign changed since the record: changed-since (or already-running), nothing sent, exit 0', async () => {
    const { company, campaign } = pickRunning();
    const record = recordPath();
    const paused = await pauseOne(company, campaign, record);
    expect(paused.code, paused.stderr).toBe(0);
    // Someone edited it in the meantime: it is not started again.
    h.sandbox.store.updateCampaign(accountOfCompany(company.id), campaign.id, { status: 'EDITED' });
    h.sandbox.reset();
    const r = await h.run(['campaigns', 'resume', '--from-record', record, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      [company.id, campaign.id, campaign.name, 'EDITED', 'changed-since'].join('\t'),
    ]);
    expect(writes()).toEqual([]);
    // Someone resumed it by hand: already running, nothing sent.
    h.sandbox.store.updateCampaign(accountOfCompany(company.id), campaign.id, { status: 'RUNNING' });
    const running = await h.run(['campaigns', 'resume', '--from-record', record, '--yes']);
    expect(running.code, running.stderr).toBe(0);
    expect(lines(running.stdout)[0]?.split('\t')[4]).toBe('already-running');
    expect(writes()).toEqual([]);
  });
});

describe('bad input: exit 2, nothing sent', () => {
  it.each([
    [['campaigns', 'pause', '--campaign', 'abc', '--yes'], /--campaign id "abc"/],
    [['campaigns', 'pause', '--mailbox', 'not-an-address', '--yes'], /not an e-mail address/],
    [
      ['campaigns', 'resume', '--from-record', 'missing.jsonl', '--all', '--yes'],
      /missing\.jsonl|--from-record/,
    ],
  ])('%j', async (args, message) => {
    expectUsageError(await h.run(args), h.sandbox, message);
  });

  it('a record line that is not one: named by its line', async () => {
    const path = recordPath();
    writeFileSync(path, '{"company_id":1004,"campaign_id":100400}\nnot json\n');
    const r = await h.run(['campaigns', 'resume', '--from-record', path, '--yes']);
    expectUsageError(r, h.sandbox, /line 2 is not a line of a campaign record/);
  });

  it('--from-record with --all is refused', async () => {
    const path = recordPath();
    writeFileSync(path, '');
    expectUsageError(
      await h.run(['campaigns', 'resume', '--from-record', path, '--all', '--yes']),
      h.sandbox,
      /cannot be combined with --all/,
    );
  });
});
