/**
 * `agency apply -f FILE`: make the changes `plan` shows. This file defines the options alone; the
 * handler (and with it the YAML parser) loads when it runs.
 */
import type { Command } from '@commander-js/extra-typings';
import { helpText, type OptionsOf, printsNoList, type Run } from '../command.js';
import { addPlanEscapes, desiredStateOption } from '../plan/index.js';

function configure(apply: Command) {
  const command = printsNoList(apply)
    .addOption(desiredStateOption())
    .option('-y, --yes', 'do not ask (required when there is no terminal to ask on)')
    .option('--keys-out <path>', 'also append each new key to this file (created 0600)')
    .option('--concurrency <n>', 'client accounts worked on at once (default 4)')
    .option(
      '--resend-invitations',
      'invite again the guests an earlier apply invited who have not accepted yet',
    );
  return addPlanEscapes(command)
    .option(
      '--prune',
      'also unsubscribe the webhooks of the file\'s companies that the file does not list (plan\'s "?" lines)',
    )
    .addHelpText(
      'after',
      helpText({
        prints: `
          Shows the plan (see \`agency plan --help\` for the file), asks, then makes the changes:
          companies (10 per request, file order), then keys, then webhooks, then guests
          (invitations of at most 10, each with its permissions; then the permissions that
          differ). Prints one line per change made, each new key whole; --keys-out appends
          "company_id<TAB>name<TAB>label<TAB>api_key" as each key arrives. Goes on past a
          failure; a company that could not be created gets none of its keys, webhooks or
          guests. A company whose entry (or the defaults) lists webhooks has its other
          subscriptions shown as "?" lines and left alone; --prune unsubscribes them too
          ("- webhook" lines, asked like every change). A company of the file whose name only looks like an existing one's (case or
          spacing) makes apply refuse the whole file (exit 5, nothing sent) unless
          --allow-similar. Running it again is safe: it sends only what is still missing. Each
          invitation sent is remembered in the local history, so that a guest who has not
          accepted yet is not invited again (plan shows "= guest … not yet accepted");
          --resend-invitations sends those again (the service resends the same invitation).
          --no-history (or AGENCY_NO_HISTORY=1): nothing remembered, such guests invited again.
          With the plan piped in (-f -), the question is asked on the terminal itself
          (/dev/tty). Answering "n" to the question sends nothing: "Apply cancelled", exit 1 (not an
          error, but \`apply && next-step\` stops); Ctrl-C there is exit 130.
        `,
        examples: `
          $ agency apply -f agency.yaml
          $ agency apply -f agency.yaml --yes --keys-out new-keys.tsv
          $ agency apply -f agency.yaml --yes --json > applied.json
        `,
      }),
    );
}

export type ApplyOptions = OptionsOf<typeof configure>;

export function define(apply: Command, run: Run): void {
  configure(apply).action(
    run(async (rt, opts: ApplyOptions) => (await import('./run.js')).applyCommand(rt, opts)),
  );
}
