/**
 * Campaign ids beyond 2^53 are acted on exactly (contract, "Errors and exit codes": an id is never
 * rounded to a neighbouring value): `--campaign 9007199254740993` picks that campaign and not
 * 9007199254740992 (the same double), the write goes to its own path, the row and the --record line
 * carry it as the service wrote it, and `resume --from-record` resumes it. The sandbox's ids are
 * JavaScript numbers, so the service's answers are declared here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock, page } from '../helpers/http-mock.js';
import { testDir } from '../helpers/temp-dir.js';

const BIG = '9007199254740993';
const NEIGHBOUR = '9007199254740992';
/** The HQ account's campaign list: the two ids a double cannot tell apart. */
const list = (bigStatus: string) =>
  `[{"id":${NEIGHBOUR},"name":"Neighbour","status":"RUNNING"},{"id":${BIG},"name":"Big","status":"${bigStatus}"}]`;
const writes = (http: HttpMock) =>
  http.requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.path}`);

describe('campaign ids beyond 2^53', () => {
  it('pause --campaign pauses exactly that one and records it exactly; resume --from-record resumes it', async () => {
    const record = join(testDir('agency-record-'), 'paused.jsonl');
    const pause = new HttpMock()
      .on('GET', '/v1/campaign_list')
      .answer({ status: 200, text: list('RUNNING') })
      .on('POST', `/v2/campaigns/${BIG}/pause`)
      .reply(200);
    const r = await runCommand(['campaigns', 'pause', '--campaign', BIG, '--yes', '--record', record], pause);
    expect(r.code, r.stderr).toBe(0);
    expect(writes(pause)).toEqual([`POST /v2/campaigns/${BIG}/pause`]);
    expect(r.stdout.split('\n')[0]?.split('\t').slice(1, 3)).toEqual([BIG, 'Big']);
    const line = readFileSync(record, 'utf8');
    expect(line).toContain(`"campaign_id":${BIG},`);
    expect(line).not.toContain(NEIGHBOUR);

    const resume = new HttpMock()
      .on('GET', '/v1/campaign_list')
      .answer({ status: 200, text: list('PAUSED') })
      .on('POST', `/v2/campaigns/${BIG}/run`)
      .reply(200);
    const again = await runCommand(['campaigns', 'resume', '--from-record', record, '--yes'], resume);
    expect(again.code, again.stderr).toBe(0);
    expect(writes(resume)).toEqual([`POST /v2/campaigns/${BIG}/run`]);
    expect(again.stdout).toContain(`\t${BIG}\t`);
  });

  it('bounce-shield --campaign reads that campaign only', async () => {
    const http = new HttpMock()
      .on('GET', '/v1/campaign_list')
      .answer({ status: 200, text: list('RUNNING') })
      .on('GET', `/v2/campaigns/${BIG}/bounce_shield/threshold`)
      .reply(200, { bounce_rate_threshold: null });
    const r = await runCommand(['campaigns', 'bounce-shield', '--campaign', BIG, '--json'], http);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`"campaign_id": ${BIG},`);
    http.verify();
  });
});

describe('plan with bounce_shield', () => {
  it('names the campaign beyond 2^53 by its own id and reads its own threshold', async () => {
    const file = join(testDir('agency-plan-'), 'agency.yaml');
    writeFileSync(file, 'companies:\n  - name: Acme Ltd\n    bounce_shield: 3\n');
    const http = new HttpMock()
      .on('GET', '/v2/agency/companies')
      .reply(200, page([{ id: 1001, name: 'Acme Ltd', owner: 'o@a.example', active: true }], 1, 1))
      .on('GET', '/v1/campaign_list')
      .answer({ status: 200, text: list('RUNNING') })
      .on('GET', `/v2/campaigns/${NEIGHBOUR}/bounce_shield/threshold`)
      .reply(200, { bounce_rate_threshold: 3 })
      .on('GET', `/v2/campaigns/${BIG}/bounce_shield/threshold`)
      .reply(200, { bounce_rate_threshold: null });
    const r = await runCommand(['plan', '-f', file], http);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`~ bounce shield 2% → 3% for campaign "Big" (${BIG}) of "Acme Ltd"`);
    http.verify();
  });
});
