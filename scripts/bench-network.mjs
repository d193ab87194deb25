// Bench cases with a network in front of the service (`agency sandbox --rtt 30 --latency 20`): the
// round trip is outside the account's slot, the 20 ms of processing inside it, and the sandbox's real
// queue (1 processing + 6 waiting, 429 beyond) is on. Each case fails on any 429. Used by bench.mjs.

export const RTT_MS = 30;
export const SERVICE_MS = 20;

/**
 * 100 pages: total against one-page run + 99 × 20 ms (the service's own work after the first page).
 * The same listing one request at a time (AGENCY_MAX_IN_FLIGHT=1) is kept as the reference: what
 * pipelining pays.
 */
export async function pagesNetworkCase(b, sandbox, pages) {
  const env = b.cliEnv(sandbox);
  const all = [b.BIN, 'companies', 'list', '--json'];
  const one = [b.BIN, 'companies', 'list', '--json', '--page', '1'];
  const checkAll = (out) => JSON.parse(out).length === 50 * pages;
  const checkOne = (out) => JSON.parse(out).length === 50;
  const sequentialEnv = { ...env, AGENCY_MAX_IN_FLIGHT: '1' };
  b.run(all, env, checkAll); // warm-up
  b.run(one, env, checkOne);
  const totals = [];
  const onePage = [];
  const sequential = [];
  const before = await b.stats(sandbox);
  for (let i = 0; i < b.PAGES_RUNS; i++) {
    const s0 = await b.stats(sandbox);
    totals.push(b.run(all, env, checkAll));
    const s1 = await b.stats(sandbox);
    if (s1.requests - s0.requests !== pages) {
      throw new Error(`expected ${pages} requests per run, the sandbox saw ${s1.requests - s0.requests}`);
    }
    onePage.push(b.run(one, env, checkOne));
    onePage.push(b.run(one, env, checkOne));
    sequential.push(b.run(all, sequentialEnv, checkAll));
  }
  const after = await b.stats(sandbox);
  const rejected = after.rejected429 - before.rejected429;
  if (rejected !== 0) throw new Error(`pages-rtt: the sandbox answered ${rejected} requests with 429`);
  const startup = b.median(onePage);
  const floor = startup + (pages - 1) * SERVICE_MS;
  const total = b.median(totals);
  return {
    id: 'pages-rtt',
    title: `\`agency companies list --json\`, ${pages} pages, --rtt ${RTT_MS} --latency ${SERVICE_MS}`,
    subject: { median: total, samples: totals },
    baselineTitle: `one-page run (${b.fmtMs(startup)}) + ${pages - 1} × ${SERVICE_MS} ms`,
    baseline: { median: floor, onePage: { median: startup, samples: onePage } },
    ratio: total / floor,
    target: 1.15,
    rejected429: rejected,
    sequential: { median: b.median(sequential), samples: sequential, ratio: b.median(sequential) / floor },
    note: `one request at a time (AGENCY_MAX_IN_FLIGHT=1): ${b.fmtMs(b.median(sequential))}, ratio ${(b.median(sequential) / floor).toFixed(2)}`,
  };
}

/**
 * `inventory` over 300 companies: total against its model floor, the HQ account's requests × 20 ms
 * (the HQ account serves one request at a time; client accounts work in parallel) + one start-up
 * (the one-page run on this network).
 */
export async function inventoryNetworkCase(b, sandbox, companies) {
  const env = b.cliEnv(sandbox);
  const argv = [b.BIN, 'inventory', '--json'];
  const one = [b.BIN, 'companies', 'list', '--json', '--page', '1'];
  const check = (out) => JSON.parse(out).length === companies;
  b.run(argv, env, check); // warm-up
  const totals = [];
  const starts = [];
  const hqRequests = [];
  let rejected = 0;
  for (let i = 0; i < b.LONG_RUNS; i++) {
    const s0 = await b.stats(sandbox);
    totals.push(b.run(argv, env, check));
    const s1 = await b.stats(sandbox);
    rejected += s1.rejected429 - s0.rejected429;
    hqRequests.push(hqCount(s1) - hqCount(s0));
    starts.push(b.run(one, env, (out) => JSON.parse(out).length === 50));
  }
  if (rejected !== 0) throw new Error(`inventory-rtt: the sandbox answered ${rejected} requests with 429`);
  const startup = b.median(starts);
  const hq = b.median(hqRequests);
  const floor = hq * SERVICE_MS + startup;
  const total = b.median(totals);
  return {
    id: 'inventory-rtt',
    title: `\`agency inventory --json\`, ${companies} companies, --rtt ${RTT_MS} --latency ${SERVICE_MS}`,
    subject: { median: total, samples: totals },
    baselineTitle: `${hq} HQ requests × ${SERVICE_MS} ms + one start-up (${b.fmtMs(startup)})`,
    baseline: { median: floor, hqRequests, startup: { median: startup, samples: starts } },
    ratio: total / floor,
    target: 1.2,
    rejected429: rejected,
  };
}

/** Requests that reached the HQ account (the sandbox names it `hq:<agency id>`). */
export function hqCount(stats) {
  const byAccount = stats.requestsByAccount ?? {};
  return Object.entries(byAccount)
    .filter(([account]) => account.startsWith('hq:'))
    .reduce((sum, [, n]) => sum + n, 0);
}

/** `curl` doing the same GET as the one-request case: what operators use today (no target). */
export function curlCase(b, sandbox, version, runs) {
  const curl = b.which('curl');
  if (!curl) return undefined;
  const url = `${sandbox.baseUrl}/v2/agency/companies?page=1`;
  const argv = [
    '-sS',
    '-H',
    `x-api-key: ${sandbox.hqKey}`,
    '-H',
    'accept: application/json',
    '-H',
    `user-agent: agency-cli/${version}`,
    url,
  ];
  const check = (out) => JSON.parse(out).content.length === 50;
  b.runCommand(curl, argv, check); // warm-up
  const times = [];
  for (let i = 0; i < runs; i++) times.push(b.runCommand(curl, argv, check));
  return { median: b.median(times), samples: times };
}
