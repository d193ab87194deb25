/**
 * Every command takes a company one way: as its argument where the command is about one company, as
 * --company where it is a context or a target. The other form gets an error showing the right one for
 * that command (exit 2, nothing sent), never commander's "unknown option" or "too many arguments".
 */
import { describe, expect, it } from 'vitest';
import { sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness({ seed: { companies: 4 } });

/** The command line given, and the right form the error must show. */
const AS_ARGUMENT: [string[], string][] = [
  [['keys', 'list', '--company', '1001'], 'agency keys list 1001'],
  [['keys', 'create', '--company', '1001', '--label', 'x'], 'agency keys create 1001'],
  [['companies', 'view', '--company', 'Acme Ltd'], 'agency companies view "Acme Ltd"'],
  [['companies', 'users', '--company', '1001'], 'agency companies users 1001'],
  [['companies', 'email-accounts', '--company', '1001'], 'agency companies email-accounts 1001'],
  [['guests', 'invite', '--company', '1001', '--email', 'a@b.example'], 'agency guests invite 1001'],
  [
    ['guests', 'permissions', '--company', '1001', '--guest', '5', '--none'],
    'agency guests permissions 1001',
  ],
];
const AS_OPTION: [string[], string][] = [
  [['me', '1001'], 'agency me --company 1001'],
  [['mailboxes', 'Acme Ltd'], 'agency mailboxes --company "Acme Ltd"'],
  [['webhooks', '1001'], 'agency webhooks list --company 1001'],
  [['campaigns', 'list', '1001'], 'agency campaigns list --company 1001'],
  [['inventory', '1001'], 'agency inventory --company 1001'],
  [['health', '1001'], 'agency health --company 1001'],
  [['api', '/v1/me', '1001'], 'agency api /v1/me --company 1001'],
];

describe('company argument forms', () => {
  for (const [args, right] of AS_ARGUMENT) {
    it(`${args.join(' ')}: shows the argument form`, async () => {
      const r = await shared.h.run(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('takes the company as its argument, not as --company');
      expect(r.stderr).toContain(right);
      expect(shared.h.requests()).toEqual([]);
    });
  }
  for (const [args, right] of AS_OPTION) {
    it(`${args.join(' ')}: shows the --company form`, async () => {
      const r = await shared.h.run(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('takes the company as --company, not as an argument');
      expect(r.stderr).toContain(right);
      expect(shared.h.requests()).toEqual([]);
    });
  }

  it('the hidden --company of an argument command is not in its help', async () => {
    const r = await shared.h.run(['keys', 'list', '--help']);
    expect(r.stdout).not.toContain('--company');
  });
});
