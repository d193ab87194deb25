/** `agency companies users <company>`: who has access to a client company, every page. */
import { type Command, Option } from '@commander-js/extra-typings';
import { collect, paginate } from '../../api/paginate.js';
import { COMPANY_ROLES } from '../../api/resources/users.js';
import type { CompanyUser } from '../../api/types.js';
import { companyIdFor, parseCompanyRef } from '../../fleet/resolve.js';
import { progressLine } from '../../output/progress.js';
import { ListCell } from '../../output/text.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type OptionsOf, oneOf, type Run } from '../command.js';

const configureUsers = (companies: Command) =>
  companies
    .command('users')
    .description("list a company's users and their roles")
    .argument('<company>', 'company id or exact name')
    .addOption(
      oneOf(
        new Option('--role <role>', 'only users with this role (the service filters)').choices(COMPANY_ROLES),
      ),
    )
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per user: id, name, e-mail and roles (admin, owner,
          authorized_team_member, guest), comma-separated; every page is read. --role asks
          the service for the users holding that role only. --json prints the users as the
          service returns them (with guest_permissions: [] or ["mailboxes"] for a guest).
          A guest whose invitation is still pending is not a user yet and is not listed.
        `,
        examples: `
          $ agency companies users 1042
          $ agency companies users "Acme Ltd" --role guest
          $ agency companies users 1042 --role guest --json | jq -r '.[].email'
        `,
      }),
    );

const columns: Column<CompanyUser>[] = [
  { header: 'id', value: (u) => u.id },
  { header: 'name', value: (u) => u.name },
  { header: 'email', value: (u) => u.email },
  { header: 'roles', value: (u) => (Array.isArray(u.roles) ? new ListCell(u.roles) : u.roles), priority: 1 },
];

type UsersOptions = OptionsOf<typeof configureUsers>;

async function listUsers(rt: Runtime, company: string, opts: UsersOptions): Promise<void> {
  const ref = parseCompanyRef(company, 'company');
  rt.out.columns(columns);
  const api = rt.api();
  const id = await companyIdFor(api, ref);
  const progress = progressLine(rt, 'users');
  const users = await collect(
    paginate((page) => api.listCompanyUsersPage(id, page, opts.role), { onPage: progress.update }),
  ).finally(progress.done);
  const empty =
    opts.role === undefined ? `Company ${id} has no users.` : `Company ${id} has no ${opts.role} users.`;
  await rt.out.list(users, columns, { empty, noun: ['user', 'users'] });
}

export function defineUsers(companies: Command, run: Run): void {
  configureUsers(companies).action(run(listUsers));
}
