/**
 * A webhook URL is checked as the user wrote it: the text is what the service stores, so an address
 * that only a lenient parser turns into a host (https:///path becomes https://path/) is refused.
 */
import { describe, expect, it } from 'vitest';
import { expectUsageError, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();
const dryRun = (url: string) =>
  shared.h.run(['webhooks', 'subscribe', '--event', 'prospect_replied', '--url', url, '--dry-run']);

describe('webhooks subscribe --url without a host', () => {
  for (const url of [
    'https:///hooks/woodpecker',
    'http:////crm.example.com/h',
    'https://?x=1',
    'https://#frag',
  ]) {
    it(`refuses ${url}: exit 2, nothing sent`, async () => {
      expectUsageError(await dryRun(url), shared.h.sandbox, /Invalid webhook URL .*no host/);
    });
  }

  it('still takes an address with a host, upper-case scheme included', async () => {
    const r = await dryRun('HTTPS://crm.example.com/h');
    expect(r.code, r.stderr).toBe(0);
  });
});
