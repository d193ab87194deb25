/** `agency companies list`: every company of the agency, or one page, or the first N. */
import { type Command, Option } from '@commander-js/extra-typings';
import { paginate } from '../../api/paginate.js';
import type { Company } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { optionalPositiveInt } from '../../input/parse.js';
import { companyColumns } from '../../output/columns.js';
import { progressLine } from '../../output/progress.js';
import { pageFacts } from '../../output/summary.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { helpText, type OptionsOf, type Run } from '../command.js';

const configureList = (companies: Command) =>
  companies
    .command('list')
    .description('list client companies (all pages)')
    .addOption(new Option('--active', 'only active companies').conflicts('inactive'))
    .addOption(new Option('--inactive', 'only inactive companies').conflicts('active'))
    .option('--page <n>', 'fetch only this page (50 per page)')
    .option('--limit <n>', 'stop after this many companies')
    .option('--search <text>', 'only companies whose name contains this text (any case; reads every page)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per company: id, name, owner, active, running campaigns, email
          slots, LinkedIn slots. On a narrow terminal the counters are hidden first (and
          named on stderr); --columns chooses. Piped, rows are tab-separated without a
          header; --csv prints CSV with a header row; --json prints the companies as the
          API returns them.
        `,
        examples: `
          $ agency companies list
          $ agency companies list --active --json | jq -r '.[].id'
          $ agency companies list --inactive | cut -f1,2
          $ agency companies list --search dental --columns id,name
          $ agency companies list --csv > companies.csv
        `,
      }),
    );

const listColumns: Column<Company>[] = [
  ...companyColumns<Company>(),
  {
    header: 'campaigns',
    name: 'running_campaigns',
    aliases: ['campaigns'],
    value: (c) => c.running_campaigns,
    kind: 'count',
  },
  { header: 'email slots', value: (c) => c.email_slots, kind: 'count' },
  { header: 'linkedin slots', value: (c) => c.linkedin_slots, kind: 'count' },
];

type ListCompaniesOptions = OptionsOf<typeof configureList>;

async function listCompanies(rt: Runtime, opts: ListCompaniesOptions): Promise<void> {
  const page = optionalPositiveInt(opts.page, option('page'));
  const limit = optionalPositiveInt(opts.limit, option('limit'));
  const active = opts.active ? true : opts.inactive ? false : undefined;
  const search = opts.search?.trim();
  if (search === '')
    throw new UsageError(`${option('search')} needs some text, such as ${option('search')} dental.`);
  rt.out.columns(listColumns);
  const api = rt.api();
  const pages = pageFacts((p: number) => api.listCompaniesPage(p, active));
  const progress = progressLine(rt, 'companies');
  // Names compare case-insensitively (and in one Unicode form), client-side: the service has no search.
  const needle = search?.normalize('NFKC').toLocaleLowerCase('en');
  const matches = (c: Company) => needle === undefined || fold(c.name).includes(needle);
  const companies: Company[] = [];
  let read = 0;
  try {
    // With --search, --limit counts matches: reading stops (no further page) once it has enough.
    const stream = paginate(pages.fetch, {
      page,
      limit: needle === undefined ? limit : undefined,
      onPage: progress.update,
    });
    for await (const company of stream) {
      read++;
      if (!matches(company)) continue;
      companies.push(company);
      if (limit !== undefined && companies.length >= limit) break;
    }
  } finally {
    progress.done();
  }
  const filter = active === undefined ? '' : active ? 'active ' : 'inactive ';
  await rt.out.list(companies, listColumns, {
    empty:
      search === undefined
        ? emptyCompanies(filter, page)
        : `No ${filter}company name contains ${JSON.stringify(search)} (${read} read).`,
    noun: ['company', 'companies'],
    count: search === undefined ? pages.facts({ limit, page }) : { search, read, page, limit },
  });
}

function fold(name: string): string {
  return name.normalize('NFKC').toLocaleLowerCase('en');
}

function emptyCompanies(filter: string, page: number | undefined): string {
  if (page !== undefined) return `No ${filter}companies on page ${page}.`;
  if (filter) return `No ${filter}companies.`;
  return 'No companies yet — create one with: agency companies create --name "Acme Ltd"';
}

export function defineList(companies: Command, run: Run): void {
  configureList(companies).action(run(listCompanies));
}
