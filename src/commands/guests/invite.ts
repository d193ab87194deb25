/**
 * `agency guests invite <company> (--email <e>... [--name <n>] [--mailboxes] | --file <csv>)`: invite
 * guests who are not guests yet, at most 10 per request. Every address is checked before anything is
 * read or sent.
 */
import type { Command } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import { runFailure } from '../../fleet/failures.js';
import type { InviteRow, WantedGuest } from '../../fleet/guests.js';
import { checkDistinct, checkGuestEmail, permissionsOfWord } from '../../fleet/guests.js';
import { companyIdFor, parseCompanyRef } from '../../fleet/resolve.js';
import { parseCsv } from '../../input/csv.js';
import { readRunInput } from '../../input/read.js';
import { reasonColumn, withReasonIfFailed } from '../../output/columns.js';
import { inlineList } from '../../output/summary.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { inputLine, option } from '../../terms.js';
import { collectValues, helpText, type OptionsOf, type Run } from '../command.js';

const configureInvite = (guests: Command) =>
  guests
    .command('invite')
    .description("invite a client's people as read-only guests")
    .argument('<company>', 'company id or exact name')
    .option('--email <address>', 'the guest to invite (repeatable)', collectValues)
    .option('--name <name>', "the guest's name (with one --email)")
    .option('--mailboxes', 'let the guests given with --email see the mailboxes too')
    .option(
      '--file <path>',
      "a CSV with the header email,name,permissions ('-' = stdin; # lines skipped); permissions: mailboxes or empty",
    )
    .option('--dry-run', 'read the guests and show who would be invited; send nothing')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Reads the company's users first: an address among its guests is already-guest, one
          with another role (a team member, the owner) is already-user; neither is sent. The
          others are invited, 10 per request (the service takes all or none of a request),
          each with its permissions (an internationalised domain in its ASCII form, xn--…,
          with a note). Prints one row per address: email, result (invited,
          already-guest, already-user, would-invite, unknown, failed; --json adds the roles
          of an already-user, stderr names them). unknown: the answer was lost, and a
          pending invitation cannot be read back; running the same command again is safe. A guest sees nothing until they
          accept; until then they are not listed (the API cannot list pending invitations),
          so inviting them again is invited again: the service e-mails the original
          invitation again, unchanged (nothing is duplicated), and the summary on stderr
          says so. A nightly script re-sends it every night until the guest accepts.
        `,
        examples: `
          $ agency guests invite 1042 --email ceo@acme.example --name "Ann Lee" --mailboxes
          $ agency guests invite "Acme Ltd" --email a@acme.example --email b@acme.example
          $ agency guests invite 1042 --file guests.csv --dry-run
        `,
      }),
    );

type InviteOptions = OptionsOf<typeof configureInvite>;

const columns: Column<InviteRow>[] = [
  { header: 'email', value: (r) => r.email, kind: 'email' },
  { header: 'result', value: (r) => r.result, kind: 'count' },
];

/**
 * A pending invitation is not among the company's users and no endpoint lists it, so an address
 * invited before but not accepted yet is invited again (the service mails the original again): said
 * on every run that invites, so that a nightly script's operator knows the client may get it again.
 */
const RESENT = ' (sent again to anyone whose invitation was still pending: the API cannot list those)';

async function inviteCommand(rt: Runtime, company: string, opts: InviteOptions): Promise<void> {
  const ref = parseCompanyRef(company, 'company');
  const shown = withReasonIfFailed(rt.out, columns, reasonColumn<InviteRow>());
  const wanted = await wantedGuests(rt, opts);
  const api = rt.api({ interruptible: false });
  const id = await companyIdFor(api, ref);
  const { inviteMissingGuests, readUsers } = await import('../../fleet/guests.js');
  const { rows, failure } = await inviteMissingGuests(api, id, wanted, await readUsers(api, id), {
    dryRun: opts.dryRun === true,
    signal: rt.ctx.signal,
  });
  await rt.out.list(rows, shown(failure !== undefined));
  const count = (result: string) => rows.filter((r) => r.result === result).length;
  const parts = [
    opts.dryRun
      ? `would invite ${count('would-invite')} (dry run, nothing sent)`
      : count('invited') === 0 && count('unknown') > 0
        ? 'invitations sent, outcome unknown'
        : `invited ${count('invited')}${count('invited') > 0 ? RESENT : ''}`,
    ...(count('already-guest') > 0
      ? [`${count('already-guest')} already ${count('already-guest') === 1 ? 'a guest' : 'guests'}`]
      : []),
    ...alreadyUsers(rows),
    ...(count('unknown') > 0
      ? [`${count('unknown')} unknown (the answer was lost; running the same command again is safe)`]
      : []),
    ...(count('failed') > 0 ? [`${count('failed')} not invited`] : []),
  ];
  rt.out.info(`Company ${id}: ${parts.join('; ')}.`);
  if (failure) throw runFailure(failure);
}

/** "1 already a user, not invited as a guest (mia@acme.example: authorized_team_member)", or nothing. */
function alreadyUsers(rows: readonly InviteRow[]): string[] {
  const users = rows.filter((r) => r.result === 'already-user');
  if (users.length === 0) return [];
  const who = users.map((r) => `${r.email}: ${r.roles?.join(', ') || 'no role listed'}`);
  const what =
    users.length === 1 ? 'already a user, not invited as a guest' : 'already users, not invited as guests';
  return [`${users.length} ${what} (${inlineList(who)})`];
}

/** The guests of the flags or of the CSV file, each checked; nothing is sent when one is wrong. */
async function wantedGuests(rt: Runtime, opts: InviteOptions): Promise<WantedGuest[]> {
  const emails = opts.email ?? [];
  if (emails.length === 0 && opts.file === undefined) {
    throw new UsageError(`Say whom to invite: ${option('email')} <address> or ${option('file')} <csv>.`);
  }
  if (opts.name !== undefined && emails.length !== 1) {
    throw new UsageError(
      `${option('name')} goes with exactly one ${option('email')} (use ${option('file')} for several names).`,
    );
  }
  if (opts.file !== undefined && (opts.name !== undefined || opts.mailboxes)) {
    throw new UsageError(
      `${option('name')} and ${option('mailboxes')} go with ${option('email')}; in ${option('file')}, use the name and permissions columns.`,
    );
  }
  const problems: string[] = [];
  // Addresses whose internationalised domain goes in its ASCII form: said once all are checked.
  const notes: string[] = [];
  const wanted: WantedGuest[] = [];
  const attempt = (make: () => WantedGuest) => {
    try {
      wanted.push(make());
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error.text);
    }
  };
  emails.forEach((value, i) => {
    const where = `${option('email')} #${i + 1}`;
    attempt(() => ({
      email: checkGuestEmail(value, where, notes),
      name: opts.name?.trim() || undefined,
      permissions: opts.mailboxes ? ['mailboxes'] : [],
      where,
    }));
  });
  if (opts.file !== undefined) {
    const { text, source } = await readRunInput(rt, opts.file, 'CSV: email,name,permissions');
    for (const make of csvGuests(text, source, notes)) attempt(make);
  }
  if (problems.length > 0) {
    throw new UsageError(
      problems.length === 1
        ? (problems[0] as string)
        : `${problems.length} problems:\n  ${problems.join('\n  ')}`,
      {
        hint: 'Nothing was sent.',
      },
    );
  }
  checkDistinct(wanted);
  for (const note of notes) rt.out.note(note);
  return wanted;
}

const CSV_COLUMNS = ['email', 'name', 'permissions'] as const;

/** One maker per data line of the CSV (each throws a UsageError naming its line). */
function csvGuests(text: string, source: string, notes: string[]): (() => WantedGuest)[] {
  // Lines starting with # are comments, as in every file the tool reads (line numbers are kept).
  const uncommented = text.replace(/^\uFEFF/, '').replace(/^[ \t]*#.*$/gm, '');
  const [header, ...records] = parseCsv(uncommented, source);
  if (!header) throw new UsageError(`${source} is empty: expected a header line email,name,permissions.`);
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const unknown = names.filter((n) => !(CSV_COLUMNS as readonly string[]).includes(n));
  if (!names.includes('email') || unknown.length > 0) {
    throw new UsageError(
      `${inputLine(source, header.line)}: the header must name the columns email, name, permissions${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}.`,
    );
  }
  const cell = (fields: string[], column: string) => fields[names.indexOf(column)]?.trim() ?? '';
  if (records.length === 0) throw new UsageError(`${source} names no guest (only a header).`);
  return records.map(({ fields, line }) => () => {
    const where = inputLine(source, line);
    if (fields.length > names.length)
      throw new UsageError(`${where} has ${fields.length} fields; the header has ${names.length}.`);
    const permission = cell(fields, 'permissions');
    const permissions = permissionsOfWord(permission);
    if (!permissions) {
      throw new UsageError(
        `${where}: permissions must be mailboxes or empty, not ${JSON.stringify(permission.toLowerCase())}.`,
      );
    }
    return {
      email: checkGuestEmail(cell(fields, 'email'), where, notes),
      name: cell(fields, 'name') || undefined,
      permissions,
      where,
    };
  });
}

export function defineInvite(guests: Command, run: Run): void {
  configureInvite(guests).action(run(inviteCommand));
}
