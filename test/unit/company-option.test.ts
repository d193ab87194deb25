import { describe, expect, it } from 'vitest';
import type { Company, Page } from '../../src/api/types.js';
import { UsageError } from '../../src/errors.js';
import { resolveCompanyArgument, resolveCompanyOption } from '../../src/fleet/company-option.js';
import { CompanyNotFoundError } from '../../src/fleet/resolve.js';

function agency(companies: Company[]) {
  const pages: number[] = [];
  return {
    pages,
    listCompaniesPage: async (page: number): Promise<Page<Company>> => {
      pages.push(page);
      return {
        content: page === 1 ? companies : [],
        pagination_data: {
          total_elements: companies.length,
          total_pages: 1,
          current_page_number: page,
          page_size: 50,
        },
      };
    },
  };
}

const acme = { id: 1001, name: 'Acme Ltd', owner: 'Olivia', active: true };

describe('resolveCompanyArgument', () => {
  it('takes digits as an id without listing', async () => {
    const api = agency([acme]);
    expect(await resolveCompanyArgument(api, '42')).toBe(42);
    expect(api.pages).toEqual([]);
  });

  it('resolves an exact name through one listing', async () => {
    const api = agency([acme]);
    expect(await resolveCompanyArgument(api, 'Acme Ltd')).toBe(1001);
    expect(api.pages).toEqual([1]);
  });

  it('refuses a name that differs in case (exit 4, with the look-alike) and a zero id (exit 2, no listing)', async () => {
    const api = agency([acme]);
    const error = await resolveCompanyArgument(api, 'acme ltd').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompanyNotFoundError);
    expect((error as CompanyNotFoundError).exitCode).toBe(4);
    const zero = agency([acme]);
    await expect(resolveCompanyOption(zero, '0')).rejects.toBeInstanceOf(UsageError);
    expect(zero.pages).toEqual([]);
  });

  it('gives undefined (the own account) without --company', async () => {
    expect(await resolveCompanyOption(agency([]), undefined)).toBeUndefined();
  });
});
