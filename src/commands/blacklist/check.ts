/**
 * `agency blacklist check <value>... [--file <path|->]`: whether each value is on the agency
 * blacklist, asked of the service (email_filter) without reading the whole list.
 */
import type { Command } from '@commander-js/extra-typings';
import { normalizeBlacklistEntries } from '../../fleet/blacklist.js';
import type { CheckRow } from '../../fleet/blacklist-check.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type OptionsOf, type Run } from '../command.js';
import { readValueEntries, VALUES_FILE_HELP } from './change.js';

const configureCheck = (blacklist: Command) =>
  blacklist
    .command('check')
    .description('say whether values are on the blacklist')
    .argument('[values...]', 'domains (example.com) or addresses (name@example.com), mixed freely')
    .option('--file <path>', VALUES_FILE_HELP)
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per value: value, listed, blocked and by. An address is looked up
          on the list of e-mails, a domain on the list of domains: listed says whether that
          value itself is there. blocked says whether outreach to it is blocked: it is
          listed, or it is an address whose domain is on the list of domains; by says which
          (email, domain, or empty). Values are lower-cased, an internationalised domain in
          its ASCII form (xn--…), and asked in as few requests as the service's
          4,100-character URL limit allows. Exit 0 whatever the answer.
        `,
        examples: `
          $ agency blacklist check jane@acme.example competitor.example
          $ agency blacklist check --file prospects.txt | awk '$3 == "true"'
          $ agency blacklist check --file leads.txt --json | jq -r '.[]|select(.blocked|not).value'
        `,
      }),
    );

const columns: Column<CheckRow>[] = [
  { header: 'value', value: (r) => r.value },
  { header: 'listed', value: (r) => String(r.listed), kind: 'count' },
  { header: 'blocked', value: (r) => String(r.blocked), kind: 'count' },
  { header: 'by', value: (r) => r.by ?? '' },
];

type CheckOptions = OptionsOf<typeof configureCheck>;

async function checkValues(rt: Runtime, values: string[], opts: CheckOptions) {
  rt.out.columns(columns); // an unknown --columns name is refused before any request
  const entries = await readValueEntries(rt, values, opts.file);
  const { values: wanted, notes } = normalizeBlacklistEntries('either', entries, 'check');
  for (const note of notes) rt.out.note(note);
  const { checkBlacklist } = await import('../../fleet/blacklist-check.js');
  const rows = await checkBlacklist(rt.api(), rt.ctx.baseUrl, wanted);
  await rt.out.list(rows, columns);
  const listed = rows.filter((r) => r.listed).length;
  const blocked = rows.filter((r) => r.blocked).length;
  const byDomain = blocked - listed;
  rt.out.info(
    `${listed} of ${rows.length} ${rows.length === 1 ? 'value is' : 'values are'} listed; ${blocked} ${blocked === 1 ? 'is' : 'are'} blocked${byDomain > 0 ? ` (${byDomain} by ${byDomain === 1 ? 'its' : 'their'} domain)` : ''}.`,
  );
}

export function defineCheck(blacklist: Command, run: Run): void {
  configureCheck(blacklist).action(run(checkValues));
}
