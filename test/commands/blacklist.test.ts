/**
 * `blacklist list|add` against the sandbox: 0-based pages of 1,000, chunks of at most 500, values
 * checked and lower-cased locally, sent once, values already listed not sent again, --dry-run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/cli.js';
import { jsonError } from '../helpers/cli.js';
import { expectUsageError, lines, sent, startCoreHarness } from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts). */
const IN_PROCESS = { inProcess: true };

const listed = (h: Harness, kind: 'domains' | 'emails') => h.sandbox.store.blacklist(MAIN_AGENCY_ID)[kind];

describe('blacklist', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 5 } }, IN_PROCESS);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  it('list without --domains or --emails is refused before any request; its help says one is required', async () => {
    const r = await h.run(['blacklist', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Say which list: --domains or --emails.');
    const help = (await h.run(['blacklist', 'list', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('(this or --emails is required)');
    expect(help).toContain('(this or --domains is required)');
    expect(sent(h.sandbox)).toHaveLength(0);
  });

  it("add and remove without --domains or --emails take each value's list from its form", async () => {
    const added = await h.run(['blacklist', 'add', 'Form@Mixed.example', 'formdomain.example']);
    expect(added.code, added.stderr).toBe(0);
    expect(lines(added.stdout)).toEqual(['form@mixed.example\tadded', 'formdomain.example\tadded']);
    const posts = sent(h.sandbox).filter((q) => q.method === 'POST');
    expect(posts.map((q) => [q.path, q.body])).toEqual([
      ['/v2/agency/blacklist/emails', { emails: ['form@mixed.example'] }],
      ['/v2/agency/blacklist/domains', { domains: ['formdomain.example'] }],
    ]);
    expect(added.stderr).toContain('Added 1 email.');
    expect(added.stderr).toContain('Added 1 domain.');
    const help = (await h.run(['blacklist', 'add', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('else each value goes to the list its form names');

    h.sandbox.reset();
    const removed = await h.run(['blacklist', 'remove', 'formdomain.example', 'form@mixed.example']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(lines(removed.stdout)).toEqual(['formdomain.example\tremoved', 'form@mixed.example\tremoved']);
    expect(
      sent(h.sandbox)
        .filter((q) => q.method === 'DELETE')
        .map((q) => q.path),
    ).toEqual(['/v2/agency/blacklist/domains', '/v2/agency/blacklist/emails']);
  });

  it('list reads 0-based pages of 1,000 and prints one value per line', async () => {
    const r = await h.run(['blacklist', 'list', '--domains']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(listed(h, 'domains'));
    expect(sent(h.sandbox).map((q) => [q.method, q.path, q.query])).toEqual([
      ['GET', '/v2/agency/blacklist/domains', { page: '0', per_page: '1000' }],
    ]);
    expect(sent(h.sandbox)[0]?.headers['x-company-id']).toBeUndefined();
  });

  it('a failed page is named counting from 1 in the message (the request asked for page 0)', async () => {
    h.sandbox.addFault({
      kind: 'status',
      status: 400,
      detail: 'Refused here',
      method: 'GET',
      path: '/v2/agency/blacklist/domains',
      times: 1,
    });
    const r = await h.run(['blacklist', 'list', '--domains']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Could not list the blacklisted domains (page 1)');
    expect(sent(h.sandbox).map((q) => q.query.page)).toEqual(['0']);
  });

  it('list --filter keeps the values containing the text, any case; --json an array of strings', async () => {
    const all = listed(h, 'emails');
    const needle = (all[3] as string).split('@')[1] as string;
    const r = await h.run(['blacklist', 'list', '--emails', '--filter', needle.toUpperCase(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(all.filter((v) => v.includes(needle)));
  });

  it('list --filter with an internationalised name finds what add sent in its ASCII form (fourth pass F2)', async () => {
    expect((await h.run(['blacklist', 'add', '--domains', 'kühne.example'])).code).toBe(0);
    expect((await h.run(['blacklist', 'add', '--emails', 'anna@grüße.example'])).code).toBe(0);
    const domains = await h.run(['blacklist', 'list', '--domains', '--filter', 'KÜHNE']);
    expect(domains.code, domains.stderr).toBe(0);
    expect(domains.stdout).toBe('xn--khne-0ra.example\n');
    const emails = await h.run(['blacklist', 'list', '--emails', '--filter', 'grüße.example']);
    expect(emails.stdout).toBe('anna@xn--gre-6ka8l.example\n');
    const ascii = await h.run(['blacklist', 'list', '--domains', '--filter', 'xn--khne']);
    expect(ascii.stdout).toBe('xn--khne-0ra.example\n');
  });

  it('add: checks, lower-cases, sends a value given twice once and what is listed not again', async () => {
    const present = listed(h, 'domains')[0] as string;
    const r = await h.run([
      'blacklist',
      'add',
      '--domains',
      'New-One.example.com',
      present.toUpperCase(),
      'new-one.example.com',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(['new-one.example.com\tadded', `${present}\texists`]);
    expect(r.stderr).toContain('new-one.example.com is given 2 times (argument 1, argument 3); sent once.');
    const posts = sent(h.sandbox).filter((q) => q.method === 'POST');
    expect(posts.map((q) => [q.path, q.body])).toEqual([
      ['/v2/agency/blacklist/domains', { domains: ['new-one.example.com'] }],
    ]);
    expect(listed(h, 'domains')).toContain('new-one.example.com');

    h.sandbox.reset();
    const again = await h.run(['blacklist', 'add', '--domains', 'new-one.example.com', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([{ value: 'new-one.example.com', result: 'exists' }]);
    expect(sent(h.sandbox).filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('add 1,201 addresses from a file: chunks of 500, 500 and 201 in order; then list pages 0 and 1', async () => {
    const before = listed(h, 'emails').length;
    const values = Array.from({ length: 1201 }, (_, i) => `bulk${i}@chunks.example.org`);
    const file = join(h.configDir, '..', 'emails.txt');
    writeFileSync(file, `# unsubscribed\n${values.join('\n')}\n\n`);
    const r = await h.run(['blacklist', 'add', '--emails', '--file', file], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const posts = sent(h.sandbox).filter((q) => q.method === 'POST');
    expect(posts.map((q) => (q.body as { emails: string[] }).emails.length)).toEqual([500, 500, 201]);
    expect(posts.flatMap((q) => (q.body as { emails: string[] }).emails)).toEqual(values);
    expect(r.stderr).toContain('Added 1201 emails.');

    h.sandbox.reset();
    const list = await h.run(['blacklist', 'list', '--emails', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual(listed(h, 'emails'));
    expect(listed(h, 'emails')).toHaveLength(before + 1201);
    const pages = sent(h.sandbox).map((q) => q.query);
    expect(pages).toEqual([
      { page: '0', per_page: '1000' },
      { page: '1', per_page: '1000' },
    ]);
  }, 60_000);

  it('add --dry-run reads the list and sends nothing', async () => {
    const present = listed(h, 'emails')[0] as string;
    const r = await h.run(['blacklist', 'add', '--emails', 'Maybe@Later.example', present, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(['maybe@later.example\twould-add', `${present}\texists`]);
    expect(sent(h.sandbox).every((q) => q.method === 'GET')).toBe(true);
    expect(listed(h, 'emails')).not.toContain('maybe@later.example');
  });

  it('values read from stdin with --file -', async () => {
    const r = await h.run(['blacklist', 'add', '--domains', '--file', '-', '--json'], {
      input: 'stdin-one.example\n# a comment\n\nSTDIN-two.example\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { value: 'stdin-one.example', result: 'added' },
      { value: 'stdin-two.example', result: 'added' },
    ]);
  });

  it('bad input: exit 2 naming each bad value, nothing sent (not even the list read)', async () => {
    const r = await h.run(['blacklist', 'add', '--domains', 'ok.example', 'jane@x.example', 'not a domain']);
    expectUsageError(r, h.sandbox);
    expect(r.stderr).toContain(
      '"jane@x.example" (argument 2) is an e-mail address, not a domain (use --emails)',
    );
    expect(r.stderr).toContain('"not a domain" (argument 3)');
    expectUsageError(
      await h.run(['blacklist', 'add', '--emails', 'example.com']),
      h.sandbox,
      /use --domains/,
    );
    expectUsageError(await h.run(['blacklist', 'add', 'not-a-value']), h.sandbox, /neither a domain/);
    expectUsageError(await h.run(['blacklist', 'add', '--domains']), h.sandbox, /No domains to add/);
    expectUsageError(await h.run(['blacklist', 'list', '--domains', '--emails']), h.sandbox);
    expectUsageError(await h.run(['blacklist', 'list']), h.sandbox, /--domains or --emails/);
    const json = await h.run(['blacklist', 'add', '--emails', 'nope', '--json']);
    expectUsageError(json, h.sandbox);
    expect(jsonError(json.stderr).error.status).toBeNull();
  });

  it('an internationalised domain goes in its ASCII form, said on stderr; a local part not in ASCII is refused', async () => {
    const r = await h.run(['blacklist', 'add', '--domains', 'Bücher.example', 'xn--bcher-kva.example']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(['xn--bcher-kva.example\tadded']);
    expect(r.stderr).toContain(
      'note: bücher.example (argument 1) is sent in its ASCII form, xn--bcher-kva.example.',
    );
    expect(r.stderr).toContain(
      'note: xn--bcher-kva.example is given 2 times (argument 1, argument 2); sent once.',
    );
    // A note says what was sent: -q keeps it (as it keeps warnings).
    const quiet = await h.run(['-q', 'blacklist', 'add', '--domains', 'Bücher.example', '--dry-run']);
    expect(quiet.stderr).toContain('note: bücher.example (argument 1) is sent in its ASCII form');
    const posts = () => sent(h.sandbox).filter((q) => q.method === 'POST');
    expect(posts().map((q) => q.body)).toEqual([{ domains: ['xn--bcher-kva.example'] }]);

    h.sandbox.reset();
    const email = await h.run(['blacklist', 'add', '--emails', 'info@straße.example', '--dry-run']);
    expect(email.code, email.stderr).toBe(0);
    expect(lines(email.stdout)).toEqual(['info@xn--strae-oqa.example\twould-add']);
    expect(email.stderr).toContain('info@straße.example (argument 1) is sent in its ASCII form');

    const checked = await h.run(['blacklist', 'check', 'bücher.example']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(lines(checked.stdout)).toEqual(['xn--bcher-kva.example\ttrue\ttrue\tdomain']);
    expect(checked.stderr).toContain('is checked in its ASCII form, xn--bcher-kva.example.');

    h.sandbox.reset();
    const local = await h.run(['blacklist', 'add', '--emails', 'jürgen@example.com']);
    expectUsageError(local, h.sandbox, /"jürgen@example.com" \(argument 1\) is not an e-mail address/);
  });

  it('a chunk whose answer was lost is settled by reading the list back: 700 domains, all added', async () => {
    h.sandbox.addFault({ method: 'POST', path: '/v2/agency/blacklist/domains', kind: 'reset-after' });
    const values = Array.from({ length: 700 }, (_, i) => `lost${i}.answers.example`);
    const r = await h.run(['blacklist', 'add', '--domains', ...values]);
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.every((row) => row[1] === 'added')).toBe(true);
    expect(rows).toHaveLength(700);
    expect(r.stderr).toContain(
      'The answer to adding 500 domains was lost; the list, read again, shows them all added.',
    );
    expect(r.stderr).toContain('Added 700 domains.');
    // The lost chunk is never sent again; the list is read before and after it.
    const posts = sent(h.sandbox).filter((q) => q.method === 'POST');
    expect(posts.map((q) => (q.body as { domains: string[] }).domains.length)).toEqual([500, 200]);
    expect(listed(h, 'domains')).toEqual(expect.arrayContaining(values));
  });

  it('a lost answer of remove is settled the same way: gone values are removed, not "not removed"', async () => {
    const present = listed(h, 'domains').slice(0, 2);
    h.sandbox.addFault({
      method: 'DELETE',
      path: '/v2/agency/blacklist/domains',
      kind: 'status-after',
      status: 502,
    });
    const r = await h.run(['blacklist', 'remove', ...present]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(present.map((value) => `${value}\tremoved`));
    expect(r.stderr).toContain('the list, read again, shows them all removed');
    expect(r.stderr).not.toContain('not removed');
  });

  it('a lost answer the read-back shows not carried out is failed, exit 1', async () => {
    // A 502 before the service saw the request: nothing was added.
    h.sandbox.addFault({ method: 'POST', path: '/v2/agency/blacklist/domains', kind: 'status', status: 502 });
    const r = await h.run(['blacklist', 'add', 'never.answers.example']);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)[0]).toMatch(/^never\.answers\.example\tfailed\t.*shows 0 of 1 added/);
    expect(r.stderr).toContain('Running the same command again is safe');
  });

  it('a refused chunk stops the run: the chunk before it reported added, the rest failed, exit 1', async () => {
    // The sandbox refuses a punycode top-level domain that the tool's own check accepts: value 601.
    const values = Array.from({ length: 700 }, (_, i) =>
      i === 600 ? 'refused.xn--p1ai' : `fail${i}.chunks.example`,
    );
    const r = await h.run(['blacklist', 'add', '--domains', ...values]);
    expect(r.code).toBe(1);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows).toHaveLength(700);
    expect(rows.slice(0, 500).every((row) => row.length === 3 && row[1] === 'added' && row[2] === '')).toBe(
      true,
    );
    expect(rows.slice(500).every((row) => row[1] === 'failed')).toBe(true);
    expect(rows[600]?.[2]).toContain('400');
    const posts = sent(h.sandbox).filter((q) => q.method === 'POST');
    expect(posts.map((q) => [q.status, (q.body as { domains: string[] }).domains.length])).toEqual([
      [201, 500],
      [400, 200],
    ]);
    expect(listed(h, 'domains')).toContain('fail499.chunks.example');
    expect(listed(h, 'domains')).not.toContain('fail500.chunks.example');
    expect(r.stderr).toContain('Added 500 domains; 200 domains not added.');

    // --json: the fleet rows' shape, the failure's status and words in `error`.
    h.sandbox.reset();
    const json = await h.run([
      'blacklist',
      'add',
      '--domains',
      'refused.xn--p1ai',
      'json-ok.chunks.example',
      '--json',
    ]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        value: 'refused.xn--p1ai',
        result: 'failed',
        error: { status: 400, message: expect.stringContaining('400') },
      },
      { value: 'json-ok.chunks.example', result: 'failed', error: expect.objectContaining({ status: 400 }) },
    ]);
    // The JSON error (last line of stderr) names the service's status every failure shares.
    const error = JSON.parse(json.stderr.trim().split('\n').at(-1) as string);
    expect(error.error.status).toBe(400);
  });
});
