// Bench cases of the fleet health commands, on the networked sandbox of `inventory-rtt`
// (`--rtt 30 --latency 20`, 300 companies): each against the service's own work under the per-account
// rule (one request at a time per account, SERVICE_MS each), plus one start-up (the one-page run on
// the same network). Each case fails on any 429. Used by bench.mjs.
import { hqCount, SERVICE_MS } from './bench-network.mjs';

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
    // The listing's pages, one at a time on the HQ account: the first is the start-up run's request.
    const floor = m.startup + (m.requests - 1) * SERVICE_MS;
    cases.push({
      id: 'deliverability-rtt',
      title: `\`agency deliverability --json\`, ${m.requests} pages of 50 clients`,
      subject: { median: m.total, samples: m.totals },
      baselineTitle: `one-page run (${b.fmtMs(m.startup)}) + ${m.requests - 1} × ${SERVICE_MS} ms`,
      baseline: { median: floor, startup: { median: m.startup, samples: m.starts } },
      ratio: m.total / floor,
      target: 1.1,
      rejected429: m.rejected,
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
    // The clients' reads need the company list (pages of 50, on the HQ account) and nothing else: they
    // start once it is read, while the deliverability listing's pages go on the HQ account. Then every
    // client's three reads, one at a time per account, HEALTH_CONCURRENCY accounts at once.
    const companyPages = Math.ceil(checked / 50);
    const clientWork = (clientRequests * SERVICE_MS) / HEALTH_CONCURRENCY;
    const floor = m.startup + (companyPages - 1) * SERVICE_MS + clientWork;
    cases.push({
      id: 'health-rtt',
      title: `\`agency health --json\`, ${checked} active clients (--concurrency ${HEALTH_CONCURRENCY})`,
      subject: { median: m.total, samples: m.totals },
      baselineTitle: `one-page run (${b.fmtMs(m.startup)}) + ${companyPages - 1} company pages × ${SERVICE_MS} ms + ${clientRequests} client requests × ${SERVICE_MS} ms / ${HEALTH_CONCURRENCY}`,
      baseline: {
        median: floor,
        hqRequests: m.hq,
        clientRequests,
        startup: { median: m.startup, samples: m.starts },
      },
      ratio: m.total / floor,
      target: 1.1,
      rejected429: m.rejected,
    });
  }
  return cases;
}

/** Subject and one-page runs alternately; the requests of a subject run (all, and the HQ account's). */
async function measure(b, sandbox, subject, start) {
  b.run(subject.argv, subject.env, subject.check, { exitCodes: subject.exitCodes }); // warm-up
  const totals = [];
  const starts = [];
  const requests = [];
  const hq = [];
  let rejected = 0;
  for (let i = 0; i < b.LONG_RUNS; i++) {
    const s0 = await b.stats(sandbox);
    totals.push(b.run(subject.argv, subject.env, subject.check, { exitCodes: subject.exitCodes }));
    const s1 = await b.stats(sandbox);
    rejected += s1.rejected429 - s0.rejected429;
    requests.push(s1.requests - s0.requests);
    hq.push(hqCount(s1) - hqCount(s0));
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
    rejected,
  };
}
