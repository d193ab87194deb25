/**
 * `agency auth token`: prints the key a command would use, for a script that runs many commands and
 * reads the keyring once (`export AGENCY_API_KEY=$(agency auth token)`), as `gh auth token` does.
 */
import type { Command } from '@commander-js/extra-typings';
import type { Runtime } from '../../runtime.js';
import { helpText, printsNoList, type Run } from '../command.js';

export function define(auth: Command, run: Run): void {
  printsNoList(auth.command('token'))
    .description("print the profile's API key, for scripts")
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints the key of the profile in use, and nothing else, on stdout: from
          AGENCY_API_KEY if it is set, else from the system keyring or the config file,
          wherever \`agency login\` put it. Sends no request. Each command whose key is
          in the keyring reads it there; a script that runs many can read it once and
          pass it on in AGENCY_API_KEY.
        `,
        examples: `
          $ export AGENCY_API_KEY=$(agency auth token)
          $ agency auth token --profile ci | pbcopy
        `,
      }),
    )
    .action(run(printToken));
}

export async function printToken(rt: Runtime, _opts: object): Promise<void> {
  const key = await rt.apiKey();
  rt.out.out(`${key}\n`);
}
