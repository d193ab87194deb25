/**
 * `agency plan -f FILE`: what it takes to bring the agency to the state a file describes, read only.
 * This file defines the options alone; the handler (and with it the YAML parser) loads when it runs.
 */
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { NO_HISTORY_OPTION } from '../../history/record.js';
import { fileTypes, helpText, type OptionsOf, printsNoList, type Run } from '../command.js';

/**
 * What plan and apply both take after their own options: --no-history, and the escapes from a refusal
 * of the file's contents.
 */
export function addPlanEscapes<Opts extends OptionValues>(command: Command<[], Opts>) {
  return command
    .option(...NO_HISTORY_OPTION)
    .option(
      '--allow-unknown-event',
      "take the file's events that are within two edits of a known one as given (a typo otherwise)",
    )
    .option(
      '--allow-similar',
      'create a company of the file even if an existing one differs from it only in case or spacing',
    );
}

/** `-f, --file`, the desired state for plan and apply: YAML or JSON (JSON is YAML too). */
export function desiredStateOption() {
  return fileTypes(
    new Option('-f, --file <path>', "the desired state, YAML or JSON ('-' = stdin)").makeOptionMandatory(),
    ['yaml', 'yml', 'json'],
  );
}

function configure(plan: Command) {
  const command = printsNoList(plan)
    .addOption(desiredStateOption())
    .option('--exit-code', 'exit 6 when changes are pending (for drift checks in CI)')
    .option('--concurrency <n>', 'client accounts read at once (default 4)');
  return addPlanEscapes(command).addHelpText(
    'after',
    helpText({
      prints: `
        Reads the agency (companies, the keys your user created, webhooks, users) and prints
        one line per change the file asks for: + company, + key, + webhook, + guest, ~ guest
        (permissions); "!" lines for what cannot be done (a company whose name only looks
        like an existing one's, "acme ltd" beside "Acme Ltd": apply refuses the file unless
        --allow-similar, since companies cannot be renamed or deleted; an inactive company's webhooks, a
        webhook beyond the service's 3 URLs per event and account, a guest who is already a
        user of the company with another role (a team member), a company your user has no
        access to): they are not changes, and apply leaves them out. "?" lines: a
        subscription of a company whose entry (or the defaults) lists webhooks that the file
        does not list (left alone; apply --prune unsubscribes it). Counts of what is in
        place and of the companies the file does not mention (never changed) go to stderr.
        Sends no POST. Exit 3 when some companies could not be read (no access): the plan is
        incomplete.

        A pending guest invitation cannot be seen through the API: a guest that an earlier
        apply invited (remembered in the local history) and who is not a user yet is a
        "= guest … invited on <date>, not yet accepted" line, not a change (--exit-code
        leaves it out; --json: "pending_invitations"). --no-history (or
        AGENCY_NO_HISTORY=1) forgets them: such a guest is "+ guest" again.

        The file:
          defaults:                  # optional; merged into every company
            keys: [zapier]           # labels that must exist among your keys
            webhooks:
              - event: prospect_replied
                url: https://crm.example.com/hooks/woodpecker
            bounce_shield: 3         # % threshold of RUNNING and PAUSED campaigns
          companies:
            - name: Acme Ltd
              keys: [reporting]      # in addition to the defaults
              guests:                # invited once; pending: "= guest" until accepted
                - { email: ceo@acme.example, name: Ann Lee, permissions: [mailboxes] }
            - Blue Harbor Dental     # a name with the defaults only

        An event within two edits of a known one (prospect_replyed) is refused as a typo,
        naming the event meant; a webhook that really has such an event says so with
        allow_unknown_event: true beside its event and url (or --allow-unknown-event for
        the whole file).
      `,
      examples: `
        $ agency plan -f agency.yaml
        $ agency plan -f agency.yaml --exit-code || echo "drift"
        $ agency plan -f agency.yaml --json
      `,
    }),
  );
}

export type PlanOptions = OptionsOf<typeof configure>;

export function define(plan: Command, run: Run): void {
  configure(plan).action(
    run(async (rt, opts: PlanOptions) => (await import('./run.js')).planCommand(rt, opts)),
  );
}
