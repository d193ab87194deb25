// The bench's report: the table, the notes under it, and the machine it ran on.
import os from 'node:os';

export function printTable(cases, results, startupRuns) {
  const rows = [['case', 'agency', 'baseline', 'baseline', 'ratio', 'target', 'peak RSS', 'baseline RSS']];
  for (const c of cases) {
    const ok = c.target === undefined ? '' : c.ratio <= c.target ? ' ok' : ' MISSED';
    rows.push([
      c.id,
      fmtMs(c.subject.median),
      c.baselineTitle.replace(/`/g, ''),
      c.baseline.median === undefined ? '' : fmtMs(c.baseline.median),
      c.ratio.toFixed(2),
      c.target === undefined ? '' : `<= ${c.target.toFixed(2)}${ok}`,
      fmtMiB(c.subject.maxRssKiB),
      fmtMiB(c.baseline.maxRssKiB),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log('');
  for (const [i, row] of rows.entries()) {
    console.log(
      row
        .map((cell, j) => cell.padEnd(widths[j]))
        .join('  ')
        .trimEnd(),
    );
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  console.log('');
  for (const c of cases) {
    if (c.ratioNote) console.log(`${c.id}: ratio = ${c.ratioNote}`);
    if (c.connections)
      console.log(`${c.id}: connections the sandbox accepted per run: ${c.connections.join(', ')}`);
    if (c.reference)
      console.log(
        `${c.id}: ${c.reference.title}: ${fmtMs(c.reference.median)} (agency / that = ${c.reference.ratio.toFixed(2)})`,
      );
    if (c.note) console.log(`${c.id}: ${c.note}`);
    if (c.rejected429 !== undefined) console.log(`${c.id}: requests answered 429: ${c.rejected429}`);
  }
  const m = results.machine;
  console.log(
    `\n${m.cpu} × ${m.cores}, ${m.memGiB} GiB, ${m.os}, Node ${m.node}; medians of ${startupRuns} start-up runs.`,
  );
}

export function machine() {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.versions.node,
    date: new Date().toISOString(),
    loadavg: os.loadavg(),
  };
}

export function warnIfBusy() {
  const [load] = os.loadavg();
  if (load > 0.5 * os.cpus().length) {
    console.error(
      `note: load average is ${load.toFixed(2)}; other work on this machine makes the numbers noisy.`,
    );
  }
}

export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function fmtMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

export function fmtMiB(kib) {
  return kib === undefined ? '' : `${(kib / 1024).toFixed(1)} MiB`;
}
