/**
 * `health --html`: the page opened in headless Chromium (Debian's `chromium`). What it shows (the
 * problems table with every problem of --json, one chart per metric, the severity colours and the
 * chart bars on a screenshot, a narrow phone-sized screenshot, a printed PDF), and that opening it
 * makes no network request: every request Chromium makes goes to a proxy of the test, which must see
 * none (a control page with one external image proves that it would). Skipped where chromium is missing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type Browser, CHROMIUM, startChromium } from '../helpers/chromium.js';
import type { Harness } from '../helpers/cli.js';
import { startCoreHarness } from '../helpers/core.js';
import { countColour, readPng } from '../helpers/png.js';

const CHROMIUM_MISSING = CHROMIUM
  ? undefined
  : 'chromium is not installed (apt-get install -y chromium); the HTML report tests are skipped';
if (CHROMIUM_MISSING) console.warn(CHROMIUM_MISSING);

/** Hosts Chromium talks to on its own (component updates, time, accounts), whatever the page holds. */
const CHROMIUM_SERVICES = /(^|[\s/.])(google\.com|googleapis\.com|gstatic\.com|gvt1\.com)(:\d+)?([/\s]|$)/;

const METRICS = ['sent', 'delivered', 'opened', 'replied', 'reply-rate', 'bounce-rate'];

// Chromium takes seconds to start, many more on a loaded machine: each test may take two minutes.
describe.skipIf(Boolean(CHROMIUM_MISSING))('health --html in headless Chromium', { timeout: 120_000 }, () => {
  let h: Harness;
  let tmp: string;
  let page: string;
  let problems: { severity: string; name: string }[];
  let proxy: Server;
  let proxied: string[];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'agency-html-'));
    h = await startCoreHarness({ seed: { companies: 40 } }, { inProcess: true });
    // Real clients have long one-word names, and so long addresses (outreach@<name>.example): tokens
    // with no place to break, which must not widen the page on a phone.
    for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).slice(0, 8)) {
      company.name = `Sunriselogisticspartnersinternational${company.id}`;
    }
    page = join(tmp, 'report.html');
    const r = await h.run(['health', '--html', page, '--json']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`HTML report written to ${page}`);
    problems = JSON.parse(r.stdout).problems;
    proxied = [];
    proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      res.writeHead(404).end();
    }).on('connect', (req, socket) => {
      proxied.push(`CONNECT ${req.url}`);
      // The socket is the test's once the server emits 'connect': Chromium may reset it (a tunnel to its
      // own services, given up), and a socket error with no listener ends the test process.
      socket.on('error', () => {});
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await new Promise((resolve) => proxy?.close(resolve));
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /**
   * One Chromium for the file (test/helpers/chromium.ts), with its own profile and every request sent
   * to the test's proxy (loopback included). Driven asynchronously: the proxy lives in this process and
   * must be free to answer.
   */
  let browser: Browser | undefined;
  const chromium = async (): Promise<Browser> => {
    const port = (proxy.address() as AddressInfo).port;
    browser ??= await startChromium(tmp, [
      `--proxy-server=http://127.0.0.1:${port}`,
      '--proxy-bypass-list=<-loopback>',
    ]);
    return browser;
  };

  /** What the page asked for: every proxied request except Chromium's own services (updates, sign-in). */
  const pageRequests = () => proxied.filter((line) => !CHROMIUM_SERVICES.test(line));

  it('is one file: no script, and no src, href, url() or @import that could load anything', () => {
    const html = readFileSync(page, 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed/i);
    expect(html).not.toMatch(/\s(src|href|srcset|action|xlink:href)\s*=/i);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html).toMatch(/@media print/);
    expect(html).toMatch(/@media \(max-width:\s*\d+px\)/);
  });

  it('shows every problem in the problems table, grouped by client, and one chart per metric', async () => {
    const browser = await chromium();
    await browser.open(`file://${page}`);
    const dom = await browser.dom();
    const table = dom.slice(dom.indexOf('<table class="problems"'), dom.indexOf('</table>') + 8);
    // One group per client, in the order of its worst problem; within it, the client's problems in order.
    const groups = table.split('<tbody class="client').slice(1);
    const names = [...new Set(problems.map((p) => p.name))];
    expect(groups.map((g) => /<th colspan="3">([^<]+)</.exec(g)?.[1]?.replace(/&amp;/g, '&'))).toEqual(names);
    groups.forEach((group, i) => {
      const shown = [...group.matchAll(/<span class="sev (\w+)">/g)].map((m) => m[1]);
      expect(shown).toEqual(problems.filter((p) => p.name === names[i]).map((p) => p.severity));
    });
    const charts = [...dom.matchAll(/<figure class="chart" data-metric="([\w-]+)">/g)].map((m) => m[1]);
    expect(charts).toEqual(METRICS);
    expect((dom.match(/<svg /g) ?? []).length).toBeGreaterThan(METRICS.length * 10);
    expect(pageRequests()).toEqual([]);
  });

  it('on a screenshot: the severity colours and the chart bars are drawn; nothing was requested', async () => {
    const browser = await chromium();
    await browser.open(`file://${page}`, { width: 1200, height: 6000 });
    const image = readPng(await browser.screenshot());
    expect([image.width, image.height]).toEqual([1200, 6000]);
    expect(countColour(image, '#2f6fdb')).toBeGreaterThan(2000); // this period's bars
    expect(countColour(image, '#b9c3d3')).toBeGreaterThan(1000); // the previous period's
    expect(countColour(image, '#c0262d')).toBeGreaterThan(200); // critical
    expect(countColour(image, '#a15c00')).toBeGreaterThan(50); // warning
    // The same page in a phone's window, then in the default one to print (resized, not loaded again).
    await browser.resize({ width: 390, height: 1600 });
    expect(readPng(await browser.screenshot()).width).toBe(390);
    await browser.resize({ width: 800, height: 600 });
    expect((await browser.pdf()).subarray(0, 5).toString()).toBe('%PDF-');
    expect(pageRequests()).toEqual([]);
  });

  it("fits a phone's 390 px viewport (and 500 px): the page is no wider than the window (no sideways scrolling)", async () => {
    // The report holds no script: DevTools measures it (the page's width and the window's), in a window
    // of each width (the page loaded once, at the first, then resized).
    const browser = await chromium();
    await browser.open(`file://${page}`, { width: 390, height: 1600 });
    const widths = async (window: number) => {
      await browser.resize({ width: window, height: 1600 });
      const measured = await browser.evaluate('document.documentElement.scrollWidth + "/" + innerWidth');
      const [scroll, inner] = String(measured).split('/').map(Number);
      return { scroll, inner };
    };
    expect(await widths(390)).toEqual({ scroll: 390, inner: 390 });
    expect(await widths(500)).toEqual({ scroll: 500, inner: 500 });
    expect(await widths(1200)).toEqual({ scroll: 1200, inner: 1200 });
    expect(pageRequests()).toEqual([]);
  });

  it('on a desktop (1280 px and 800 px) the headers, severities and check names stay on one line each; DETAIL wraps', async () => {
    // DevTools counts the cells whose text the browser laid out on more than one line (the page loaded
    // once, then resized).
    const measure = `(() => {
      // The lines of a cell: the distinct tops of the boxes of its text (an inline-block's own box aside).
      const lines = (el) => { const tops = new Set(); const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) { const r = document.createRange();
          r.selectNodeContents(node); for (const rect of r.getClientRects()) tops.add(Math.round(rect.top / 4)); }
        return tops.size; };
      const cells = (css) => [...document.querySelectorAll(css)];
      const broken = cells('table.problems thead th, table.problems td:nth-child(-n+2)').filter((el) => lines(el) > 1);
      const wrapped = cells('table.problems td:nth-child(3)').filter((el) => lines(el) > 1);
      return broken.length + '/' + wrapped.length + '/' + document.documentElement.scrollWidth;
    })()`;
    const browser = await chromium();
    await browser.open(`file://${page}`, { width: 1280, height: 1600 });
    const measureAt = async (window: number) => {
      await browser.resize({ width: window, height: 1600 });
      const [broken, wrapped, scroll] = String(await browser.evaluate(measure))
        .split('/')
        .map(Number);
      return { broken, wrapped, scroll };
    };
    const desktop = await measureAt(1280);
    expect(desktop).toMatchObject({ broken: 0, scroll: 1280 });
    const narrow = await measureAt(800);
    expect(narrow).toMatchObject({ broken: 0, scroll: 800 });
    // The page has long details (SMTP errors): at 800 px they take the lines the other columns do not.
    expect(narrow.wrapped).toBeGreaterThan(0);
    expect(pageRequests()).toEqual([]);
  });

  it("a chart legend's swatch stays on the line of its label, the label on one line (1280 and 390 px)", async () => {
    // "Reply rate that fell (replies / delivered)" left room for the swatch of "previous" only: the
    // word went to the next line alone.
    const measure = `[...document.querySelectorAll('.legend i')].filter((swatch) => {
      const label = swatch.nextSibling; const r = document.createRange(); r.selectNodeContents(label);
      const tops = new Set([...r.getClientRects()].map((rect) => Math.round(rect.top)));
      const box = swatch.getBoundingClientRect(); const first = r.getClientRects()[0];
      return tops.size !== 1 || Math.abs(first.top + first.height / 2 - (box.top + box.height / 2)) > 8;
    }).map((swatch) => swatch.nextSibling.textContent).join('|')`;
    const browser = await chromium();
    await browser.open(`file://${page}`, { width: 1280, height: 1600 });
    for (const width of [1280, 390]) {
      await browser.resize({ width, height: 1600 });
      expect(await browser.evaluate(measure)).toBe('');
    }
  });

  it('printed, it is laid out for paper: white, the full width, the charts one under another', async () => {
    const browser = await chromium();
    await browser.open(`file://${page}`, { width: 1200, height: 1600 });
    const layout = () =>
      browser.evaluate(`JSON.stringify({
        background: getComputedStyle(document.body).backgroundColor,
        main: getComputedStyle(document.querySelector('main')).maxWidth,
        charts: getComputedStyle(document.querySelector('.charts')).display,
      })`);
    const screen = JSON.parse((await layout()) as string);
    await browser.media('print');
    try {
      expect(JSON.parse((await layout()) as string)).toEqual({
        background: 'rgb(255, 255, 255)',
        main: 'none',
        charts: 'block',
      });
    } finally {
      await browser.media('screen');
    }
    // On the screen the page is grey, centred and its charts side by side: the print rules are what differ.
    expect(screen).toEqual({ background: 'rgb(246, 247, 249)', main: '1040px', charts: 'grid' });
    expect(pageRequests()).toEqual([]);
  });

  it('the network check can fail: a page with one external image is caught', async () => {
    const control = join(tmp, 'control.html');
    writeFileSync(control, '<!doctype html><img src="http://images.example.invalid/pixel.png">');
    await (await chromium()).open(`file://${control}`);
    expect(pageRequests()).toEqual(['GET http://images.example.invalid/pixel.png']);
    proxied.length = 0;
  });
});
