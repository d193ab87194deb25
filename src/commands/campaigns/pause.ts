/** `agency campaigns pause`: pause the running campaigns of the targets, and record them for resume. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineCampaignChange } from './change.js';

export function definePause(campaigns: Command, run: Run): void {
  defineCampaignChange(campaigns, run, 'pause', {
    description: 'pause running campaigns across accounts',
    prints: `
      Reads each account's campaign list first and pauses only the RUNNING campaigns
      selected (--campaign ids, --mailbox: those sending from that address; none: all).
      Prints one row per campaign: company_id, campaign_id, campaign, status_before,
      result (paused, already-paused, not-running, would-pause, skipped-inactive or
      failed, with the reason). On a terminal the changes are listed and asked first
      (--yes skips the question; without a terminal --yes is required), and the rows
      where nothing changes are counted on stderr, not listed. --record FILE appends
      one JSON line per campaign paused, as each is confirmed, for
      \`agency campaigns resume --from-record FILE\`. Without --company, --file or
      --all it acts on the key's own account.
    `,
    examples: `
      $ agency campaigns pause --all --mailbox ops@client.example --record paused.jsonl --yes
      $ agency campaigns pause --company 1042 --dry-run
      $ agency campaigns pause --company 1042 --campaign 104201 --yes
    `,
  });
}
