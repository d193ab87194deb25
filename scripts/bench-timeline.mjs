#!/usr/bin/env node
// Where a fleet command's time goes, account by account: runs `agency <args>` (built: npm run build)
// against an in-process sandbox with the bench's network (--rtt 30 --latency 20, 300 companies) and
// reads the sandbox's request log (each request's account, arrival, slot and answer) to print the HQ
// account's requests, how many client accounts the service had at work on average while the clients
// were read (the fan-out's efficiency: --concurrency is the most it can be), per 100 ms, and the
// time spent at each count.
//
//   node scripts/bench-timeline.mjs health --json
//   RUNS=3 node scripts/bench-timeline.mjs deliverability --json      (after one warm-up run)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startSandbox } = createRequire(import.meta.url)(path.join(root, 'dist/sandbox.cjs'));
const args = process.argv.slice(2);
const log = [];
const sandbox = await startSandbox({
  seed: { companies: 300 },
  latencyMs: 20,
  rttMs: 30,
  onRequest: (entry) => log.push(entry),
});
const configDir = mkdtempSync(path.join(os.tmpdir(), 'agency-timeline-'));
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  AGENCY_CONFIG_DIR: configDir,
  AGENCY_API_KEY: sandbox.hqKey,
  AGENCY_BASE_URL: sandbox.baseUrl,
};
try {
  for (let run = 0; run <= Number(process.env.RUNS ?? 1); run++) {
    log.length = 0;
    const t0 = performance.timeOrigin + performance.now();
    const child = spawn(process.execPath, [path.join(root, 'bin/agency.js'), ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (text) => {
      stderr += text;
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    const total = performance.timeOrigin + performance.now() - t0;
    if (code !== 0 && code !== 7) throw new Error(`exit ${code}: ${stderr}`);
    if (run > 0) report(total, (t) => (t - t0).toFixed(0));
  }
} finally {
  await sandbox.close();
  rmSync(configDir, { recursive: true, force: true });
}

function report(total, at) {
  const hq = log.filter((e) => e.account.startsWith('hq:'));
  const clients = log.filter((e) => e.account.startsWith('company:') && e.servedFrom !== undefined);
  const refused = log.filter((e) => e.status === 429).length;
  console.log(
    `${args.join(' ')}: ${total.toFixed(0)} ms, ${log.length} requests (HQ ${hq.length}), 429s ${refused}`,
  );
  const slot = (e) => `${at(e.startedAt)}[${at(e.servedFrom)}-${at(e.servedTo)}]`;
  console.log(
    `  HQ, arrival[slot] in ms from the start: ${hq.map((e) => `${e.path.replace(/^\/rest/, '')} ${slot(e)}`).join(', ')}`,
  );
  if (clients.length === 0) return;
  const from = Math.min(...clients.map((e) => e.servedFrom));
  const to = Math.max(...clients.map((e) => e.servedTo));
  const served = clients.reduce((sum, e) => sum + e.servedTo - e.servedFrom, 0);
  console.log(
    `  clients: ${clients.length} reads, ${(served / clients.length).toFixed(1)} ms of service each, from ${at(from)} to ${at(to)} ms: ${(served / (to - from)).toFixed(2)} accounts at work on average`,
  );
  const buckets = [];
  for (const e of clients) {
    for (let t = e.servedFrom; t < e.servedTo; ) {
      const bucket = Math.floor((t - from) / 100);
      const end = Math.min(e.servedTo, from + (bucket + 1) * 100);
      buckets[bucket] = (buckets[bucket] ?? 0) + end - t;
      t = end;
    }
  }
  console.log(
    `  accounts at work per 100 ms: ${Array.from(buckets, (ms) => ((ms ?? 0) / 100).toFixed(1)).join(' ')}`,
  );
  const edges = clients
    .flatMap((e) => [
      [e.servedFrom, 1],
      [e.servedTo, -1],
    ])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const timeAt = new Map();
  let open = 0;
  let previous = from;
  for (const [t, step] of edges) {
    timeAt.set(open, (timeAt.get(open) ?? 0) + t - previous);
    open += step;
    previous = t;
  }
  const counts = [...timeAt].sort((a, b) => a[0] - b[0]);
  console.log(
    `  ms spent with N accounts at work: ${counts.map(([n, ms]) => `${n}: ${ms.toFixed(0)}`).join(', ')}`,
  );
}
