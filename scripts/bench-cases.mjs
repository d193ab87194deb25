// The bench's own cases without a network (pages, memory, keys, table) and the A/B comparison of start-up
// cases. Each takes `b`, what bench.mjs shares (its constants, process runners and helpers).
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** 100 pages at 20 ms each: the total should be the latency floor plus one start-up. */
export async function pagesCase(b, sandbox, oneRequest) {
  const argv = [b.BIN, 'companies', 'list', '--json'];
  const env = b.cliEnv(sandbox);
  const check = (out) => JSON.parse(out).length === 50 * b.PAGES;
  const subject = [];
  const baseline = [];
  const connections = [];
  b.run(argv, env, check); // warm-up
  b.run([b.HTTP_PAGES], env, check);
  for (let i = 0; i < b.PAGES_RUNS; i++) {
    const before = await b.stats(sandbox);
    subject.push(b.run(argv, env, check));
    const after = await b.stats(sandbox);
    // Less the connection of the `after` request itself.
    connections.push(after.connections - before.connections - 1);
    if (after.requests - before.requests !== b.PAGES) {
      throw new Error(
        `expected ${b.PAGES} requests per run, the sandbox saw ${after.requests - before.requests}`,
      );
    }
    baseline.push(b.run([b.HTTP_PAGES], env, check));
  }
  const rss = b.maxRss(argv, env, Math.min(b.MEM_RUNS, 2));
  const startup = oneRequest.subject.median;
  const floor = b.PAGES * b.LATENCY_MS;
  const total = b.median(subject);
  return {
    id: 'pages',
    title: `\`agency companies list --json\`, ${50 * b.PAGES} companies (${b.PAGES} pages, ${b.LATENCY_MS} ms latency)`,
    subject: { median: total, samples: subject, maxRssKiB: rss },
    baselineTitle: `${b.PAGES} × ${b.LATENCY_MS} ms + one start-up (${b.fmtMs(startup)}, the one-request case)`,
    baseline: { median: floor + startup },
    // The target: total <= 1.10 × (100 × 20 ms) + one start-up, i.e. (total − start-up) / floor <= 1.10.
    ratio: (total - startup) / floor,
    ratioNote: '(total − start-up) / (100 × 20 ms)',
    target: 1.1,
    connections,
    reference: {
      title: `node:http walking the same ${b.PAGES} pages on one kept-alive connection`,
      median: b.median(baseline),
      samples: baseline,
      ratio: total / b.median(baseline),
    },
  };
}

/** Peak memory of listing 10,000 companies (200 pages) with --json. */
export async function memoryCase(b, sandbox) {
  const argv = [b.BIN, 'companies', 'list', '--json'];
  const env = b.cliEnv(sandbox);
  const check = (out) => JSON.parse(out).length === 10_000;
  b.run(argv, env, check); // warm-up
  const times = [];
  for (let i = 0; i < b.LONG_RUNS; i++) times.push(b.run(argv, env, check));
  const rssFile = path.join(b.tmp, 'rss-memory');
  for (let i = 0; i < b.MEM_RUNS; i++) b.run(argv, env, check, { rssFile });
  const rss = b.readRss(rssFile);
  const floorRss = b.maxRss(['-e', '0'], env, b.MEM_RUNS);
  return {
    id: 'memory',
    title: '`agency companies list --json`, 10,000 companies (200 pages)',
    subject: { median: b.median(times), samples: times, maxRssKiB: Math.max(...rss), rssSamples: rss },
    baselineTitle: '100 MiB peak RSS (`node -e 0` for scale)',
    baseline: { maxRssKiB: floorRss },
    ratio: Math.max(...rss) / 1024 / 100,
    ratioNote: 'peak RSS / 100 MiB',
    target: 1,
  };
}

/** One `keys create` over 100 companies against 100 `keys create` processes. */
export async function keysCase(b, sandbox) {
  const env = b.cliEnv(sandbox);
  const ids = JSON.parse(b.run1([b.BIN, 'companies', 'list', '--active', '--json', '--limit', '100'], env))
    .map((c) => String(c.id))
    .slice(0, 100);
  if (ids.length !== 100) throw new Error(`the sandbox has only ${ids.length} active companies`);
  const label = () => `bench-${Date.now()}`;
  const fleetCheck = (out) => out.trim().split('\n').length === 100;
  const fleet = () => b.run([b.BIN, 'keys', 'create', ...ids, '--label', label()], env, fleetCheck);
  const separate = () => {
    const l = label();
    let total = 0;
    for (const id of ids)
      total += b.run([b.BIN, 'keys', 'create', id, '--label', l], env, (out) => out.trim().length > 0);
    return total;
  };
  const fleetTimes = [];
  const separateTimes = [];
  for (let i = 0; i < b.LONG_RUNS; i++) {
    if (i % 2 === 0) {
      fleetTimes.push(fleet());
      separateTimes.push(separate());
    } else {
      separateTimes.push(separate());
      fleetTimes.push(fleet());
    }
  }
  const rssFile = path.join(b.tmp, 'rss-keys');
  b.run([b.BIN, 'keys', 'create', ...ids, '--label', label()], env, fleetCheck, { rssFile });
  const fleetMedian = b.median(fleetTimes);
  const separateMedian = b.median(separateTimes);
  return {
    id: 'keys',
    title: '100 keys by one `agency keys create <100 ids>`',
    subject: { median: fleetMedian, samples: fleetTimes, maxRssKiB: b.readRss(rssFile)[0] },
    baselineTitle: '100 separate `agency keys create <id>` processes',
    baseline: {
      median: separateMedian,
      samples: separateTimes,
      maxRssKiB: b.maxRss([b.BIN, 'keys', 'create', ids[0], '--label', label()], env, 1),
    },
    ratio: fleetMedian / separateMedian,
    target: undefined,
    note: `saves ${b.fmtMs(separateMedian - fleetMedian)} (${((1 - fleetMedian / separateMedian) * 100).toFixed(0)} %)`,
  };
}

/**
 * Runs subject and baseline alternately (A B B A ...). The ratio is the median of the ratios of each pair
 * of neighbouring runs, which holds up when the machine's load changes during the case; the ratio of the
 * medians is kept in the JSON too.
 */
export function compare(
  b,
  { id, title, subject, baselineTitle, baseline, runs, target, check, baselineCheck },
) {
  const ours = [];
  const theirs = [];
  b.run(subject.argv, subject.env, check); // warm-up: file cache, sandbox JIT
  b.run(baseline.argv, baseline.env, baselineCheck);
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      ours.push(b.run(subject.argv, subject.env, check));
      theirs.push(b.run(baseline.argv, baseline.env, baselineCheck));
    } else {
      theirs.push(b.run(baseline.argv, baseline.env, baselineCheck));
      ours.push(b.run(subject.argv, subject.env, check));
    }
  }
  return {
    id,
    title,
    subject: {
      median: b.median(ours),
      samples: ours,
      maxRssKiB: b.maxRss(subject.argv, subject.env, b.MEM_RUNS),
    },
    baselineTitle,
    baseline: {
      median: b.median(theirs),
      samples: theirs,
      maxRssKiB: b.maxRss(baseline.argv, baseline.env, b.MEM_RUNS),
    },
    ratio: b.median(ours.map((ms, i) => ms / theirs[i])),
    ratioOfMedians: b.median(ours) / b.median(theirs),
    target,
  };
}

/** The one-request case is only fair if both sides sent the same request. */
export async function sameRequest(b, sandbox, subject, baseline) {
  await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
  b.run(subject.argv, subject.env);
  b.run(baseline.argv, baseline.env);
  const requests = await (await fetch(`${sandbox.url}/_sandbox/requests`)).json();
  const [ours, theirs] = requests;
  const shape = (r) =>
    JSON.stringify({
      m: r.method,
      p: r.path,
      q: r.query,
      k: r.headers['x-api-key'],
      a: r.headers.accept,
      u: r.headers['user-agent'],
    });
  if (requests.length !== 2)
    throw new Error(`expected one request from each side, the sandbox saw ${requests.length}`);
  if (shape(ours) !== shape(theirs)) {
    throw new Error(
      `the baseline does not send the same request as agency:\n  ${shape(ours)}\n  ${shape(theirs)}`,
    );
  }
  await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
}

/**
 * What laying out a table costs: a list as a terminal of 80 columns gets it (`--columns all`: every
 * column shown, long names and owners wrapped, width traded between them) against the same list as
 * CSV. A preload makes stdout a terminal to the program while it stays a pipe here, so both sides
 * write to the same kind of file.
 */
export function tableCase(b, sandbox, runs) {
  const preload = path.join(b.tmp, 'stdout-terminal-80.cjs');
  writeFileSync(
    preload,
    "'use strict';\nObject.defineProperty(process.stdout, 'isTTY', { value: true });\nprocess.stdout.columns = 80;\n",
  );
  const argv = ['--require', preload, b.BIN, 'companies', 'list', '--columns', 'all'];
  const env = { ...b.cliEnv(sandbox), NO_COLOR: '1' };
  return compare(b, {
    id: 'table',
    title: '`agency companies list --columns all` on a terminal of 80 columns (50 rows, some wrapped)',
    subject: { argv, env },
    baselineTitle: 'the same with `--csv`',
    baseline: { argv: [...argv, '--csv'], env },
    runs,
    // 1.09-1.15 on 25 November (3-6 ms of a 65 ms run): the layout code runs once, cold.
    target: 1.15,
    check: (out) => out.startsWith('ID ') && out.split('\n').every((line) => line.length <= 80),
    baselineCheck: (out) => out.startsWith('id,'),
  });
}
