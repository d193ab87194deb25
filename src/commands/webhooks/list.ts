/**
 * `agency webhooks list [targets]` (also plain `agency webhooks`): the webhooks of one account, or one
 * row per subscription across accounts (`--all`, `--file`, several `--company`).
 */
import type { Command } from '@commander-js/extra-typings';
import type { Webhook } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { type RowError, rowError, rowsFailed } from '../../fleet/failures.js';
import { optionalPositiveInt } from '../../input/parse.js';
import { reportError } from '../../output/error-report.js';
import { NOUNS, plural } from '../../output/summary.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { listOneAccount } from '../account-list.js';
import { limitOption } from '../client-targets.js';
import { helpText, type OptionsOf, type Run } from '../command.js';
import { addTargetOptions, companyColumn, openTargets, type TargetFlags, throwIfFailed } from './fleet.js';

function configureList(webhooks: Command) {
  // The default subcommand: `agency webhooks --company 1042` is `agency webhooks list --company 1042`.
  const command = webhooks
    .command('list', { isDefault: true })
    .description('list the webhooks of the HQ account or of companies');
  return addTargetOptions(command)
    .addOption(limitOption('companies'))
    .addHelpText(
      'after',
      helpText({
        prints: `
          Without targets prints the key's own account's webhooks, one row each: the event
          and the URL it calls. With --company (one or several), --file or --all, prints one
          row per subscription of every company, the same columns whatever their number:
          company_id, event, target_url (a company with none prints nothing; inactive
          companies are skipped under --all); --limit N reads only the first N of those
          companies.
          \`agency webhooks\` alone is the same command.
        `,
        examples: `
          $ agency webhooks
          $ agency webhooks --company "Acme Ltd"
          $ agency webhooks list --all | grep -F https://old-crm.example.com/
          $ agency webhooks list --file clients.txt --json | jq -r '.[].target_url' | sort -u
        `,
      }),
    );
}

/** One account: both columns are what a row is; on a narrow terminal they are cut, never hidden. */
const webhookColumns: Column<Webhook>[] = [
  { header: 'event', value: (w) => w.event, kind: 'name' },
  { header: 'target url', value: (w) => w.target_url },
];

/** Across accounts: the same, after the account's column. */
type Subscription = Webhook & { company_id: number | null };

const subscriptionColumns: Column<Subscription>[] = [companyColumn(), ...webhookColumns];

type WebhooksListOptions = OptionsOf<typeof configureList>;

async function listWebhooks(rt: Runtime, opts: WebhooksListOptions): Promise<void> {
  // Any --company is the rows of companies, one shape whatever their number (a script that loops
  // over one company or several reads the same columns); none is the key's own account.
  const fleet = opts.all === true || opts.file !== undefined || (opts.company?.length ?? 0) > 1;
  const limit = optionalPositiveInt(opts.limit, option('limit'));
  if (fleet) return listAcrossAccounts(rt, opts, limit);
  if (limit !== undefined) {
    throw new UsageError(
      `${option('limit')} counts companies: it goes with ${option('all')}, ${option('file')} or ${option('company')}.`,
    );
  }
  const company = opts.company?.[0];
  if (company === undefined) {
    return listOneAccount<Webhook>(rt, undefined, {
      columns: webhookColumns,
      read: (api) => api.webhooks(undefined),
      noun: ['webhook', 'webhooks'],
    });
  }
  // One company: read as one account (its error is the command's), printed as the rows of several.
  await listOneAccount<Subscription>(rt, company, {
    columns: subscriptionColumns.map((c, i) =>
      i === 0 && !rt.terminal.stdoutIsTTY ? { ...c, value: (r: Subscription) => r.company_id } : c,
    ),
    read: async (api, companyId) =>
      (await api.webhooks(companyId)).map((w) => ({
        company_id: companyId ?? null,
        event: w.event,
        target_url: w.target_url,
      })),
    noun: ['webhook', 'webhooks'],
  });
}

async function listAcrossAccounts(rt: Runtime, opts: TargetFlags, limit: number | undefined): Promise<void> {
  // Off a terminal the key's own account has an empty company id (never one here: targets are companies).
  const columns = rt.terminal.stdoutIsTTY
    ? subscriptionColumns
    : subscriptionColumns.map((c, i) => (i === 0 ? { ...c, value: (r: Subscription) => r.company_id } : c));
  rt.out.columns(columns); // an unknown --columns name is refused before any request
  const opened = await openTargets(rt, opts);
  const { api, concurrency } = opened;
  const targets = limit === undefined ? opened.targets : opened.targets.slice(0, limit);
  const { eachAccount } = await import('../../fleet/webhook-changes.js');
  type Row = Subscription & { result: string; error?: RowError };
  let skipped = 0;
  const outcome = await eachAccount<Row>(
    api,
    targets,
    { concurrency, signal: rt.ctx.signal },
    {
      skipped: () => {
        skipped++;
        return [];
      },
      unreadable: (target, error) => {
        reportError(rt.out, error, {
          message: `company ${target.companyId}: ${error.message}`,
          fields: { company_id: target.companyId },
        });
        return [
          {
            company_id: target.companyId,
            event: '',
            target_url: '',
            result: 'failed',
            error: rowError(error),
          },
        ];
      },
      withList: async (target, present) =>
        present.map((w) => ({
          company_id: target.companyId,
          event: w.event,
          target_url: w.target_url,
          result: 'listed',
        })),
    },
  );
  const subscriptions = outcome.rows
    .filter((r) => r.result === 'listed')
    .map(({ company_id, event, target_url }) => ({ company_id, event, target_url }));
  await rt.out.list(subscriptions, columns, {
    empty:
      targets.length - skipped === 1
        ? 'The company has no webhook.'
        : `None of the ${targets.length - skipped} companies has a webhook.`,
    noun: ['subscription', 'subscriptions'],
  });
  if (skipped > 0) rt.out.info(`${skipped} inactive ${skipped === 1 ? 'company' : 'companies'} skipped.`);
  const unread = outcome.rows.filter((r) => r.result === 'failed');
  if (outcome.interrupted || outcome.unreachable || unread.length === 0) return throwIfFailed(rt, outcome);
  throw rowsFailed(
    `The webhooks of ${unread.length} of ${plural(targets.length, NOUNS.company)} could not be read (errors above); the rows are the others'.`,
    outcome.failures,
    { grouped: false },
  );
}

export function defineList(webhooks: Command, run: Run): void {
  configureList(webhooks).action(run(listWebhooks));
}
