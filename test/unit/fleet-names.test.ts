import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/errors.js';
import { duplicateNames, lookalikeWarning, NameIndex } from '../../src/fleet/names.js';
import {
  CompanyDirectory,
  CompanyNotFoundError,
  companyFileEntries,
  parseCompanyRef,
  resolveCompanies,
} from '../../src/fleet/resolve.js';
import { inputLine } from '../../src/terms.js';
import { FakeAgency } from './fleet-fake.js';

const companies = [
  { id: 1001, name: 'Acme Ltd' },
  { id: 1002, name: 'Blue  Harbor' },
  { id: 1003, name: ' Trimmed Co ' },
];

describe('which names exist', () => {
  const index = new NameIndex(companies);

  it('matches exactly after trimming surrounding whitespace', () => {
    expect(index.find('Acme Ltd')?.id).toBe(1001);
    expect(index.find('  Acme Ltd\t')?.id).toBe(1001);
    expect(index.find('Trimmed Co')?.id).toBe(1003);
  });

  it('never matches a name that differs in case or inner spacing', () => {
    expect(index.find('acme ltd')).toBeUndefined();
    expect(index.find('ACME LTD')).toBeUndefined();
    expect(index.find('Acme  Ltd')).toBeUndefined();
    expect(index.find('Blue Harbor')).toBeUndefined();
  });

  it('reports such names as look-alikes with the id of the company they resemble', () => {
    expect(index.lookalikes('acme ltd').map((c) => c.id)).toEqual([1001]);
    expect(index.lookalikes('Blue Harbor').map((c) => c.id)).toEqual([1002]);
    expect(index.lookalikes('Acme Ltd')).toEqual([]);
    expect(lookalikeWarning('acme ltd', index.lookalikes('acme ltd'))).toContain(
      'looks like "Acme Ltd" (id 1001)',
    );
  });

  it('refuses names within one input that differ only in case or spacing', () => {
    const groups = duplicateNames([
      { name: 'Acme Ltd', where: 'line 1' },
      { name: 'Other', where: 'line 2' },
      { name: 'ACME  ltd', where: 'line 3' },
    ]);
    expect(groups.map((g) => g.map((e) => e.where))).toEqual([['line 1', 'line 3']]);
  });
});

describe('<company>: an id or an exact name', () => {
  it('takes digits as an id (beyond 2^53 exactly) and refuses a zero id before any request', () => {
    expect(parseCompanyRef('1042')).toEqual({ id: 1042 });
    expect(parseCompanyRef(' 7 ')).toEqual({ id: 7 });
    expect(String(parseCompanyRef('9007199254740993').id)).toBe('9007199254740993');
    for (const bad of ['0', '000']) {
      const error = (() => {
        try {
          parseCompanyRef(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    }
    expect(() => parseCompanyRef('  ')).toThrow(UsageError);
    expect(parseCompanyRef('Acme Ltd')).toEqual({ name: 'Acme Ltd' });
    expect(parseCompanyRef('-5')).toEqual({ name: '-5' });
  });

  it('resolves names through one listing for the whole run; ids need none', async () => {
    const agency = new FakeAgency();
    agency.addCompany('Acme Ltd');
    agency.addCompany('Blue Harbor');
    const directory = new CompanyDirectory(agency);
    expect(await directory.resolve({ id: 55 })).toEqual({ id: 55, company: undefined });
    expect(agency.calls).toEqual([]);
    expect((await directory.resolve({ name: 'Blue Harbor' })).id).toBe(1002);
    expect((await directory.resolve({ name: 'Acme Ltd' })).id).toBe(1001);
    expect(agency.calls).toEqual([{ op: 'listCompanies', page: 1 }]);
  });

  it('exits 4 for an unknown name and suggests case and spacing variants, never picking one', async () => {
    const agency = new FakeAgency();
    agency.addCompany('Acme Ltd');
    const directory = new CompanyDirectory(agency);
    const error = await directory.resolve({ name: 'acme  LTD' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompanyNotFoundError);
    expect((error as CompanyNotFoundError).exitCode).toBe(ExitCode.notFound);
    expect((error as CompanyNotFoundError).message).toContain('"acme  LTD"');
    expect((error as CompanyNotFoundError).hint).toContain('"Acme Ltd" (id 1001)');
  });

  it('reads every page of the listing to find a name', async () => {
    const agency = new FakeAgency();
    for (let i = 0; i < 120; i++) agency.addCompany(`Client ${i}`);
    const directory = new CompanyDirectory(agency);
    expect((await directory.resolve({ name: 'Client 119' })).id).toBe(1120);
    expect(agency.calls.map((c) => c.op === 'listCompanies' && c.page)).toEqual([1, 2, 3]);
  });
});

describe('resolveCompanies', () => {
  it('checks every value before the one listing the names need', async () => {
    const agency = new FakeAgency();
    agency.addCompany('Acme Ltd');
    agency.addCompany('Blue Harbor');
    await expect(
      resolveCompanies(
        [
          { value: 'Acme Ltd', where: 'argument 1' },
          { value: '0', where: inputLine('ids.txt', 2) },
        ],
        new CompanyDirectory(agency),
        'once',
      ),
    ).rejects.toThrow(/ids\.txt line 2/);
    expect(agency.calls).toEqual([]);
    const companies = await resolveCompanies(
      [
        { value: 'Blue Harbor', where: 'a' },
        { value: '7', where: 'b' },
        { value: 'Acme Ltd', where: 'c' },
      ],
      new CompanyDirectory(agency),
      'once',
    );
    expect(companies.map((c) => c.id)).toEqual([1002, 7, 1001]);
    expect(agency.calls).toEqual([{ op: 'listCompanies', page: 1 }]);
  });

  it("'refuse' reports a company given twice, by value or by name and id, and sends nothing more", async () => {
    const agency = new FakeAgency();
    agency.addCompany('Acme Ltd'); // 1001
    const twice = [
      { value: '1001', where: 'argument 1' },
      { value: '1001', where: inputLine('ids.txt', 2) },
    ];
    await expect(resolveCompanies(twice, new CompanyDirectory(agency), 'refuse')).rejects.toThrow(
      'Company 1001 is given twice (argument 1 and ids.txt line 2).',
    );
    expect(agency.calls).toEqual([]);
    const nameAndId = [
      { value: 'Acme Ltd', where: 'argument 1' },
      { value: '1001', where: 'argument 2' },
    ];
    await expect(resolveCompanies(nameAndId, new CompanyDirectory(agency), 'refuse')).rejects.toThrow(
      'Company 1001 is given twice (argument 1 and argument 2).',
    );
    expect((await resolveCompanies(twice, new CompanyDirectory(agency), 'once')).map((c) => c.id)).toEqual([
      1001,
    ]);
  });

  it('a file of companies: first tab field, blank and # lines skipped, lines numbered', () => {
    expect(companyFileEntries('\uFEFF1001\tAcme Ltd\n\n# note\n  Blue Harbor  \r\n', 'ids.txt')).toEqual([
      { value: '1001', where: inputLine('ids.txt', 1) },
      { value: 'Blue Harbor', where: inputLine('ids.txt', 4) },
    ]);
  });
});
