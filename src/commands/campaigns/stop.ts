/** `agency campaigns stop`: stop the running and paused campaigns of the targets. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineCampaignChange } from './change.js';

export function defineStop(campaigns: Command, run: Run): void {
  defineCampaignChange(campaigns, run, 'stop', {
    description: 'stop running and paused campaigns across accounts',
    prints: `
      Reads each account's campaign list first and stops only the RUNNING and PAUSED
      campaigns selected (--campaign ids, --mailbox: those sending from that address;
      none: all). A stopped campaign can be resumed. Prints one row per campaign:
      company_id, campaign_id, campaign, status_before, result (stopped,
      already-stopped, not-running, would-stop, skipped-inactive or failed, with the
      reason). On a terminal the changes are listed and asked first (--yes skips the
      question; without a terminal --yes is required). --record FILE appends one JSON
      line per campaign stopped, as each is confirmed, for
      \`agency campaigns resume --from-record FILE\`. Without --company, --file or
      --all it acts on the key's own account.
    `,
    examples: `
      $ agency campaigns stop --company 1042 --record stopped.jsonl --yes
      $ agency campaigns stop --all --mailbox ops@client.example --dry-run
    `,
  });
}
