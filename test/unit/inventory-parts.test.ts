import { describe, expect, it } from 'vitest';
import {
  groupMailboxes,
  isErrorText,
  summarizeCampaigns,
  summarizeEmailAccounts,
  summarizeMailboxes,
} from '../../src/fleet/inventory-parts.js';

const smtp = (id: number, email: string, imap_id: number | null, error: unknown = null) => ({
  id,
  type: 'SMTP',
  details: { email, imap_id, error },
});
const imap = (id: number, email: string, error: unknown = null) => ({
  id,
  type: 'IMAP',
  details: { email, error },
});

describe('mailbox pairing', () => {
  it('counts an SMTP entry and the IMAP entry its imap_id names as one mailbox', () => {
    const entries = [smtp(1, 'a@x.com', 2), imap(2, 'a@x.com'), smtp(3, 'b@x.com', 4), imap(4, 'b@x.com')];
    expect(groupMailboxes(entries).map((g) => g.map((e) => e.id))).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(summarizeMailboxes(entries)).toEqual({ count: 2, types: { SMTP: 2, IMAP: 2 }, errors: 0 });
  });

  it('pairs by imap_id even when the addresses differ, and in any order', () => {
    const entries = [imap(20, 'imap-login@x.com'), smtp(10, 'send@x.com', 20)];
    expect(summarizeMailboxes(entries).count).toBe(1);
  });

  it('pairs an SMTP entry without imap_id with an unclaimed IMAP entry of the same address', () => {
    const entries = [smtp(1, 'Sales@x.com', null), imap(2, 'sales@x.com'), imap(3, 'other@x.com')];
    expect(groupMailboxes(entries).map((g) => g.map((e) => e.id))).toEqual([[1, 2], [3]]);
  });

  it('counts entries left alone once each: SMTP without IMAP, IMAP nobody claims, other types', () => {
    const entries = [
      smtp(1, 'a@x.com', 99),
      imap(2, 'b@x.com'),
      { id: 3, type: 'GMAIL', details: { email: 'c@x.com' } },
    ];
    expect(summarizeMailboxes(entries).count).toBe(3);
  });

  it('does not let two SMTP entries claim one IMAP entry', () => {
    const entries = [smtp(1, 'a@x.com', 3), smtp(2, 'a@x.com', 3), imap(3, 'a@x.com')];
    expect(summarizeMailboxes(entries).count).toBe(2);
  });

  it('counts a mailbox with an error on either side once', () => {
    const entries = [
      smtp(1, 'a@x.com', 2, 'SMTP authentication failed'),
      imap(2, 'a@x.com', 'IMAP connection timed out'),
      smtp(3, 'b@x.com', 4),
      imap(4, 'b@x.com', 'IMAP connection timed out'),
      smtp(5, 'c@x.com', 6, ''),
      imap(6, 'c@x.com', 'Connected conditionally.'),
    ];
    expect(summarizeMailboxes(entries)).toEqual({ count: 3, types: { SMTP: 3, IMAP: 3 }, errors: 2 });
  });

  it('summarises email accounts by the same rule', () => {
    const entries = [smtp(1, 'a@x.com', 2, 'bad password'), imap(2, 'a@x.com'), smtp(3, 'b@x.com', null)];
    expect(summarizeEmailAccounts(entries)).toEqual({ count: 2, errors: 1 });
    expect(summarizeEmailAccounts([])).toEqual({ count: 0, errors: 0 });
  });
});

describe('isErrorText', () => {
  it('treats null, empty text and the "Connected conditionally." warning as no error', () => {
    for (const none of [null, undefined, '', '  ', 'Connected conditionally.', false]) {
      expect(isErrorText(none), String(none)).toBe(false);
    }
    expect(isErrorText('Authentication failed')).toBe(true);
    expect(isErrorText({ code: 'E' })).toBe(true);
  });
});

describe('summarizeCampaigns', () => {
  it('counts by status (every documented one, 0 when absent) and campaigns carrying an error', () => {
    const campaigns = [
      { status: 'RUNNING', error: null },
      { status: 'RUNNING', error: 'Mailbox disconnected' },
      { status: 'paused', error: '' },
      { status: 'STOPPED', error: 'Bounce shield paused the campaign' },
      { status: 'ARCHIVED' },
    ];
    expect(summarizeCampaigns(campaigns)).toEqual({
      count: 5,
      by_status: { RUNNING: 2, DRAFT: 0, EDITED: 0, PAUSED: 1, STOPPED: 1, COMPLETED: 0, ARCHIVED: 1 },
      errors: 2,
    });
  });

  it('gives zeros for an account without campaigns', () => {
    expect(summarizeCampaigns([])).toEqual({
      count: 0,
      by_status: { RUNNING: 0, DRAFT: 0, EDITED: 0, PAUSED: 0, STOPPED: 0, COMPLETED: 0 },
      errors: 0,
    });
  });
});
