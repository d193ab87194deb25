// Bench cases of the fleet health commands, on the networked sandbox of `inventory-rtt`
// (`--rtt 30 --latency 20`, 300 companies): each against its floor, what no client can do without: one
// start-up (the one-page run on the same network: the process, and the first page's round trip and
// service time), the round trip that the next requests must make once that page is in, and the
// service's own work under the per-account rule (one request at a time per account, SERVICE_MS each).
// Each case fails on any 429. The same floor with the service time the sandbox really took
// (`servedMsByAccount` of its stats: its timers fire late on a loaded machine) is reported beside it.
// Used by bench.mjs.
import { hqCount, RTT_MS, SERVICE_MS } from './bench-network.mjs';

/** `health`'s default --concurrency: client accounts read at once. */
const HEALTH_CONCURRENCY = 8;

export async function fleetHealthNetworkCases(b, sandbox, wanted) {
  const env = b.cliEnv(sandbox);
  const one = [b.BIN, 'companies', 'list', '--json', '--page', '1'];
  const checkOne = (out) => JSON.parse(out).length === 50;
  const cases = [];
  if (wanted('deliverability-rtt')) {
    const argv = [b.BIN, 'deliverability', '--json'];
    const check = (out) => JSON.parse(out).length > 0;
    const m = await measure(b, sandbox, { argv, env, check }, { argv: one, env, check: checkOne });
    // Page 1 says how many pages there are (it is the start-up run's request); the rest go out a
    // round trip later and then keep the HQ account busy one after another.
    const rest = (m.requests - 1) / m.requests;
    const floor = m.startup + RTT_MS + (m.requests - 1) * SERVICE_MS;
    const servedFloor = m.startup + RTT_MS + m.hqServed * rest;
    cases.push({
      id: 'deliverability-rtt',
      title: `\`agency deliverability --json\`, ${m.requests} pages of 50 clients`,
      subject: { median: m.total, samples: m.totals },
      baselineTitle: `one-page run (${b.fmtMs(m.startup)}) + ${RTT_MS} ms round trip + ${m.requests - 1} × ${SERVICE_MS} ms`,
      baseline: { median: floor, startup: { median: m.startup, samples: m.starts } },
      ratio: m.total / floor,
      target: 1.1,
      rejected429: m.rejected,
      served: served(m, servedFloor),
      note: servedNote(b, m, servedFloor),
    });
  }
  if (wanted('health-rtt')) {
    const argv = [b.BIN, 'health', '--json'];
    let checked = 0;
    const check = (out) => {
      checked = JSON.parse(out).companies_checked;
      return checked > 0;
    };
    const m = await measure(
      b,
      sandbox,
      { argv, env, check, exitCodes: [0, 7] },
      { argv: one, env, check: checkOne },
    );
    const clientRequests = m.requests - m.hq;
    // Each page of the company list names its clients, so their reads start once the first page (the
    // start-up run's request) is in, a round trip before the service gets them; the other pages and
    // the deliverability listing go on the HQ account meanwhile. Then every client's three reads, one
    // at a time per account, HEALTH_CONCURRENCY accounts at once.
    const clientWork = (clientRequests * SERVICE_MS) / HEALTH_CONCURRENCY;
    const floor = m.startup + RTT_MS + clientWork;
    const servedFloor = m.startup + RTT_MS + m.clientServed / HEALTH_CONCURRENCY;
    cases.push({
      id: 'health-rtt',
      title: `\`agency health --json\`, ${checked} active clients (--concurrency ${HEALTH_CONCURRENCY})`,
      subject: { median: m.total, samples: m.totals },
      baselineTitle: `one-page run (${b.fmtMs(m.startup)}) + ${RTT_MS} ms round trip + ${clientRequests} client requests × ${SERVICE_MS} ms / ${HEALTH_CONCURRENCY}`,
      baseline: {
        median: floor,
        hqRequests: m.hq,
        clientRequests,
        startup: { median: m.startup, samples: m.starts },
      },
      ratio: m.total / floor,
      target: 1.1,
      rejected429: m.rejected,
      served: served(m, servedFloor),
      note: servedNote(b, m, servedFloor),
    });
  }
  return cases;
}

/** The floor with the service time the sandbox really took: what is the client's, whatever the load. */
function served(m, servedFloor) {
  return { floor: servedFloor, ratio: m.total / servedFloor, perRequestMs: m.perRequest };
}

function servedNote(b, m, servedFloor) {
  return `with the sandbox's own service time (${m.perRequest.toFixed(1)} ms a request): floor ${b.fmtMs(servedFloor)}, ratio ${(m.total / servedFloor).toFixed(2)}`;
}

/**
 * Subject and one-page runs alternately; the requests of a subject run (all, and the HQ account's)
 * and the service time the sandbox spent on them (HQ, clients).
 */
async function measure(b, sandbox, subject, start) {
  b.run(subject.argv, subject.env, subject.check, { exitCodes: subject.exitCodes }); // warm-up
  const totals = [];
  const starts = [];
  const requests = [];
  const hq = [];
  const hqServed = [];
  const clientServed = [];
  let rejected = 0;
  for (let i = 0; i < b.LONG_RUNS; i++) {
    const s0 = await b.stats(sandbox);
    totals.push(b.run(subject.argv, subject.env, subject.check, { exitCodes: subject.exitCodes }));
    const s1 = await b.stats(sandbox);
    rejected += s1.rejected429 - s0.rejected429;
    requests.push(s1.requests - s0.requests);
    hq.push(hqCount(s1) - hqCount(s0));
    hqServed.push(servedMs(s1, 'hq:') - servedMs(s0, 'hq:'));
    clientServed.push(servedMs(s1, 'company:') - servedMs(s0, 'company:'));
    starts.push(b.run(start.argv, start.env, start.check));
  }
  if (rejected !== 0)
    throw new Error(`${subject.argv.slice(1, 2)}: the sandbox answered ${rejected} requests with 429`);
  return {
    total: b.median(totals),
    totals,
    startup: b.median(starts),
    starts,
    requests: b.median(requests),
    hq: b.median(hq),
    hqServed: b.median(hqServed),
    clientServed: b.median(clientServed),
    perRequest: b.median(hqServed.map((ms, i) => (ms + clientServed[i]) / requests[i])),
    rejected,
  };
}

/** Service time (ms) the sandbox spent on the accounts whose names start with `prefix`. */
function servedMs(stats, prefix) {
  return Object.entries(stats.servedMsByAccount ?? {})
    .filter(([account]) => account.startsWith(prefix))
    .reduce((sum, [, ms]) => sum + ms, 0);
}
