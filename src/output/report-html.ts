/**
 * `report --html <file>`: campaign results as a page to send to a client (self-contained: see html.ts).
 * Each client's section names the client, the agency and the period, then tiles (contacted, delivered,
 * replied, interested, reply rate, bounce rate), a table of its campaigns and a chart of them. With
 * several clients, a summary of all comes first; printed, each client starts a page of its own, and
 * nothing of one client is on another's page. It draws the report's values (src/reports/campaigns.ts)
 * and computes none.
 */
import type {
  CampaignReport,
  CampaignResults,
  ClientResults,
  ClientTotals,
  FailedClient,
} from '../reports/campaigns.js';
import { percent } from './figures.js';
import { escapeHtml, htmlDocument } from './html.js';
import { NOUNS, plural } from './summary.js';
import { groupDigits } from './text.js';

export interface ReportPage {
  report: CampaignReport;
  /** The agency's name (GET /v1/me), when it could be read. */
  agency: string | undefined;
  generatedAt: Date;
  /** Set when Ctrl-C stopped the run: said at the top. */
  interrupted?: string | undefined;
}

const COLORS = { replied: '#2f6fdb', interested: '#1d7a3a' };

const CSS = `
.agency{color:var(--muted);font-weight:600;letter-spacing:.02em;margin:0 0 2px}
.interrupted,.failed{border-left:4px solid #c0262d;background:#fff;padding:10px 14px;margin:0 0 18px}
.tiles{display:grid;grid-template-columns:repeat(6,1fr);gap:10px;margin:0 0 8px;padding:0;list-style:none}
.tiles li{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.tiles .n{display:block;font-size:22px;font-weight:700;font-variant-numeric:tabular-nums}
.tiles .label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
td .status{display:block;color:var(--muted);font-size:12px}
figure.chart{margin:16px 0 0;background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 14px}
figcaption{font-weight:600;margin-bottom:6px}
.legend{font-weight:400;color:var(--muted);font-size:12px;margin-left:8px}
.legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:-1px}
.legend .key{white-space:nowrap}
.bar{display:grid;grid-template-columns:minmax(90px,34%) 1fr 120px;gap:8px;align-items:center;font-size:12px;line-height:1.2;margin:3px 0}
.bar .name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.bar svg{width:100%;height:14px;display:block}
.bar .value{text-align:right;font-variant-numeric:tabular-nums}
.empty{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px}
.note{color:var(--muted);font-size:12px;margin:8px 0 0}
@media (max-width:760px){.tiles{grid-template-columns:repeat(3,1fr)}}
@media (max-width:640px){
 main{padding:16px 12px 32px}h1{font-size:22px}
 .tiles{grid-template-columns:repeat(2,1fr)}
 .wide{display:none}
 th,td{padding:6px 8px}
 thead th{font-size:11px;letter-spacing:0;overflow-wrap:normal}
 th.num{white-space:normal}
 table.campaigns td:first-child{overflow-wrap:break-word}
 .bar{grid-template-columns:minmax(70px,30%) 1fr 76px}
}
@page{margin:14mm 12mm}
@media print{
 body{background:#fff;font-size:10pt}
 main{max-width:none;padding:0}
 section.client{break-before:page}
 main>section.client:first-child{break-before:auto}
 .tiles{grid-template-columns:repeat(6,1fr);gap:6px}
 .tiles li{padding:6px 8px;break-inside:avoid}
 .tiles .n{font-size:16px}.tiles .label{font-size:8pt}
 table{font-size:9pt}th,td{padding:4px 6px}thead th{font-size:7.5pt}
 thead{display:table-header-group}tr,.bar{break-inside:avoid}
 h2{break-after:avoid;margin:20px 0 8px}
 .tiles li,table,figure.chart,.empty{border-color:#bbb}
}
`;

function tile(value: string, label: string): string {
  return `<li><span class="n">${escapeHtml(value)}</span><span class="label">${escapeHtml(label)}</span></li>`;
}

function tiles(totals: ClientTotals): string {
  return `<ul class="tiles">${[
    tile(groupDigits(totals.contacted), 'contacted'),
    tile(groupDigits(totals.delivered), 'delivered'),
    tile(groupDigits(totals.replied), 'replied'),
    tile(groupDigits(totals.interested), 'interested'),
    tile(percent(totals.reply_rate) || '—', 'reply rate'),
    tile(percent(totals.bounce_rate) || '—', 'bounce rate'),
  ].join('')}</ul>`;
}

const num = (n: number, wide = false) => `<td class="num${wide ? ' wide' : ''}">${groupDigits(n)}</td>`;
const rateCell = (rate: number | null, wide = false) =>
  `<td class="num${wide ? ' wide' : ''}">${percent(rate) || '—'}</td>`;

function campaignTable(campaigns: readonly CampaignResults[]): string {
  const rows = campaigns
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.name)}<span class="status">${escapeHtml(c.status.toLowerCase())}</span></td>${num(c.contacted, true)}${num(c.delivered, true)}${num(c.opened, true)}${num(c.replied)}${num(c.interested)}${rateCell(c.reply_rate)}${rateCell(c.bounce_rate, true)}</tr>`,
    )
    .join('');
  return `<table class="campaigns"><thead><tr><th>Campaign</th><th class="num wide">Contacted</th><th class="num wide">Delivered</th><th class="num wide">Opened</th><th class="num">Replied</th><th class="num">Interested</th><th class="num">Reply rate</th><th class="num wide">Bounce rate</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** One bar pair on a shared scale: the replies, and within them the interested ones. */
function bars(replied: number, interested: number, max: number): string {
  const width = (v: number) => (max === 0 ? 0 : (v / max) * 100);
  return `<svg role="img" aria-hidden="true" preserveAspectRatio="none"><rect x="0" y="1" height="12" width="${width(replied)}%" fill="${COLORS.replied}"/><rect x="0" y="4" height="6" width="${width(interested)}%" fill="${COLORS.interested}"/></svg>`;
}

function campaignChart(campaigns: readonly CampaignResults[]): string {
  const max = Math.max(0, ...campaigns.map((c) => c.replied));
  const lines = campaigns
    .map(
      (c) =>
        `<div class="bar" title="${escapeHtml(`${c.name}: ${c.replied} replied, ${c.interested} interested`)}"><span class="name">${escapeHtml(c.name)}</span>${bars(c.replied, c.interested, max)}<span class="value">${groupDigits(c.replied)} · ${groupDigits(c.interested)}</span></div>`,
    )
    .join('');
  const legend = `<span class="legend"><span class="key"><i style="background:${COLORS.replied}"></i>replied</span> <span class="key"><i style="background:${COLORS.interested}"></i>interested</span></span>`;
  return `<figure class="chart"><figcaption>Replies by campaign${legend}</figcaption>${lines}</figure>`;
}

function periodText(report: CampaignReport): string {
  return `${report.period.from} to ${report.period.to} (UTC)`;
}

function agencyLine(agency: string | undefined): string {
  return agency ? `<p class="agency">${escapeHtml(agency)}</p>` : '';
}

function clientSection(client: ClientResults, page: ReportPage): string {
  const { campaigns } = client;
  const body =
    campaigns.length === 0
      ? '<p class="empty">No campaign sent anything in this period.</p>'
      : `<h2>Campaigns</h2>${campaignTable(campaigns)}${campaignChart(campaigns)}`;
  return `<section class="client" data-company="${client.company_id}">
${agencyLine(page.agency)}<h1>${escapeHtml(client.name)}</h1>
<p class="meta">Campaign results, ${escapeHtml(periodText(page.report))} · ${plural(campaigns.length, NOUNS.campaign)} · prepared ${escapeHtml(page.generatedAt.toISOString().slice(0, 10))}</p>
${tiles(client.totals)}
${body}
</section>`;
}

function failedLine(failed: readonly FailedClient[]): string {
  if (failed.length === 0) return '';
  const which = failed.map((f) => `${escapeHtml(f.name || f.company_id)}: ${escapeHtml(f.error.message)}`);
  return `<div class="failed"><p>Not included (the report could not be made):</p><ul>${which.map((w) => `<li>${w}</li>`).join('')}</ul></div>`;
}

/** The first page when there are several clients: every client's totals (for the agency, not a client). */
function fleetSummary(page: ReportPage): string {
  const { clients, failed, totals } = page.report;
  const rows = clients
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.name)}</td><td class="num wide">${c.totals.campaigns}</td>${num(c.totals.contacted, true)}${num(c.totals.replied)}${num(c.totals.interested)}${rateCell(c.totals.reply_rate)}${rateCell(c.totals.bounce_rate, true)}</tr>`,
    )
    .join('');
  return `<section class="summary">
${agencyLine(page.agency)}<h1>Campaign results</h1>
<p class="meta">${escapeHtml(periodText(page.report))} · ${plural(clients.length, NOUNS.client)} · prepared ${escapeHtml(page.generatedAt.toISOString().slice(0, 10))}</p>
${page.interrupted ? `<p class="interrupted">${escapeHtml(page.interrupted)}</p>` : ''}${failedLine(failed)}${tiles(totals)}
<h2>Clients</h2>
<table class="clients"><thead><tr><th>Client</th><th class="num wide">Campaigns</th><th class="num wide">Contacted</th><th class="num">Replied</th><th class="num">Interested</th><th class="num">Reply rate</th><th class="num wide">Bounce rate</th></tr></thead><tbody>${rows}</tbody></table>
<p class="note">Each client's results follow, starting on a page of their own when printed.</p>
</section>`;
}

export function renderReportHtml(page: ReportPage): string {
  const { clients } = page.report;
  const single = clients.length === 1 && clients[0];
  const title = single ? `${single.name}: campaign results` : 'Campaign results';
  const sections = clients.map((client) => clientSection(client, page)).join('\n');
  const body = single ? sections : `${fleetSummary(page)}\n${sections}`;
  return htmlDocument(title, CSS, `<main>\n${body}\n</main>`);
}
