/** `agency me [--company <company>]`: who the key belongs to (HQ or client key). */
import type { Command } from '@commander-js/extra-typings';
import { optionalCompanyIdFor, parseOptionalCompanyRef } from '../../fleet/resolve.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type OptionsOf, printsNoList, type Run } from '../command.js';

const configure = (me: Command) =>
  printsNoList(me)
    .option('--company <company>', 'act for this client company, by id or exact name (HQ key + x-company-id)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints the account as "field value" lines: for an HQ key the user, role and
          agency; for a client key the company. --json prints the object as the API
          returns it.
        `,
        examples: `
          $ agency me
          $ agency me --company 1042
          $ agency me --json | jq -r .agency.name
        `,
      }),
    );

type MeOptions = OptionsOf<typeof configure>;

export async function showMe(rt: Runtime, opts: MeOptions): Promise<void> {
  const ref = parseOptionalCompanyRef(opts.company);
  const api = rt.api();
  const companyId = await optionalCompanyIdFor(api, ref);
  rt.out.record(await api.me(companyId));
}

export function define(me: Command, run: Run): void {
  configure(me).action(run(showMe));
}
