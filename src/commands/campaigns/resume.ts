/** `agency campaigns resume`: run again the paused and stopped campaigns, or exactly those of a record. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineCampaignChange } from './change.js';

export function defineResume(campaigns: Command, run: Run): void {
  defineCampaignChange(campaigns, run, 'resume', {
    description: 'resume paused and stopped campaigns across accounts',
    prints: `
      Reads each account's campaign list first and runs only the PAUSED and STOPPED
      campaigns selected (--campaign ids, --mailbox: those sending from that address);
      a DRAFT, EDITED or COMPLETED campaign is never started. --from-record FILE
      resumes exactly the campaigns a \`campaigns pause --record\` (or stop) run wrote
      that are still PAUSED or STOPPED; one that changed since is a row changed-since
      and is left alone. Prints one row per campaign: company_id, campaign_id,
      campaign, status_before, result (resumed, already-running, not-paused,
      changed-since, would-resume, skipped-inactive or failed, with the reason). On a
      terminal the changes are listed and asked first (--yes skips the question;
      without a terminal --yes is required).
    `,
    examples: `
      $ agency campaigns resume --from-record paused.jsonl --yes
      $ agency campaigns resume --company 1042 --campaign 104201 --yes
      $ agency campaigns resume --from-record paused.jsonl --dry-run
    `,
  });
}
