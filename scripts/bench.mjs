#!/usr/bin/env node
// `npm run bench`: how much an `agency` process costs next to bare Node doing the same work.
//
// Each case runs its command and its baseline alternately (A B B A ...) in the same run, after a
// discarded warm-up, so that a machine that speeds up or slows down affects both sides alike; the
// ratios count, not the absolute times. Every process gets the same clean
// environment (PATH, HOME, LANG and the sandbox's key and URL): NODE_EXTRA_CA_CERTS, for one, adds
// tens of milliseconds to every Node process and would hide the differences (--inherit-env keeps the
// caller's environment). Peak memory (max RSS, from the kernel via GNU time's %M) comes from separate
// runs, so that the timed runs are plain `node ...` processes. The sandbox (our API simulator) runs in
// processes of its own, started here with `agency sandbox`.
//
// Options: --quick (few runs, for a smoke test), --runs N (start-up cases), --only a,b (case ids:
// version, help, one-request, pages, pages-rtt, inventory-rtt, deliverability-rtt, health-rtt,
// report-100, report-1000, memory, keys, table, keyring), --bin FILE (the CLI
// entry to measure, default bin/agency.js), --inherit-env, --out FILE (default .bench/results.json).
// The -rtt cases put a network round trip in front of the sandbox (scripts/bench-network.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportCases } from './bench-campaign-reports.mjs';
import { compare, keysCase, memoryCase, pagesCase, sameRequest, tableCase } from './bench-cases.mjs';
import { fleetHealthNetworkCases } from './bench-health.mjs';
import { keyringCases } from './bench-keyring.mjs';
import { curlCase, inventoryNetworkCase, pagesNetworkCase, RTT_MS, SERVICE_MS } from './bench-network.mjs';
import { fmtMs, machine, median, printTable, warnIfBusy } from './bench-report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = parseArgs(process.argv.slice(2));
const NODE = process.execPath;
const BIN = path.resolve(args.bin ?? path.join(root, 'bin/agency.js'));
const QUICK = args.quick === true;
const STARTUP_RUNS = Number(args.runs ?? (QUICK ? 5 : 41));
const PAGES_RUNS = QUICK ? 2 : 5;
const LONG_RUNS = QUICK ? 1 : 3;
const MEM_RUNS = QUICK ? 1 : 3;
const LATENCY_MS = 20;
const PAGES = 100;
const INVENTORY_COMPANIES = 300;
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'agency-bench-'));
const configDir = path.join(tmp, 'config');
mkdirSync(configDir);

// Peak RSS as the kernel counts it for the whole process, teardown included (wait4's ru_maxrss, which
// GNU time prints as %M). Without GNU time, a --require preload reads getrusage in the 'exit' event,
// which misses what happens after it (e.g. V8 finishing background compiles), so it can read low.
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((file) => existsSync(file) && isGnuTime(file));
const RSS_PRELOAD = path.join(tmp, 'maxrss.cjs');
writeFileSync(
  RSS_PRELOAD,
  `'use strict';
process.on('exit', () => {
  require('node:fs').appendFileSync(process.env.BENCH_RSS_FILE, process.resourceUsage().maxRSS + '\\n');
});
`,
);

// The baseline for one request: the same GET with the same headers, the body printed as is.
const HTTP_ONE = path.join(tmp, 'http-one.cjs');
writeFileSync(
  HTTP_ONE,
  `'use strict';
const http = require('node:http');
const headers = { 'x-api-key': process.env.AGENCY_API_KEY, accept: 'application/json', 'user-agent': 'agency-cli/${version}' };
http.get(process.env.AGENCY_BASE_URL + '/v2/agency/companies?page=1', { headers }, (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
});
`,
);

// A reference for the 100 pages: bare node:http walking the pages on one kept-alive connection.
const HTTP_PAGES = path.join(tmp, 'http-pages.cjs');
writeFileSync(
  HTTP_PAGES,
  `'use strict';
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const headers = { 'x-api-key': process.env.AGENCY_API_KEY, accept: 'application/json', 'user-agent': 'agency-cli/${version}' };
const get = (page) => new Promise((resolve, reject) => {
  http.get(process.env.AGENCY_BASE_URL + '/v2/agency/companies?page=' + page, { headers, agent }, (res) => {
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks))));
  }).on('error', reject);
});
(async () => {
  const all = [];
  for (let page = 1; ; page++) {
    const body = await get(page);
    all.push(...body.content);
    if (body.content.length === 0 || body.pagination_data.current_page_number >= body.pagination_data.total_pages) break;
  }
  agent.destroy();
  process.stdout.write(JSON.stringify(all, null, 2) + '\\n');
})();
`,
);

const sandboxes = [];
const results = {
  machine: machine(),
  bin: path.relative(root, BIN),
  quick: QUICK,
  environment: args['inherit-env'] ? 'inherited' : 'clean',
  peakMemory: GNU_TIME ? `${GNU_TIME} %M` : 'getrusage at exit (preload)',
  cases: [],
};

// What the cases in bench-cases.mjs and bench-network.mjs need from here.
const b = {
  ...{ BIN, HTTP_PAGES, PAGES, PAGES_RUNS, LONG_RUNS, MEM_RUNS, LATENCY_MS, tmp },
  ...{ run, run1, runWithInput, runCommand, which, maxRss, readRss, stats, cliEnv, median, fmtMs },
};

try {
  warnIfBusy();
  const [small, paged, big] = await Promise.all([
    startSandbox({ companies: 50 }),
    startSandbox({ companies: 50 * PAGES, latency: LATENCY_MS }),
    startSandbox({ companies: 10_000 }),
  ]);
  const env = (sandbox) => cliEnv(sandbox);
  const agency = (...argv) => [BIN, ...argv];

  if (wanted('version')) {
    record(
      compare(b, {
        id: 'version',
        title: '`agency --version`',
        subject: { argv: agency('--version'), env: env(small) },
        baselineTitle: '`node -e 0`',
        baseline: { argv: ['-e', '0'], env: env(small) },
        runs: STARTUP_RUNS,
        target: 1.15,
        check: (out) => out.trim() === version,
      }),
    );
  }
  if (wanted('help')) {
    record(
      compare(b, {
        id: 'help',
        title: '`agency --help`',
        subject: { argv: agency('--help'), env: env(small) },
        baselineTitle: '`node -e 0`',
        baseline: { argv: ['-e', '0'], env: env(small) },
        runs: STARTUP_RUNS,
        target: 1.15,
        check: (out) => out.includes('Usage: agency'),
      }),
    );
  }
  let oneRequest;
  if (wanted('one-request') || wanted('pages')) {
    const subject = { argv: agency('companies', 'list', '--json'), env: env(small) };
    const baseline = { argv: [HTTP_ONE], env: env(small) };
    await sameRequest(b, small, subject, baseline);
    oneRequest = compare(b, {
      id: 'one-request',
      title: '`agency companies list --json`, 1 page (50 companies)',
      subject,
      baselineTitle: 'node:http script, same GET and headers',
      baseline,
      runs: STARTUP_RUNS,
      target: 1.35,
      check: (out) => JSON.parse(out).length === 50,
      baselineCheck: (out) => JSON.parse(out).content.length === 50,
    });
    const curl = curlCase(b, small, version, Math.min(STARTUP_RUNS, 21));
    if (curl) {
      oneRequest.reference = {
        title: '`curl -sS` doing the same GET (no target)',
        ...curl,
        ratio: oneRequest.subject.median / curl.median,
      };
    }
    if (wanted('one-request')) record(oneRequest);
  }
  if (wanted('pages')) record(await pagesCase(b, paged, oneRequest));
  if (wanted('pages-rtt')) {
    const networked = await startSandbox({ companies: 50 * PAGES, latency: SERVICE_MS, rtt: RTT_MS });
    record(await pagesNetworkCase(b, networked, PAGES));
    await networked.stop();
  }
  if (['inventory-rtt', 'deliverability-rtt', 'health-rtt'].some(wanted)) {
    const networked = await startSandbox({
      companies: INVENTORY_COMPANIES,
      latency: SERVICE_MS,
      rtt: RTT_MS,
    });
    if (wanted('inventory-rtt')) record(await inventoryNetworkCase(b, networked, INVENTORY_COMPANIES));
    for (const result of await fleetHealthNetworkCases(b, networked, wanted)) record(result);
    await networked.stop();
  }
  for (const result of await reportCases(b, startSandbox, wanted)) record(result);
  if (wanted('memory')) record(await memoryCase(b, big));
  if (wanted('keys')) record(await keysCase(b, big));
  if (wanted('table')) record(tableCase(b, small, STARTUP_RUNS));
  if (wanted('keyring')) for (const result of await keyringCases(b, small, STARTUP_RUNS)) record(result);

  printTable(results.cases, results, STARTUP_RUNS);
  const out = path.resolve(args.out ?? path.join(root, '.bench/results.json'));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nAll samples: ${path.relative(process.cwd(), out)}`);
} finally {
  await Promise.all(sandboxes.map((s) => s.stop()));
  rmSync(tmp, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * One run: wall time from spawn to exit, in milliseconds. With rssFile, the peak RSS (KiB) is appended
 * to that file, and the time includes GNU time's own fork (such runs are not used for time ratios).
 */
/** `exitCodes`: the exits that are a success (`health` exits 7 when it finds problems). */
function run(argv, env, check, { rssFile, exitCodes = [0] } = {}) {
  let command = NODE;
  let commandArgs = argv;
  let childEnv = env;
  if (rssFile && GNU_TIME) {
    command = GNU_TIME;
    commandArgs = ['-f', '%M', '-a', '-o', rssFile, NODE, ...argv];
  } else if (rssFile) {
    commandArgs = ['--require', RSS_PRELOAD, ...argv];
    childEnv = { ...env, BENCH_RSS_FILE: rssFile };
  }
  const started = process.hrtime.bigint();
  const result = spawnSync(command, commandArgs, {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.error) throw result.error;
  const stdout = String(result.stdout);
  if (!exitCodes.includes(result.status) || (check && !check(stdout))) {
    throw new Error(
      `node ${argv.join(' ')} failed (exit ${result.status}):\n${String(result.stderr).slice(0, 2000)}\n${stdout.slice(0, 500)}`,
    );
  }
  return ms;
}

/** Another program (curl) with a clean environment: wall time in milliseconds. */
function runCommand(command, argv, check) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 || (check && !check(String(result.stdout)))) {
    throw new Error(`${command} ${argv.join(' ')} failed (exit ${result.status}): ${String(result.stderr)}`);
  }
  return ms;
}

function which(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

function run1(argv, env) {
  return runWithInput(argv, env, undefined);
}

function runWithInput(argv, env, input) {
  const result = spawnSync(NODE, argv, { env, input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`node ${argv.join(' ')} failed: ${result.stderr}`);
  return String(result.stdout);
}

/** Median peak RSS (KiB) of `count` runs, measured by the preload. */
function maxRss(argv, env, count) {
  const file = path.join(tmp, `rss-${Math.random().toString(36).slice(2)}`);
  for (let i = 0; i < count; i++) run(argv, env, undefined, { rssFile: file });
  return median(readRss(file));
}

function readRss(file) {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}

function isGnuTime(file) {
  const result = spawnSync(file, ['-f', '%M', 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return result.status === 0 && /^\d+\s*$/.test(String(result.stderr));
}

function cliEnv(sandbox) {
  const env = {};
  if (args['inherit-env']) {
    for (const [name, value] of Object.entries(process.env)) {
      if (!name.startsWith('AGENCY_') && !['NO_COLOR', 'FORCE_COLOR'].includes(name)) env[name] = value;
    }
  } else {
    // What a clean shell would have: no colour, agency or Node settings from the caller's environment.
    for (const name of ['PATH', 'HOME', 'LANG', 'TMPDIR'])
      if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return {
    ...env,
    AGENCY_CONFIG_DIR: configDir,
    // health and deliverability record their runs (history.db): in the bench's own directory.
    AGENCY_STATE_DIR: path.join(tmp, 'state'),
    AGENCY_API_KEY: sandbox.hqKey,
    AGENCY_BASE_URL: sandbox.baseUrl,
  };
}

/** `agency sandbox` in a process of its own; the first stdout line says where it listens. */
function startSandbox({ companies, latency = 0, rtt = 0, reportMs }) {
  const argv = [path.join(root, 'bin/agency.js'), 'sandbox', '--port', '0', '--json', '--no-save-profile'];
  argv.push('--companies', String(companies), '--latency', String(latency));
  if (rtt > 0) argv.push('--rtt', String(rtt));
  if (reportMs !== undefined) argv.push('--report-ms', String(reportMs));
  const child = spawn(NODE, argv, {
    env: { PATH: process.env.PATH, AGENCY_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const sandbox = {
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  sandboxes.push(sandbox);
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      buffer += text;
      const newline = buffer.indexOf('\n');
      if (newline < 0 || sandbox.baseUrl) return;
      const info = JSON.parse(buffer.slice(0, newline));
      Object.assign(sandbox, {
        baseUrl: info.base_url,
        hqKey: info.hq_key,
        url: info.base_url.replace(/\/rest$/, ''),
      });
      resolve(sandbox);
    });
    child.once('exit', (code) =>
      reject(new Error(`agency sandbox exited with ${code} before it was ready:\n${stderr}`)),
    );
  });
}

/** GET /_sandbox/stats on a connection of its own (counted in the stats it answers). */
function stats(sandbox) {
  return new Promise((resolve, reject) => {
    http
      .get(`${sandbox.url}/_sandbox/stats`, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (text) => {
          body += text;
        });
        res.on('end', () => resolve(JSON.parse(body)));
      })
      .on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// Reporting

function record(result) {
  results.cases.push(result);
  const { subject, baseline } = result;
  const base = baseline.median === undefined ? '' : ` vs ${fmtMs(baseline.median)}`;
  const ratio = result.ratio === undefined ? '' : `  ratio ${result.ratio.toFixed(2)}`;
  console.error(`  ${result.id}: ${fmtMs(subject.median)}${base}${ratio}`);
}

function wanted(id) {
  return !args.only || args.only.split(',').includes(id);
}

function parseArgs(argv) {
  const parsed = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'quick') parsed.quick = true;
    else if (name === 'inherit-env') parsed[name] = true;
    else if (['runs', 'only', 'bin', 'out'].includes(name)) parsed[name] = argv[++i];
    else throw new Error(`unknown option ${argv[i]}; see the comment at the top of scripts/bench.mjs`);
  }
  return parsed;
}
