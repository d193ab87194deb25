/** `agency companies users <company>`: who has access to a client company, every page. */
import type { Command } from '@commander-js/extra-typings';
import { collect, paginate } from '../../api/paginate.js';
import type { CompanyUser } from '../../api/types.js';
import { companyIdFor, parseCompanyRef } from '../../fleet/resolve.js';
import { progressLine } from '../../output/progress.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../command.js';

export function defineUsers(companies: Command, run: Run): void {
  companies
    .command('users')
    .description("list a company's users and their roles")
    .argument('<company>', 'company id or exact name')
    .addHelpText(
      'after',
      helpText(
        'Prints one row per user: id, name, e-mail and roles (admin, owner,\n' +
          'authorized_team_member, guest), comma-separated. --json prints the users as the\n' +
          'service returns them (with guest_permissions).',
        [
          'agency companies users 1042',
          'agency companies users "Acme Ltd"',
          `agency companies users 1042 --json | jq '.[]|select(.roles[]=="guest")'`,
        ],
      ),
    )
    .action(run(listUsers));
}

const columns: Column<CompanyUser>[] = [
  { header: 'id', value: (u) => u.id },
  { header: 'name', value: (u) => u.name },
  { header: 'email', value: (u) => u.email },
  { header: 'roles', value: (u) => (Array.isArray(u.roles) ? u.roles.join(',') : u.roles), priority: 1 },
];

export async function listUsers(rt: Runtime, company: string, _opts: object): Promise<void> {
  const ref = parseCompanyRef(company, 'company');
  rt.out.columns(columns);
  const api = rt.api();
  const id = await companyIdFor(api, ref);
  const progress = progressLine(rt, 'users');
  const users = await collect(
    paginate((page) => api.listCompanyUsersPage(id, page), { onPage: progress.update }),
  ).finally(progress.done);
  await rt.out.list(users, columns, { empty: `Company ${id} has no users.`, noun: ['user', 'users'] });
}
