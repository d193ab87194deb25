import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { CAMPAIGN_STATUSES, parseCampaignStatuses } from '../../src/fleet/campaign-status.js';

describe('parseCampaignStatuses', () => {
  it('accepts any case and sends upper case, in the order given', () => {
    expect(parseCampaignStatuses('running,Paused')).toEqual(['RUNNING', 'PAUSED']);
    expect(parseCampaignStatuses(' draft , EDITED ')).toEqual(['DRAFT', 'EDITED']);
  });

  it('accepts the option repeated and names each status once', () => {
    expect(parseCampaignStatuses(['stopped', 'completed,STOPPED'])).toEqual(['STOPPED', 'COMPLETED']);
  });

  it('knows every documented status', () => {
    expect(parseCampaignStatuses(CAMPAIGN_STATUSES.join(',').toLowerCase())).toEqual([...CAMPAIGN_STATUSES]);
  });

  it('refuses an unknown status with a usage error that lists the valid ones', () => {
    let error: unknown;
    try {
      parseCampaignStatuses('running,active,paused,archived');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as UsageError).message;
    expect((error as UsageError).exitCode).toBe(2);
    expect(message).toContain('"active"');
    expect(message).toContain('"archived"');
    expect(message).toContain('RUNNING, DRAFT, EDITED, PAUSED, STOPPED, COMPLETED');
  });

  it('skips empty entries (a trailing comma as completion leaves it), and refuses no status at all', () => {
    expect(parseCampaignStatuses('running,')).toEqual(['RUNNING']);
    expect(parseCampaignStatuses('running,,paused')).toEqual(['RUNNING', 'PAUSED']);
    expect(parseCampaignStatuses(['paused', ','])).toEqual(['PAUSED']);
    // Never a request with status= (nothing): a usage error naming the valid statuses.
    expect(() => parseCampaignStatuses('')).toThrow(UsageError);
    expect(() => parseCampaignStatuses(' , ')).toThrow(/needs a campaign status; valid: RUNNING/);
  });
});
