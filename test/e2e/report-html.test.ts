/**
 * `report --html`: the page to send to a client, opened in headless Chromium and printed. It is one
 * file (no script, nothing loaded from elsewhere); on screens of 1280 and 390 px it is no wider than the
 * window; printed on A4 and on Letter, a fleet summary comes first and then each client starts a page of
 * its own (the first lines of the page where its name appears are the agency's and the client's name),
 * so nothing of one client is on another's page, and no word lies outside the page's margins (read from
 * the PDF with pdftotext -bbox). Skipped where chromium or pdftotext is missing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type Browser, CHROMIUM, startChromium } from '../helpers/chromium.js';
import type { Harness } from '../helpers/cli.js';
import { startCoreHarness } from '../helpers/core.js';

const PDFTOTEXT = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' }).status === 0;
const MISSING = !CHROMIUM
  ? 'chromium is not installed (apt-get install -y chromium); the report page tests are skipped'
  : !PDFTOTEXT
    ? 'pdftotext is not installed (apt-get install -y poppler-utils); the report page tests are skipped'
    : undefined;
if (MISSING) console.warn(MISSING);

/** Paper in inches, and the margin the page's CSS asks for (12 mm at the sides) in points. */
const PAPERS = { A4: { width: 8.27, height: 11.69 }, Letter: { width: 8.5, height: 11 } } as const;
const SIDE_MARGIN_PT = (12 / 25.4) * 72;

interface Word {
  page: number;
  text: string;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
}

/** Every word of a PDF with its box (points), by page, as pdftotext -bbox-layout reads them. */
function words(pdf: string): { pages: { width: number; words: Word[] }[] } {
  const xhtml = spawnSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8' }).stdout;
  const pages = xhtml
    .split('<page ')
    .slice(1)
    .map((chunk, i) => {
      const width = Number(/width="([\d.]+)"/.exec(chunk)?.[1]);
      const found = [
        ...chunk.matchAll(
          /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
        ),
      ];
      return {
        width,
        words: found.map((m) => ({
          page: i + 1,
          text: (m[5] as string).replace(/&amp;/g, '&'),
          xMin: Number(m[1]),
          yMin: Number(m[2]),
          xMax: Number(m[3]),
          yMax: Number(m[4]),
        })),
      };
    });
  return { pages };
}

describe.skipIf(Boolean(MISSING))('report --html in headless Chromium', { timeout: 120_000 }, () => {
  let h: Harness;
  let tmp: string;
  let fleetPage: string;
  let clientPage: string;
  let clients: { company_id: number; name: string; campaigns: { name: string }[] }[];
  let browser: Browser;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'rh-'));
    // Twelve clients: the first four active ones make a summary and four client sections.
    h = await startCoreHarness(
      { seed: { companies: 12 }, reports: { pendingPolls: 0 } },
      { inProcess: true },
    );
    const [long] = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).slice(1);
    if (long) long.name = `Sunriselogisticspartnersinternational${long.id}`;
    fleetPage = join(tmp, 'fleet.html');
    const r = await h.run(['report', '--limit', '4', '--html', fleetPage, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`HTML report written to ${fleetPage}`);
    clients = JSON.parse(r.stdout).clients;
    clientPage = join(tmp, 'client.html');
    const one = await h.run(['report', '--company', String(clients[1]?.company_id), '--html', clientPage]);
    expect(one.code, one.stderr).toBe(0);
    browser = await startChromium(tmp, []);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('is one file: no script, nothing that could load anything; the client page names no other client', () => {
    for (const file of [fleetPage, clientPage]) {
      const html = readFileSync(file, 'utf8');
      expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed/i);
      expect(html).not.toMatch(/\s(src|href|srcset|action|xlink:href)\s*=/i);
      expect(html).not.toMatch(/url\(|@import/i);
      expect(html).toContain('Northwind Outreach');
    }
    const single = readFileSync(clientPage, 'utf8');
    expect(single).toContain(clients[1]?.name);
    for (const other of [clients[0], clients[2], clients[3]]) expect(single).not.toContain(other?.name);
    expect((single.match(/<section class="client"/g) ?? []).length).toBe(1);
    expect(single).not.toContain('class="summary"');
  });

  it('on a desktop (1280 px) and a phone (390 px) the page is no wider than the window', async () => {
    await browser.open(`file://${fleetPage}`, { width: 1280, height: 1600 });
    for (const width of [1280, 390]) {
      await browser.resize({ width, height: 1600 });
      expect(await browser.evaluate('document.documentElement.scrollWidth')).toBe(width);
    }
  });

  it('on a phone (390 px) a client or campaign name is not broken inside a word of ordinary length', async () => {
    // A word that fits a name cell's width is shown whole: the summary's CLIENT column once kept so
    // little room beside its numbers that "Blue Harbor Dental" read "Blue / Harb / or / Dent / al".
    await browser.open(`file://${fleetPage}`, { width: 390, height: 1600 });
    const broken =
      await browser.evaluate(`[...document.querySelectorAll('table td:first-child')].flatMap((td) => {
      const style = getComputedStyle(td);
      const room = td.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const name = td.firstChild ? td.firstChild.textContent : '';
      return name.split(' ').filter((word) => {
        if (word.length > 12) return false;
        const probe = document.createElement('span');
        probe.style.whiteSpace = 'nowrap';
        probe.textContent = word;
        td.appendChild(probe);
        const wide = probe.getBoundingClientRect().width > room + 0.5;
        probe.remove();
        return wide;
      });
    })`);
    expect(broken).toEqual([]);
  });

  for (const [paper, size] of Object.entries(PAPERS)) {
    it(`printed on ${paper}: the summary, then each client from the top of a page of its own; nothing beyond the margins`, async () => {
      await browser.open(`file://${fleetPage}`, { width: 1280, height: 1600 });
      const pdf = join(tmp, `fleet-${paper}.pdf`);
      writeFileSync(pdf, await browser.pdf(size));
      const { pages } = words(pdf);
      expect(pages.length).toBeGreaterThanOrEqual(clients.length + 1);
      for (const { width } of pages) expect(width).toBeCloseTo(size.width * 72, 0);
      const text = (page: { words: Word[] }) => page.words.map((w) => w.text).join(' ');
      expect(text(pages[0] as { words: Word[] })).toMatch(/^Northwind Outreach Campaign results/);
      // Each client's name is on the first lines of the page it starts, and on no page after the
      // summary but its own (no client's part begins on another client's page).
      const starts = clients.map((client) =>
        pages.findIndex((page, i) => i > 0 && text(page).startsWith(`Northwind Outreach ${client.name}`)),
      );
      expect(starts.every((start) => start > 0)).toBe(true);
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
      clients.forEach((client, i) => {
        const end = i + 1 < starts.length ? (starts[i + 1] as number) : pages.length;
        const own = pages.slice(starts[i], end).map(text).join(' ');
        for (const other of clients) if (other !== client) expect(own).not.toContain(other.name);
        for (const campaign of client.campaigns) expect(own).toContain(campaign.name.split(' ')[0]);
      });
      // Nothing is cut at the edge, and nothing was shrunk to fit (as Chromium does with a page wider than
      // the paper): every word within the side margins, and the tables' text as large as the CSS says.
      const heights = pages.flatMap((page) => page.words.map((w) => w.yMax - w.yMin)).sort((a, b) => a - b);
      expect(heights[heights.length >> 1]).toBeGreaterThan(9);
      for (const page of pages) {
        for (const word of page.words) {
          expect(word.xMin, `${word.text} on page ${word.page}`).toBeGreaterThanOrEqual(SIDE_MARGIN_PT - 1);
          expect(word.xMax, `${word.text} on page ${word.page}`).toBeLessThanOrEqual(
            page.width - SIDE_MARGIN_PT + 1,
          );
        }
      }
    });
  }
});
