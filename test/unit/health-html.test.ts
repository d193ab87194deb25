/**
 * The health page drawn from a report value (src/output/health-html.ts), no sandbox: the reply-rate
 * chart shows the clients whose reply rate fell, steepest fall first (not the best 25), and says when
 * none fell; the bounce chart shows the highest rates with the report's thresholds drawn across.
 */
import { describe, expect, it } from 'vitest';
import type { Deliverability } from '../../src/api/types.js';
import type { ClientResult } from '../../src/fleet/health.js';
import { healthReport } from '../../src/fleet/health-report.js';
import { renderHealthHtml } from '../../src/output/health-html.js';

const pair = (current_period: number, previous_period: number) => ({ current_period, previous_period });

/** A client that delivered 1,000 emails in each period, with these replies now and before. */
function client(id: number, replies: [now: number, before: number], bounces = 0): Deliverability {
  return {
    id,
    name: `Client ${id}`,
    emails_sent: pair(1000 + bounces, 1000),
    delivered_emails: pair(1000, 1000),
    views: pair(0, 0),
    replies: pair(...replies),
    bounces: pair(bounces, 0),
  };
}

function page(listing: Deliverability[]): string {
  const results: ClientResult[] = listing.map((item) => ({
    client: { id: item.id, name: item.name },
    state: 'checked',
    problems: [],
  }));
  const report = healthReport(
    { period: {}, now: new Date(), results, listing, named: false },
    { failOn: 'critical' },
  );
  return renderHealthHtml(report, { title: 'Fleet health', generatedAt: new Date(0) });
}

/** The names a chart draws, in order. */
function charted(html: string, metric: string): string[] {
  const figure =
    new RegExp(`<figure class="chart" data-metric="${metric}">(.*?)</figure>`).exec(html)?.[1] ?? '';
  return [...figure.matchAll(/<span class="name">([^<]*)<\/span>/g)].map((m) => m[1] as string);
}

describe('the health page', () => {
  it('the reply-rate chart shows the clients whose reply rate fell, the steepest fall first', () => {
    // 30 clients with rising rates (the best 25 would all be these), and 3 that fell.
    const rising = Array.from({ length: 30 }, (_, i) => client(2000 + i, [100 + i, 50]));
    const fell = [client(1, [40, 50]), client(2, [10, 90]), client(3, [30, 80])];
    const html = page([...rising, ...fell]);
    expect(charted(html, 'reply-rate')).toEqual(['Client 2', 'Client 3', 'Client 1']);
    expect(html).toContain('Reply rate that fell');
    // The other charts still show the highest values, 25 of them.
    expect(charted(html, 'replied')).toHaveLength(25);
  });

  it('more than 25 that fell: the 25 steepest, and a note; none fell: said so', () => {
    const fell = Array.from({ length: 30 }, (_, i) => client(i + 1, [50 - i, 80]));
    const html = page(fell);
    const names = charted(html, 'reply-rate');
    expect(names).toHaveLength(25);
    expect(names[0]).toBe('Client 30');
    expect(html).toContain(
      'The 25 steepest falls of the 30 clients whose reply rate fell; all are in the table below.',
    );
    expect(page([client(1, [60, 50])])).toContain("No client's reply rate fell.");
  });

  it('the bounce chart draws the thresholds the report carries', () => {
    const html = page([client(1, [50, 50], 60)]);
    const figure = /data-metric="bounce-rate">(.*?)<\/figure>/.exec(html)?.[1] ?? '';
    expect(figure.match(/stroke-dasharray/g)).toHaveLength(2);
  });
});
