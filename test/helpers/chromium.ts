/**
 * One headless Chromium for several looks at a page, driven over the DevTools protocol on a pipe
 * (`--remote-debugging-pipe`: JSON messages ended by NUL on file descriptors 3 and 4), so that a test
 * file starts the browser once instead of once per `--dump-dom`, `--screenshot` or `--print-to-pdf`.
 * No dependency.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** Debian's `chromium` (or `chromium-browser`), if installed. */
export const CHROMIUM = ['chromium', 'chromium-browser'].find(
  (name) => spawnSync(name, ['--version'], { encoding: 'utf8' }).status === 0,
);

export interface Browser {
  /** Opens `url` in a viewport of the given size and waits for its load event (images included). */
  open(url: string, size?: { width: number; height: number }): Promise<void>;
  /**
   * Gives the open page a viewport of another size, as a window resized: laid out again, not loaded
   * again (cheaper than open() once more); resolves once the page sees the new size.
   */
  resize(size: { width: number; height: number }): Promise<void>;
  /** The page's DOM as HTML, as `--dump-dom` prints it. */
  dom(): Promise<string>;
  /** The value of a JavaScript expression in the page (the report itself holds no script). */
  evaluate(expression: string): Promise<unknown>;
  /** Lays the page out for print or for the screen, as printing it would. */
  media(type: 'print' | 'screen'): Promise<void>;
  /** A PNG of the viewport, as `--screenshot` writes it. */
  screenshot(): Promise<Buffer>;
  /**
   * The page printed to PDF without header and footer, as `--print-to-pdf --no-pdf-header-footer`; on
   * `paper` (inches; default Letter) with the page's own CSS margins.
   */
  pdf(paper?: { width: number; height: number }): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * Starts Chromium with its own profile in a new directory under `dir` (Chromium's scratch files go
 * there too), and `args` (a proxy, say).
 */
export async function startChromium(dir: string, args: string[]): Promise<Browser> {
  if (!CHROMIUM) throw new Error('chromium is not installed');
  const profile = mkdtempSync(join(dir, 'profile-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      ...args,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: profile } },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  toBrowser.on('error', () => {});

  let nextId = 1;
  const answers = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  const eventWaiters: { method: string; resolve(): void }[] = [];
  let pending = '';
  fromBrowser.setEncoding('utf8').on('data', (chunk: string) => {
    const messages = (pending + chunk).split('\0');
    pending = messages.pop() ?? '';
    for (const text of messages) {
      const message = JSON.parse(text);
      if (message.id !== undefined) {
        const answer = answers.get(message.id);
        answers.delete(message.id);
        if (message.error) answer?.reject(new Error(`chromium: ${JSON.stringify(message.error)}`));
        else answer?.resolve(message.result);
      } else {
        const at = eventWaiters.findIndex((w) => w.method === message.method);
        if (at !== -1) eventWaiters.splice(at, 1)[0]?.resolve();
      }
    }
  });
  exited.then(() => {
    for (const answer of answers.values()) answer.reject(new Error(`chromium exited: ${stderr}`));
    answers.clear();
  });

  // biome-ignore lint/suspicious/noExplicitAny: protocol results are read by the caller
  const send = (method: string, params: object = {}, sessionId?: string): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      answers.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    });
  const event = (method: string) => new Promise<void>((resolve) => eventWaiters.push({ method, resolve }));

  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const page = (method: string, params: object = {}) => send(method, params, sessionId);
  await page('Page.enable');
  const evaluate = async (expression: string): Promise<unknown> =>
    (await page('Runtime.evaluate', { expression, returnByValue: true })).result.value;

  return {
    async open(url, size = { width: 800, height: 600 }) {
      await page('Emulation.setDeviceMetricsOverride', { ...size, deviceScaleFactor: 1, mobile: false });
      const loaded = event('Page.loadEventFired');
      await page('Page.navigate', { url });
      await loaded;
    },
    async resize(size) {
      await page('Emulation.setDeviceMetricsOverride', { ...size, deviceScaleFactor: 1, mobile: false });
      const seen = `innerWidth === ${size.width} && innerHeight === ${size.height}`;
      for (let tries = 0; !(await evaluate(seen)); tries++) {
        if (tries === 100) throw new Error(`the page never saw the size ${size.width}x${size.height}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async dom() {
      return (await evaluate('document.documentElement.outerHTML')) as string;
    },
    evaluate,
    async media(type) {
      await page('Emulation.setEmulatedMedia', { media: type });
    },
    async screenshot() {
      return Buffer.from((await page('Page.captureScreenshot', { format: 'png' })).data, 'base64');
    },
    async pdf(paper) {
      const size = paper
        ? { paperWidth: paper.width, paperHeight: paper.height, preferCSSPageSize: true }
        : {};
      return Buffer.from(
        (await page('Page.printToPDF', { displayHeaderFooter: false, ...size })).data,
        'base64',
      );
    },
    async close() {
      await send('Browser.close').catch(() => {});
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
