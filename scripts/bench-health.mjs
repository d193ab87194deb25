// Bench cases of the fleet health commands, on the networked sandbox of `inventory-rtt`
// (`--rtt 30 --latency 20`, 300 companies): each against its floor, what no client can do without: one
// start-up (the one-page run on the same network: the process, and the first page's round trip and
// service time), the round trip that the next requests must make once that page is in, and the
// service's own work under the per-account rule (one request at a time per account, SERVICE_MS each).
// Each case fails on any 429. The same floor with the service time the sandbox really took
// (`servedMsByAccount` of its stats: its timers fire late on a loaded machine) is reported beside it.
// The ratio is the median of the ratios of neighbouring runs (each run against the one-page run after
// it), which holds when the machine's load changes during the case. Used by bench.mjs.
import { hqCount, RTT_MS, SERVICE_MS } from './bench-network.mjs';

/** `health`'s default --concurrency: client accounts read at once. */
const HEALTH_CONCURRENCY = 8;

export async function fleetHealthNetworkCases(b, sandbox, wanted) {
  const env = b.cliEnv(sandbox);
  const one = [b.BIN, 'companies', 'list', '--json', '--page', '1'];
  const start = { argv: one, env, check: (out) => JSON.parse(out).length === 50 };
  const cases = [];
  if (wanted('deliverability-rtt')) {
    const argv = [b.BIN, 'deliverability', '--json'];
    const check = (out) => JSON.parse(out).length > 0;
    // A run takes well under a second: more of them, for a steadier median.
    const m = await measure(b, sandbox, { argv, env, check }, start, b.PAGES_RUNS * 3);
    // Page 1 says how many pages there are (it is the start-up run's request); the rest go out a
    // round trip later and then keep the HQ account busy one after another.
    const pages = m.median('requests');
    const floors = m.runs.map((r) => r.start + RTT_MS + (r.requests - 1) * SERVICE_MS);
    const served = m.runs.map((r) => r.start + RTT_MS + (r.hqServed * (r.requests - 1)) / r.requests);
    cases.push(
      result(b, m, floors, served, {
        id: 'deliverability-rtt',
        title: `\`agency deliverability --json\`, ${pages} pages of 50 clients`,
        baselineTitle: `one-page run (${b.fmtMs(m.median('start'))}) + ${RTT_MS} ms round trip + ${pages - 1} × ${SERVICE_MS} ms`,
      }),
    );
  }
  if (wanted('health-rtt')) {
    const argv = [b.BIN, 'health', '--json'];
    let checked = 0;
    const check = (out) => {
      checked = JSON.parse(out).companies_checked;
      return checked > 0;
    };
    const m = await measure(b, sandbox, { argv, env, check, exitCodes: [0, 7] }, start, b.LONG_RUNS + 2);
    // Each page of the company list names its clients, so their reads start once the first page (the
    // start-up run's request) is in, a round trip before the service gets them; the other pages and
    // the deliverability listing go on the HQ account meanwhile. Then every client's three reads, one
    // at a time per account, HEALTH_CONCURRENCY accounts at once.
    const floors = m.runs.map(
      (r) => r.start + RTT_MS + ((r.requests - r.hq) * SERVICE_MS) / HEALTH_CONCURRENCY,
    );
    const served = m.runs.map((r) => r.start + RTT_MS + r.clientServed / HEALTH_CONCURRENCY);
    const clientRequests = m.median('requests') - m.median('hq');
    cases.push(
      result(b, m, floors, served, {
        id: 'health-rtt',
        title: `\`agency health --json\`, ${checked} active clients (--concurrency ${HEALTH_CONCURRENCY})`,
        baselineTitle: `one-page run (${b.fmtMs(m.median('start'))}) + ${RTT_MS} ms round trip + ${clientRequests} client requests × ${SERVICE_MS} ms / ${HEALTH_CONCURRENCY}`,
        hqRequests: m.median('hq'),
        clientRequests,
      }),
    );
  }
  return cases;
}

/** A case's result: medians, the ratio of each run to its floor (nominal and as served), their median. */
function result(b, m, floors, served, { id, title, baselineTitle, ...counts }) {
  const ratios = m.runs.map((r, i) => r.total / floors[i]);
  const servedRatios = m.runs.map((r, i) => r.total / served[i]);
  const perRequest = m.median('perRequest');
  const range = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
  return {
    id,
    title,
    subject: { median: m.median('total'), samples: m.runs.map((r) => r.total) },
    baselineTitle,
    baseline: {
      median: b.median(floors),
      samples: floors,
      ...counts,
      startup: { median: m.median('start'), samples: m.runs.map((r) => r.start) },
    },
    ratio: b.median(ratios),
    ratios,
    target: 1.1,
    rejected429: m.rejected,
    served: { floors: served, ratio: b.median(servedRatios), ratios: servedRatios, perRequestMs: perRequest },
    note:
      `ratio of each run ${range(ratios)}; with the sandbox's own service time (${perRequest.toFixed(1)} ms a ` +
      `request): ratio ${b.median(servedRatios).toFixed(2)} (${range(servedRatios)})`,
  };
}

/**
 * Subject and one-page runs alternately; per run: the times, the requests of the subject run (all, and
 * the HQ account's) and the service time the sandbox spent on them (HQ, clients).
 */
async function measure(b, sandbox, subject, start, count) {
  b.run(subject.argv, subject.env, subject.check, { exitCodes: subject.exitCodes }); // warm-up
  const runs = [];
  let rejected = 0;
  for (let i = 0; i < count; i++) {
    const s0 = await b.stats(sandbox);
    const total = b.run(subject.argv, subject.env, subject.check, { exitCodes: subject.exitCodes });
    const s1 = await b.stats(sandbox);
    rejected += s1.rejected429 - s0.rejected429;
    const requests = s1.requests - s0.requests;
    const hqServed = servedMs(s1, 'hq:') - servedMs(s0, 'hq:');
    const clientServed = servedMs(s1, 'company:') - servedMs(s0, 'company:');
    runs.push({
      total,
      requests,
      hq: hqCount(s1) - hqCount(s0),
      hqServed,
      clientServed,
      perRequest: (hqServed + clientServed) / requests,
      start: b.run(start.argv, start.env, start.check),
    });
  }
  if (rejected !== 0)
    throw new Error(`${subject.argv.slice(1, 2)}: the sandbox answered ${rejected} requests with 429`);
  return { runs, rejected, median: (field) => b.median(runs.map((r) => r[field])) };
}

/** Service time (ms) the sandbox spent on the accounts whose names start with `prefix`. */
function servedMs(stats, prefix) {
  return Object.entries(stats.servedMsByAccount ?? {})
    .filter(([account]) => account.startsWith(prefix))
    .reduce((sum, [, ms]) => sum + ms, 0);
}
