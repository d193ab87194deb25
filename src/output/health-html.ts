/**
 * `health --html <file>`: the report as one self-contained page. Inline CSS, charts drawn as inline
 * SVG, no script, and nothing loaded from anywhere else (no font, image, link or style sheet), so it
 * can be mailed, archived and opened offline. The problems come first, grouped by client; then each
 * metric of the period as a chart of every client against the previous period, then the numbers.
 * It prints well (print CSS) and reads on a phone (narrow layout; a long address or name breaks anywhere rather than widen the page).
 * It draws the report's values (src/reports/health.ts) and computes none.
 */
import type { DeliverabilityCounter, PeriodPair } from '../api/types.js';
import type { DeliverabilityRow } from '../reports/deliverability.js';
import {
  type HealthReport,
  type NotChecked,
  type Problem,
  type ResolvedProblem,
  SEVERITIES,
  type Severity,
} from '../reports/health.js';
import { percent, relativeChange } from './figures.js';
import { escapeHtml, htmlDocument } from './html.js';
import { NOUNS, plural } from './summary.js';
import { groupDigits } from './text.js';

/** "Not checked: Blue Harbor Dental Ltd 1007 — named, but inactive: …", or nothing. */
function notCheckedLine(clients: readonly NotChecked[]): string {
  if (clients.length === 0) return '';
  const which = clients
    .map((c) => `${escapeHtml(c.name)} <span class="id">${c.company_id}</span>`)
    .join(', ');
  return `<p class="notchecked">Not checked: ${which} — named, but inactive: the service refuses to read an inactive client's mailboxes, campaigns and webhooks.</p>\n`;
}

const COLORS: Record<Severity, string> = { critical: '#c0262d', warning: '#a15c00', info: '#1f5fa8' };

/**
 * A chart shows the clients with the highest values (the worst, for the bounce rate), or for the reply
 * rate those whose rate fell, the steepest fall first; the table has all.
 */
const CHART_ROWS = 25;

interface Metric {
  key: string;
  title: string;
  /** The pair of values to draw (numbers, or rates 0..1). */
  pair: (row: DeliverabilityRow) => [now: number | null, before: number | null];
  format: (value: number) => string;
  /** Lines drawn across the chart (Bounce Shield's default and the critical threshold). */
  marks?: 'bounce';
  /** Only the clients whose rate fell, by how much (the reply rate: a fall is what needs attention). */
  fell?: (row: DeliverabilityRow) => number | null;
}

const counter =
  (field: DeliverabilityCounter) =>
  (row: DeliverabilityRow): [number, number] => [row[field].current_period, row[field].previous_period];

const METRICS: readonly Metric[] = [
  { key: 'sent', title: 'Emails sent', pair: counter('emails_sent'), format: groupDigits },
  { key: 'delivered', title: 'Delivered', pair: counter('delivered_emails'), format: groupDigits },
  { key: 'opened', title: 'Opened', pair: counter('views'), format: groupDigits },
  { key: 'replied', title: 'Replied', pair: counter('replies'), format: groupDigits },
  {
    key: 'reply-rate',
    title: 'Reply rate that fell (replies / delivered)',
    pair: (row) => [row.reply_rate, row.reply_rate_previous],
    format: percent,
    fell: (row) => row.reply_rate_change,
  },
  {
    key: 'bounce-rate',
    title: 'Bounce rate (bounces / sent)',
    pair: (row) => [row.bounce_rate, row.bounce_rate_previous],
    format: percent,
    marks: 'bounce',
  },
];

const CSS = `
.interrupted,.notchecked{border-left:4px solid #c0262d;background:#fff;padding:10px 14px;margin:0 0 18px}
.notchecked{border-left-color:#a15c00}.notchecked .id{color:var(--muted)}
.summary{display:flex;flex-wrap:wrap;gap:10px;margin:0 0 8px;padding:0;list-style:none}
.summary li{background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px 14px;font-weight:600}
.summary .n{font-size:20px;margin-right:6px}
.critical{color:${COLORS.critical}}.warning{color:${COLORS.warning}}.info{color:${COLORS.info}}
tbody.client th{background:#f0f3f8;font-size:15px}
tbody.client th .id{color:var(--muted);font-weight:400;margin-left:6px}
.sev{display:inline-block;min-width:64px;font-weight:700;font-size:12px;text-transform:uppercase}
table.problems thead th,table.problems td:nth-child(-n+2){white-space:nowrap;overflow-wrap:normal}
.ok{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px}
.new{display:inline-block;margin-left:6px;padding:0 6px;border-radius:4px;background:#fde8e8;color:#9b1c1c;font-size:12px;font-weight:700;white-space:nowrap}
.since{color:var(--muted);font-size:12px;white-space:nowrap}
ul.resolved{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 14px 10px 32px}
ul.resolved li{margin:4px 0}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(440px,1fr));gap:16px}
figure.chart{margin:0;background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 14px;break-inside:avoid}
figcaption{font-weight:600;margin-bottom:6px}
.legend{font-weight:400;color:var(--muted);font-size:12px;margin-left:8px}
.legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:-1px}
.legend .key{white-space:nowrap}
.row{display:grid;grid-template-columns:minmax(90px,34%) 1fr 64px;gap:8px;align-items:center;font-size:12px;line-height:1.2}
.row .name{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.row svg{width:100%;height:14px;display:block}
.row .value{text-align:right;font-variant-numeric:tabular-nums}
.note{color:var(--muted);font-size:12px;margin:8px 0 0}
tbody.client.sev-critical th{border-left:4px solid ${COLORS.critical}}
tbody.client.sev-warning th{border-left:4px solid ${COLORS.warning}}
tbody.client.sev-info th{border-left:4px solid ${COLORS.info}}
table.numbers{margin-top:16px}
.up{color:#1d7a3a}.down{color:${COLORS.critical}}
@media (max-width:640px){
 main{padding:16px 12px 32px}h1{font-size:22px}
 .charts{grid-template-columns:1fr}
 table.problems thead{display:none}
 table.numbers th,table.numbers td{padding:6px}
 table.numbers th.num{white-space:normal}
 table.numbers td:first-child{overflow-wrap:anywhere}
 table.problems tr{display:block;padding:6px 0}
 table.problems td{display:block;border:0;padding:2px 12px}
 table.problems td:nth-child(-n+2){display:inline-block;padding-right:0}
 table.problems tbody.client tr,table.problems tbody.client th{display:block}
 .wide{display:none}
}
@media print{
 body{background:#fff;font-size:10.5pt}main{max-width:none;padding:0}
 .summary li,table,figure.chart,.ok{border-color:#bbb}
 h2{break-after:avoid}tbody.client{break-inside:avoid}
 .charts{display:block}figure.chart{margin:0 0 12px}
}
`;

/** A day and time as the page shows them: "2026-12-01 06:00 UTC". */
function when(iso: string): string {
  return `${iso.replace('T', ' ').slice(0, 16)} UTC`;
}

/** The history's mark of a problem: "new since …" ("new": the client was never checked), "since …". */
function memoryMark(problem: Problem, since: string | undefined): string {
  if (problem.new === undefined) return '';
  if (problem.new)
    return ` <span class="new">${since ? `new since ${escapeHtml(when(since))}` : 'new'}</span>`;
  return problem.first_seen
    ? ` <span class="since">since ${escapeHtml(when(problem.first_seen))}</span>`
    : '';
}

function resolvedSection(resolved: readonly ResolvedProblem[] | undefined): string {
  if (resolved === undefined) return '';
  if (resolved.length === 0)
    return '<h2>Resolved</h2>\n<p class="ok">Nothing resolved since the last run.</p>\n';
  const items = resolved
    .map(
      (p) =>
        `<li><strong>${escapeHtml(p.name)}</strong> <span class="id">${p.company_id}</span> ${escapeHtml(p.check)}: ${escapeHtml(p.detail)} <span class="since">(from ${escapeHtml(when(p.first_seen))} to ${escapeHtml(when(p.last_seen))})</span></li>`,
    )
    .join('');
  return `<h2>Resolved</h2>\n<ul class="resolved" id="resolved">${items}</ul>\n`;
}

function problemsSection(problems: readonly Problem[], since: string | undefined): string {
  if (problems.length === 0) return '<p class="ok">No problems found.</p>';
  const byClient = new Map<number, Problem[]>();
  for (const problem of problems) {
    const list = byClient.get(problem.company_id) ?? [];
    list.push(problem);
    byClient.set(problem.company_id, list);
  }
  const groups = [...byClient.values()].map((list) => {
    const [first] = list as [Problem];
    const rows = list
      .map(
        (p) =>
          `<tr><td><span class="sev ${p.severity}">${p.severity}</span></td><td>${escapeHtml(p.check)}</td><td>${escapeHtml(p.detail)}${memoryMark(p, since)}</td></tr>`,
      )
      .join('');
    // The first problem of a client is its worst (the list is sorted by severity).
    return `<tbody class="client sev-${first.severity}"><tr><th colspan="3">${escapeHtml(first.name)}<span class="id">${first.company_id}</span></th></tr></tbody><tbody>${rows}</tbody>`;
  });
  return `<table class="problems" id="problems"><thead><tr><th>Severity</th><th>Check</th><th>Detail</th></tr></thead>${groups.join('')}</table>`;
}

/** One bar pair: this period (filled) over the previous one (grey), on a shared scale. */
function bars(now: number | null, before: number | null, max: number, marks: readonly number[]): string {
  const width = (v: number | null) => (v === null || max === 0 ? 0 : Math.max(0, (v / max) * 100));
  const lines = marks
    .filter((mark) => mark <= max)
    .map(
      (mark) =>
        `<line x1="${width(mark)}%" x2="${width(mark)}%" y1="0" y2="14" stroke="#c0262d" stroke-dasharray="2 2"/>`,
    )
    .join('');
  return `<svg role="img" aria-hidden="true" preserveAspectRatio="none"><rect x="0" y="9" height="4" width="${width(before)}%" fill="#b9c3d3"/><rect x="0" y="1" height="8" width="${width(now)}%" fill="#2f6fdb"/>${lines}</svg>`;
}

/** The rows a chart draws, in order, and how many more there were. */
function charted(metric: Metric, rows: readonly DeliverabilityRow[]) {
  const { fell } = metric;
  const values = rows
    .filter((row) => fell === undefined || (fell(row) ?? 0) < 0)
    .map((row) => ({ row, pair: metric.pair(row), fall: fell?.(row) ?? 0 }));
  if (fell) values.sort((a, b) => a.fall - b.fall);
  else values.sort((a, b) => (b.pair[0] ?? -1) - (a.pair[0] ?? -1));
  const more = values.length - CHART_ROWS;
  return { values: values.slice(0, CHART_ROWS), more };
}

function chartNote(metric: Metric, shown: number, more: number): string {
  if (metric.fell && shown === 0) return '<p class="note">No client\'s reply rate fell.</p>';
  if (more <= 0) return '';
  const which = metric.fell
    ? `steepest falls of the ${CHART_ROWS + more} clients whose reply rate fell`
    : `highest of ${CHART_ROWS + more} clients`;
  return `<p class="note">The ${CHART_ROWS} ${which}; all are in the table below.</p>`;
}

function chart(metric: Metric, rows: readonly DeliverabilityRow[], bounceMarks: readonly number[]): string {
  const { values, more } = charted(metric, rows);
  const marks = metric.marks === 'bounce' ? bounceMarks : [];
  const max = Math.max(0, ...values.flatMap(({ pair }) => pair.map((v) => v ?? 0)), ...marks.slice(0, 1));
  const lines = values
    .map(({ row, pair: [now, before] }) => {
      const title = `${row.name}: ${now === null ? '—' : metric.format(now)} (previous period ${before === null ? '—' : metric.format(before)})`;
      return `<div class="row" title="${escapeHtml(title)}"><span class="name">${escapeHtml(row.name)}</span>${bars(now, before, max, marks)}<span class="value">${now === null ? '—' : escapeHtml(metric.format(now))}</span></div>`;
    })
    .join('');
  const legend =
    '<span class="legend"><span class="key"><i style="background:var(--now)"></i>this period</span> <span class="key"><i style="background:var(--before)"></i>previous</span></span>';
  return `<figure class="chart" data-metric="${metric.key}"><figcaption>${escapeHtml(metric.title)}${legend}</figcaption>${lines}${chartNote(metric, values.length, more)}</figure>`;
}

function changeCell(pair: PeriodPair): string {
  const text = relativeChange(pair);
  const cls = text.startsWith('+') || text === 'new' ? 'up' : text.startsWith('-') ? 'down' : '';
  return `<td class="num wide ${cls}">${escapeHtml(text)}</td>`;
}

function numbersTable(rows: readonly DeliverabilityRow[]): string {
  const body = rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.name)}</td><td class="num">${groupDigits(r.emails_sent.current_period)}</td>${changeCell(r.emails_sent)}<td class="num">${groupDigits(r.replies.current_period)}</td>${changeCell(r.replies)}<td class="num">${percent(r.reply_rate)}</td><td class="num">${percent(r.bounce_rate)}</td></tr>`,
    )
    .join('');
  return `<table class="numbers"><thead><tr><th>Client</th><th class="num">Sent</th><th class="num wide">Change</th><th class="num">Replied</th><th class="num wide">Change</th><th class="num">Reply rate</th><th class="num">Bounce rate</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** The page of a report (an interrupted one says at the top that it covers only some clients). */
export function renderHealthHtml(report: HealthReport, page: { title: string; generatedAt: Date }): string {
  const stopped = report.interrupted;
  const counts = SEVERITIES.map((severity) => {
    const n = report.counts[severity];
    const label = severity === 'warning' && n !== 1 ? 'warnings' : severity;
    return `<li class="${severity}"><span class="n">${n}</span>${label}</li>`;
  }).join('');
  const rows = report.deliverability;
  const charts = report.interrupted
    ? '<p class="ok">Not read: the run was interrupted.</p>'
    : rows.length
      ? `<div class="charts">${METRICS.map((metric) => chart(metric, rows, report.bounceMarks)).join('')}</div>${numbersTable(rows)}`
      : '<p class="ok">No client sent anything in this period.</p>';
  return htmlDocument(
    page.title,
    CSS,
    `<main>
<h1>${escapeHtml(page.title)}</h1>
<p class="meta">${escapeHtml(report.periodLabel)} · ${plural(report.companiesChecked, NOUNS.client)} checked · generated ${escapeHtml(page.generatedAt.toISOString().replace('T', ' ').slice(0, 16))} UTC</p>
${stopped ? `<p class="interrupted">Interrupted after ${stopped.clientsDone} ${escapeHtml(stopped.of)}: this page shows only the clients checked until then.</p>\n` : ''}${notCheckedLine(report.notChecked)}<ul class="summary">${counts}</ul>
<h2>Problems</h2>
${problemsSection(report.problems, report.memory?.since)}
${resolvedSection(report.memory?.resolved)}<h2>Deliverability against the previous period</h2>
${charts}
</main>`,
  );
}
