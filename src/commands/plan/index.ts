/**
 * `agency plan -f FILE`: what it takes to bring the agency to the state a file describes, read only.
 * This file defines the options alone; the handler (and with it the YAML parser) loads when it runs.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import { fileTypes, helpText, printsNoList, type Run } from '../command.js';

export interface PlanOptions {
  file: string;
  exitCode?: boolean | undefined;
  concurrency?: string | undefined;
}

/** `-f, --file`, the desired state for plan and apply: YAML or JSON (JSON is YAML too). */
export function desiredStateOption() {
  return fileTypes(
    new Option('-f, --file <path>', "the desired state, YAML or JSON ('-' = stdin)").makeOptionMandatory(),
    ['yaml', 'yml', 'json'],
  );
}

export function define(plan: Command, run: Run): void {
  printsNoList(plan)
    .addOption(desiredStateOption())
    .option('--exit-code', 'exit 6 when changes are pending (for drift checks in CI)')
    .option('--concurrency <n>', 'client accounts read at once (default 4)')
    .addHelpText(
      'after',
      helpText(
        'Reads the agency (companies, the keys your user created, webhooks, users) and prints\n' +
          'one line per change the file asks for: + company, + key, + webhook, + guest, ~ guest\n' +
          '(permissions); "!" lines for what cannot be done (an inactive company\'s webhooks, a\n' +
          "webhook beyond the service's 3 URLs per event and account, a guest who is already a\n" +
          'user of the company with another role (a team member), a company your user has no\n' +
          'access to): they are not changes, and apply leaves them out. Counts of what is in\n' +
          'place and of the companies the file does not mention (never changed) go to stderr.\n' +
          'Sends no POST. Exit 3 when some companies could not be read (no access): the plan is\n' +
          'incomplete.\n\n' +
          'The file:\n' +
          '  defaults:                  # optional; merged into every company\n' +
          '    keys: [zapier]           # labels that must exist among your keys\n' +
          '    webhooks:\n' +
          '      - event: prospect_replied\n' +
          '        url: https://crm.example.com/hooks/woodpecker\n' +
          '  companies:\n' +
          '    - name: Acme Ltd\n' +
          '      keys: [reporting]      # in addition to the defaults\n' +
          '      guests:                # invited (pending: + guest until accepted)\n' +
          '        - { email: ceo@acme.example, name: Ann Lee, permissions: [mailboxes] }\n' +
          '    - Blue Harbor Dental     # a name with the defaults only',
        [
          'agency plan -f agency.yaml',
          'agency plan -f agency.yaml --exit-code || echo "drift"',
          'agency plan -f agency.yaml --json',
        ],
      ),
    )
    .action(run(async (rt, opts: PlanOptions) => (await import('./run.js')).planCommand(rt, opts)));
}
