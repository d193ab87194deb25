// Bench cases of `agency report`: 100 and 1,000 clients on a networked sandbox (`--rtt 30 --latency 20`)
// whose campaign reports take REPORT_MS to be ready, each report's time spread evenly over that range
// (`--report-ms MIN-MAX`: a fixed time would reward or punish where the polls happen to fall). Against its floor: what no client can
// do without, one start-up (the one-page run on the same network) and, per client, the report asked for
// (one request: a round trip and the service's time), its preparation, and one read of it once ready,
// `concurrency` clients at once. The polls before the ready one, and the wait between the report being
// ready and the poll that finds it (the schedule the tool keeps: 0.2 s, then a tenth of the time
// waited so far), are the tool's cost and count against it. Each case fails on any 429. Peak memory at both
// sizes gives the memory per client (the report is held whole for --json). Used by bench.mjs.
import { hqCount, RTT_MS, SERVICE_MS } from './bench-network.mjs';

/** How long the sandbox takes to prepare each report: spread over 1–3 s, 2 s on average. */
export const REPORT_MS = { min: 1_000, max: 3_000 };
const MEAN_REPORT_MS = (REPORT_MS.min + REPORT_MS.max) / 2;

/** Clients at once: report's default, and more for the 1,000 (each client is an account of its own). */
const CASES = [
  { id: 'report-100', companies: 100, concurrency: 8 },
  { id: 'report-1000', companies: 1_000, concurrency: 32 },
];

export async function reportCases(b, startSandbox, wanted) {
  const results = [];
  const memory = [];
  for (const spec of CASES) {
    if (!wanted(spec.id)) continue;
    const sandbox = await startSandbox({
      companies: spec.companies,
      latency: SERVICE_MS,
      rtt: RTT_MS,
      reportMs: `${REPORT_MS.min}-${REPORT_MS.max}`,
    });
    try {
      const result = await reportCase(b, sandbox, spec);
      results.push(result);
      memory.push(result);
    } finally {
      await sandbox.stop();
    }
  }
  if (memory.length === 2) {
    const [small, large] = memory;
    const perClient = (large.subject.maxRssKiB - small.subject.maxRssKiB) / (large.clients - small.clients);
    large.note += `; peak RSS ${Math.round(small.subject.maxRssKiB / 1024)} MiB at ${small.clients} clients, ${Math.round(large.subject.maxRssKiB / 1024)} MiB at ${large.clients}: ${perClient.toFixed(1)} KiB per client`;
    large.memoryPerClientKiB = perClient;
  }
  return results;
}

async function reportCase(b, sandbox, { id, concurrency }) {
  const env = b.cliEnv(sandbox);
  const argv = [b.BIN, 'report', '--by', 'client', '--json', '--concurrency', String(concurrency)];
  let clients = 0;
  const check = (out) => {
    const report = JSON.parse(out);
    clients = report.clients.length;
    return clients > 0 && report.failed.length === 0;
  };
  const one = [b.BIN, 'companies', 'list', '--json', '--page', '1'];
  const checkOne = (out) => JSON.parse(out).length > 0;
  const runs = id === 'report-100' ? b.LONG_RUNS : 1;
  // A warm-up run, but not of the longest case (its one timed run follows the memory run's).
  if (runs > 1) b.run(argv, env, check);
  const totals = [];
  const starts = [];
  const reads = [];
  let rejected = 0;
  for (let i = 0; i < runs; i++) {
    const s0 = await b.stats(sandbox);
    totals.push(b.run(argv, env, check));
    const s1 = await b.stats(sandbox);
    rejected += s1.rejected429 - s0.rejected429;
    reads.push((s1.requests - s0.requests - (hqCount(s1) - hqCount(s0))) / clients);
    starts.push(b.run(one, env, checkOne));
  }
  if (rejected !== 0) throw new Error(`${id}: the sandbox answered ${rejected} requests with 429`);
  const rssFile = `${b.tmp}/rss-${id}`;
  b.run(argv, env, check, { rssFile });
  const [maxRssKiB] = b.readRss(rssFile);
  const startup = b.median(starts);
  // Per client: the report asked for and read once ready (two requests), and its preparation.
  const perClient = 2 * (RTT_MS + SERVICE_MS) + MEAN_REPORT_MS;
  const floor = startup + (clients * perClient) / concurrency;
  const total = b.median(totals);
  return {
    id,
    title: `\`agency report --by client --json\`, ${clients} clients (--concurrency ${concurrency}), reports ready after ${REPORT_MS.min}–${REPORT_MS.max} ms`,
    subject: { median: total, samples: totals, maxRssKiB },
    baselineTitle: `one-page run (${b.fmtMs(startup)}) + ${clients} × (${MEAN_REPORT_MS} ms + 2 requests) / ${concurrency}`,
    baseline: { median: floor, startup: { median: startup, samples: starts } },
    ratio: total / floor,
    target: 1.15,
    rejected429: rejected,
    clients,
    note: `requests per client: ${b.median(reads).toFixed(1)} (the report, then its polls)`,
  };
}
