import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { auditCompany, formatCounts, type InventoryReader, showPart } from '../../src/fleet/inventory.js';
import { cellText } from '../../src/output/text.js';

const company = { id: 7, name: 'Acme Ltd', owner: 'Olivia', active: true };

function reader(overrides: Partial<InventoryReader> = {}): InventoryReader {
  return {
    emailAccounts: async () => [
      { id: 1, type: 'SMTP', details: { email: 'a@acme.test', imap_id: 2, error: 'Invalid password' } },
      { id: 2, type: 'IMAP', details: { email: 'a@acme.test', error: null } },
    ],
    mailboxes: async () => [
      { id: 1, type: 'SMTP', details: { email: 'a@acme.test', imap_id: 2 } },
      { id: 2, type: 'IMAP', details: { email: 'a@acme.test' } },
      { id: 3, type: 'SMTP', details: { email: 'b@acme.test', imap_id: null } },
    ],
    webhooks: async () => [
      { event: 'PROSPECT_REPLIED' },
      { event: 'LINK_CLICKED' },
      { event: 'PROSPECT_REPLIED' },
    ],
    campaigns: async () => [
      { status: 'RUNNING', error: null },
      { status: 'PAUSED', error: 'Mailbox disconnected' },
    ],
    ...overrides,
  };
}

describe('auditCompany', () => {
  it('reports every part of a company, mailboxes counted once per SMTP/IMAP pair', async () => {
    const report = await auditCompany(reader(), company, async () => 2);
    expect(report).toEqual({
      ...company,
      keys: { count: 2 },
      mailboxes: { count: 2, types: { SMTP: 2, IMAP: 1 }, errors: 0 },
      webhooks: { count: 3, events: ['LINK_CLICKED', 'PROSPECT_REPLIED'] },
      email_accounts: { count: 1, errors: 1 },
      campaigns: {
        count: 2,
        by_status: { RUNNING: 1, DRAFT: 0, EDITED: 0, PAUSED: 1, STOPPED: 0, COMPLETED: 0 },
        errors: 1,
      },
      // The email accounts' broken a@acme.test: one mailbox error (the mailbox list shows none).
      problems: ['1 mailbox error', '1 campaign error'],
    });
  });

  it('turns a part that failed into {error} and keeps the others', async () => {
    const inactive = new ApiError('Conflict (409): company 7 is inactive', { status: 409 });
    const report = await auditCompany(
      reader({
        campaigns: async () => {
          throw inactive;
        },
      }),
      company,
      async () => 0,
    );
    expect(report.campaigns).toEqual({ error: { status: 409, message: inactive.message } });
    expect(report.keys).toEqual({ count: 0 });
    expect(showPart(report.campaigns, () => 'x')).toBe('inactive');
    expect(report.problems).toEqual(['inactive', '1 mailbox error']);
  });

  it('names a part that could not be read for another reason by its status', async () => {
    const broken = new ApiError('Internal Server Error (500)', { status: 500 });
    const report = await auditCompany(
      reader({
        mailboxes: async () => {
          throw broken;
        },
      }),
      company,
      async () => 0,
    );
    expect(report.problems).toEqual(['mailboxes unreadable (500)', '1 mailbox error', '1 campaign error']);
  });

  it('counts a broken mailbox once, whether the mailbox list, the email accounts or both show it', async () => {
    const smtp = (id: number, email: string, error: string | null) => ({
      id,
      type: 'SMTP',
      details: { email, imap_id: id + 1, error },
    });
    const imap = (id: number, email: string) => ({ id, type: 'IMAP', details: { email, error: null } });
    // a@ broken in both lists (the same mailbox, its address in another case in one), b@ in the mailbox
    // list only, c@ in the email accounts only: three broken mailboxes, each one problem.
    const report = await auditCompany(
      reader({
        mailboxes: async () => [
          smtp(1, 'A@acme.test', 'Invalid password'),
          imap(2, 'A@acme.test'),
          smtp(3, 'b@acme.test', 'Connection refused'),
          imap(4, 'b@acme.test'),
          smtp(5, 'c@acme.test', null),
          imap(6, 'c@acme.test'),
        ],
        emailAccounts: async () => [
          smtp(1, 'a@acme.test', 'Invalid password'),
          imap(2, 'a@acme.test'),
          smtp(3, 'b@acme.test', null),
          imap(4, 'b@acme.test'),
          smtp(5, 'c@acme.test', 'Token expired'),
          imap(6, 'c@acme.test'),
        ],
      }),
      company,
      async () => 1,
    );
    expect(report.problems).toEqual(['3 mailbox errors', '1 campaign error']);
    // Each list's own count stays what that list shows (--json).
    expect(report.mailboxes).toMatchObject({ errors: 2 });
    expect(report.email_accounts).toEqual({ count: 3, errors: 2 });
  });

  it('one broken mailbox shown by both lists is one mailbox error, not one of each', async () => {
    const both = [
      { id: 1, type: 'SMTP', details: { email: 'a@acme.test', imap_id: 2, error: 'Invalid password' } },
      { id: 2, type: 'IMAP', details: { email: 'a@acme.test', error: null } },
    ];
    const report = await auditCompany(
      reader({ mailboxes: async () => both, emailAccounts: async () => both, campaigns: async () => [] }),
      company,
      async () => 1,
    );
    expect(report.problems).toEqual(['1 mailbox error']);
  });

  it('lets a programming error through instead of hiding it in the report', async () => {
    const broken = reader({
      webhooks: async () => {
        throw new TypeError('boom');
      },
    });
    await expect(auditCompany(broken, company, async () => 0)).rejects.toThrow('boom');
  });
});

describe('formatCounts', () => {
  it('leaves out zeros and follows the given order, others after it by name', () => {
    const text = (counts: Record<string, number>, order?: string[]) => cellText(formatCounts(counts, order));
    expect(text({ PAUSED: 1, RUNNING: 2, DRAFT: 0, ARCHIVED: 1 }, ['RUNNING', 'DRAFT', 'PAUSED'])).toBe(
      'RUNNING:2,PAUSED:1,ARCHIVED:1',
    );
    expect(text({ SMTP: 2, IMAP: 1 })).toBe('IMAP:1,SMTP:2');
    expect(text({})).toBe('');
  });

  it("puts the others in code-unit order: the same in every locale (not a collator's a, B, b)", () => {
    const text = (counts: Record<string, number>) => cellText(formatCounts(counts));
    expect(text({ b: 1, a: 2, B: 3, Ä: 4 })).toBe('B:3,a:2,b:1,Ä:4');
  });
});
