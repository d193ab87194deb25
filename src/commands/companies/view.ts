/** `agency companies view <company>`: one company's record, by id or exact name. */
import type { Command } from '@commander-js/extra-typings';
import { CompanyDirectory, parseCompanyRef } from '../../fleet/resolve.js';
import type { Runtime } from '../../runtime.js';
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
  // The service has no read of one company: the list is read only to the page that holds it.
  const directory = new CompanyDirectory(rt.api());
  const company =
    ref.id === undefined ? (await directory.resolve(ref)).company : (await directory.find([ref.id]))[0];
  rt.out.record(company as unknown as Record<string, unknown>);
}
