/**
 * `agency guests permissions <company> --guest <id|email>... (--mailboxes | --none)`: what guests may
 * see beyond the default view. Guests are read first: an address is resolved among them, an unknown
 * guest is exit 4 with nothing sent, and guests who already have the permissions are left alone.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import { isNumeric } from '../../api/json.js';
import type { GuestPermission } from '../../api/resources/guests.js';
import { type CompanyUser, idKey } from '../../api/types.js';
import { AgencyError, ExitCode, UsageError } from '../../errors.js';
import { checkGuestEmail, permissionsOf, readGuests, samePermissions } from '../../fleet/guests.js';
import { companyIdFor, parseCompanyRef } from '../../fleet/resolve.js';
import { parseCompanyId } from '../../input/parse.js';
import { NOUNS, plural } from '../../output/summary.js';
import { ListCell } from '../../output/text.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { command, option } from '../../terms.js';
import { collectValues, helpText, type OptionsOf, type Run } from '../command.js';

const configurePermissions = (guests: Command) =>
  guests
    .command('permissions')
    .description('set what guests of a client company may see')
    .argument('<company>', 'company id or exact name')
    .addOption(
      new Option('--guest <id|email>', 'a guest: user id or e-mail address (repeatable)')
        .argParser(collectValues)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--mailboxes', 'let them see the mailboxes').conflicts('none'))
    .addOption(new Option('--none', 'only the default view (no extra permissions)').conflicts('mailboxes'))
    .option('--dry-run', 'read the guests and show what would change; send nothing')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Reads the company's guests (users with the role guest), resolves each --guest among
          them (an unknown one is exit 4, nothing sent), and sends one request for the guests
          whose permissions differ. Prints one row per guest: id, email, permissions, result
          (set, unchanged, would-set). A guest whose invitation is still pending is not a
          guest yet: invite them with the permissions instead (guests invite --mailboxes).
        `,
        examples: `
          $ agency guests permissions 1042 --guest ceo@acme.example --mailboxes
          $ agency guests permissions "Acme Ltd" --guest 5000012 --guest cfo@acme.example --none
          $ agency companies users 1042 --role guest | cut -f1 | sed 's/^/--guest=/' | \\
              xargs agency guests permissions 1042 --none
        `,
      }),
    );

type PermissionsOptions = OptionsOf<typeof configurePermissions>;

interface PermissionRow {
  id: number;
  email: string | undefined;
  permissions: GuestPermission[];
  result: 'set' | 'unchanged' | 'would-set';
}

const columns: Column<PermissionRow>[] = [
  { header: 'id', value: (r) => r.id, kind: 'id' },
  { header: 'email', value: (r) => r.email, kind: 'email' },
  { header: 'permissions', value: (r) => new ListCell(r.permissions) },
  { header: 'result', value: (r) => r.result, kind: 'count' },
];

/** The guests not found among the company's guests: exit 4, nothing sent. */
class GuestNotFoundError extends AgencyError {
  readonly exitCode = ExitCode.notFound;
}

async function permissionsCommand(rt: Runtime, company: string, opts: PermissionsOptions): Promise<void> {
  const ref = parseCompanyRef(company, 'company');
  if (!opts.mailboxes && !opts.none)
    throw new UsageError(`Say which permissions: ${option('mailboxes')} or ${option('none')}.`);
  const permissions: GuestPermission[] = opts.mailboxes ? ['mailboxes'] : [];
  // Every value is checked before the first request: a digit string is an id, anything else an address.
  const notes: string[] = [];
  const wanted = opts.guest.map((value, i) =>
    /^\d+$/.test(value.trim())
      ? { id: parseCompanyId(value.trim(), `guest id (${option('guest')} #${i + 1})`), value }
      : { email: checkGuestEmail(value, `${option('guest')} #${i + 1}`, notes), value },
  );
  for (const note of notes) rt.out.note(note);
  rt.out.columns(columns);
  const api = rt.api({ interruptible: false });
  const id = await companyIdFor(api, ref);
  const guests = await readGuests(api, id);
  const missing: string[] = [];
  const chosen = new Map<string, CompanyUser>();
  for (const w of wanted) {
    // Ids by their digits: one beyond 2^53 is an ExactInteger, as the service's answer holds it.
    const guest = guests.find((g) =>
      'id' in w ? isNumeric(g.id) && idKey(g.id) === String(w.id) : g.email?.trim().toLowerCase() === w.email,
    );
    if (guest && isNumeric(guest.id)) chosen.set(idKey(guest.id), guest);
    else missing.push(w.value);
  }
  if (missing.length > 0) {
    throw new GuestNotFoundError(
      `${missing.length === 1 ? 'No guest' : 'No guests'} ${missing.map((m) => JSON.stringify(m)).join(', ')} in company ${id}.`,
      {
        hint: `Nothing was sent. Its guests: ${command(`companies users ${id} --role guest`)} (a pending invitation is not listed until it is accepted).`,
      },
    );
  }
  const rows: PermissionRow[] = [...chosen.values()].map((g) => ({
    id: g.id as number,
    email: g.email,
    permissions,
    result: samePermissions(permissionsOf(g), permissions) ? 'unchanged' : opts.dryRun ? 'would-set' : 'set',
  }));
  const changes = rows.filter((r) => r.result === 'set');
  if (changes.length > 0)
    await api.setGuestPermissions(
      id,
      changes.map((r) => ({ id: r.id, permissions })),
    );
  await rt.out.list(rows, columns);
  const changing = rows.filter((r) => r.result !== 'unchanged').length;
  const what = permissions.length === 0 ? 'no extra permissions' : 'mailboxes';
  rt.out.info(
    opts.dryRun
      ? `Would set ${what} for ${changing} of ${plural(rows.length, NOUNS.guest)} (dry run, nothing sent).`
      : `Set ${what} for ${changing} of ${plural(rows.length, NOUNS.guest)} of company ${id}.`,
  );
}

export function definePermissions(guests: Command, run: Run): void {
  configurePermissions(guests).action(run(permissionsCommand));
}
