import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/errors.js';
import { CompanyDirectory, CompanyNotFoundError } from '../../src/fleet/resolve.js';
import { selectTargets } from '../../src/fleet/targets.js';
import { FakeAgency } from './fleet-fake.js';

function agency() {
  const a = new FakeAgency();
  a.addCompany('Acme Ltd'); // 1001
  a.addCompany('Old Client', false); // 1002
  a.addCompany('Blue Harbor'); // 1003
  return a;
}

describe('fleet targets', () => {
  it('none means the key’s own account, without any request', async () => {
    const a = agency();
    expect(await selectTargets({}, new CompanyDirectory(a))).toEqual([{ companyId: null }]);
    expect(a.calls).toEqual([]);
  });

  it('--company ids need no listing; names cost one listing; repeats are acted on once', async () => {
    const a = agency();
    const ids = await selectTargets({ company: ['1003', '1001', '1003'] }, new CompanyDirectory(a));
    expect(ids.map((t) => t.companyId)).toEqual([1003, 1001]);
    expect(a.calls).toEqual([]);
    const named = await selectTargets(
      { company: ['Blue Harbor', '1001', 'Acme Ltd'] },
      new CompanyDirectory(a),
    );
    expect(named).toEqual([
      { companyId: 1003, name: 'Blue Harbor' },
      { companyId: 1001, name: 'Acme Ltd' },
    ]);
    expect(a.calls.filter((c) => c.op === 'listCompanies')).toHaveLength(1);
  });

  it('--file takes ids or exact names, skipping blank and # lines; an inactive company named is kept', async () => {
    const a = agency();
    const file = { text: '# clients\n\n  1001  \nOld Client\r\n# end\n', source: 'clients.txt' };
    const targets = await selectTargets({ file }, new CompanyDirectory(a));
    // The name costs one listing (which names the id's company too), and an inactive company named stays.
    expect(targets).toEqual([
      { companyId: 1001, name: 'Acme Ltd' },
      { companyId: 1002, name: 'Old Client' },
    ]);
  });

  it('a bad id anywhere is a usage error naming its line, before any request', async () => {
    const a = agency();
    const file = { text: 'Acme Ltd\n0\n', source: 'clients.txt' };
    const error = await selectTargets({ file }, new CompanyDirectory(a)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('clients.txt line 2');
    expect(a.calls).toEqual([]);
    await expect(selectTargets({ company: ['0'] }, new CompanyDirectory(a))).rejects.toThrow(UsageError);
    await expect(
      selectTargets({ file: { text: '# nothing\n', source: 'x.txt' } }, new CompanyDirectory(a)),
    ).rejects.toThrow(/names no company/);
    expect(a.calls).toEqual([]);
  });

  it('unknown names exit 4, all named at once with their look-alikes', async () => {
    const a = agency();
    const error = await selectTargets({ company: ['acme ltd', 'Nobody'] }, new CompanyDirectory(a)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CompanyNotFoundError);
    expect((error as CompanyNotFoundError).exitCode).toBe(ExitCode.notFound);
    expect((error as Error).message).toContain('"acme ltd"');
    expect((error as Error).message).toContain('"Acme Ltd" (id 1001)');
    expect((error as Error).message).toContain('"Nobody"');
  });

  it('--all is every company in listing order, inactive ones marked to be skipped', async () => {
    const a = agency();
    const targets = await selectTargets({ all: true }, new CompanyDirectory(a));
    expect(targets.map((t) => [t.companyId, t.skipInactive === true])).toEqual([
      [1001, false],
      [1002, true],
      [1003, false],
    ]);
    await expect(selectTargets({ all: true, company: ['1'] }, new CompanyDirectory(a))).rejects.toThrow(
      UsageError,
    );
  });
});
