/** `agency companies list`: every company of the agency, or one page, or the first N. */
import { type Command, Option } from '@commander-js/extra-typings';
import { collect, paginate } from '../../api/paginate.js';
import type { Company } from '../../api/types.js';
import { optionalPositiveInt } from '../../input/parse.js';
import { activeStyle } from '../../output/columns.js';
import { progressLine } from '../../output/progress.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../room.js';

export function defineList(companies: Command, run: Run): void {
  companies
    .command('list')
    .description('list client companies (all pages)')
    .addOption(new Option('--active', 'only active companies').conflicts('inactive'))
    .addOption(new Option('--inactive', 'only inactive companies').conflicts('active'))
    .option('--page <n>', 'fetch only this page (50 per page)')
    .option('--limit <n>', 'stop after this many companies')
    .addHelpText(
      'after',
      helpText(
        'Prints one row per company: id, name, owner, active, running campaigns, email\n' +
          'slots, LinkedIn slots. Piped, rows are tab-separated without a header; --json\n' +
          'prints the companies as the API returns them.',
        [
          'agency companies list',
          "agency companies list --active --json | jq -r '.[].id'",
          'agency companies list --inactive | cut -f1,2',
        ],
      ),
    )
    .action(run(listCompanies));
}

export const companyColumns: Column<Company>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'name', value: (c) => c.name },
  { header: 'owner', value: (c) => c.owner },
  { header: 'active', value: (c) => c.active, style: activeStyle },
  { header: 'campaigns', value: (c) => c.running_campaigns },
  { header: 'email slots', value: (c) => c.email_slots },
  { header: 'linkedin slots', value: (c) => c.linkedin_slots },
];

export interface ListOptions {
  active?: boolean | undefined;
  inactive?: boolean | undefined;
  page?: string | undefined;
  limit?: string | undefined;
}

export async function listCompanies(rt: Runtime, opts: ListOptions): Promise<void> {
  const page = optionalPositiveInt(opts.page, '--page');
  const limit = optionalPositiveInt(opts.limit, '--limit');
  const active = opts.active ? true : opts.inactive ? false : undefined;
  const api = rt.api();
  const progress = progressLine(rt, 'companies');
  const companies = await collect(
    paginate((p) => api.listCompaniesPage(p, active), { page, limit, onPage: progress.update }),
  ).finally(progress.done);
  const filter = active === undefined ? '' : active ? 'active ' : 'inactive ';
  await rt.out.list(companies, companyColumns, {
    empty: emptyCompanies(filter, page),
    noun: ['company', 'companies'],
  });
}

function emptyCompanies(filter: string, page: number | undefined): string {
  if (page !== undefined) return `No ${filter}companies on page ${page}.`;
  if (filter) return `No ${filter}companies.`;
  return 'No companies yet — create one with: agency companies create --name "Acme Ltd"';
}
