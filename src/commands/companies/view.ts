/** `agency companies view <company>`: one company's record, by id or exact name. */
import type { Command } from '@commander-js/extra-typings';
import { paginate } from '../../api/paginate.js';
import type { Company } from '../../api/types.js';
import { CompanyDirectory, CompanyNotFoundError, parseCompanyRef } from '../../fleet/resolve.js';
import type { Runtime } from '../../runtime.js';
import { command } from '../../terms.js';
import { helpText, printsNoList, type Run } from '../command.js';

export function defineView(companies: Command, run: Run): void {
  printsNoList(companies.command('view'))
    .description("show one company's record (by id or exact name)")
    .argument('<company>', 'company id, or its exact name')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints the company as "field value" lines: id, name, owner, active, running
          campaigns, email and LinkedIn slots. A name must match exactly (case and
          spacing count); an unknown one exits 4 and suggests near names. --json prints
          the company as the API returns it.
        `,
        examples: `
          $ agency companies view 1042
          $ agency companies view "Acme Ltd" --json
        `,
      }),
    )
    .action(run(viewCompany));
}

async function viewCompany(rt: Runtime, value: string, _opts: object): Promise<void> {
  const ref = parseCompanyRef(value);
  const api = rt.api();
  let company: Company | undefined;
  if (ref.id === undefined) {
    company = (await new CompanyDirectory(api).resolve(ref)).company;
  } else {
    // The service has no read of one company: page through the list, and stop at the page holding it.
    for await (const candidate of paginate((page) => api.listCompaniesPage(page))) {
      if (candidate.id === ref.id) {
        company = candidate;
        break;
      }
    }
    if (!company) {
      throw new CompanyNotFoundError(`No company with id ${ref.id} in this agency.`, {
        hint: `See the ids with: ${command('companies list')}`,
      });
    }
  }
  rt.out.record(company as unknown as Record<string, unknown>);
}
