/**
 * What every self-contained page of the tool shares (`health --html`, `report --html`): text made safe
 * for HTML, the colours and the base styles, and the document around a page's body: inline CSS, no
 * script, nothing loaded from anywhere else (no font, image, link or style sheet), so that a page can
 * be mailed, archived and opened offline.
 */
import { render } from '../terms.js';

export function escapeHtml(text: unknown): string {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** The base of every page: ink, lines, the system font, tables, numbers aligned. */
const BASE_CSS = `
:root{color-scheme:light;--ink:#1d2330;--muted:#5d6675;--line:#e3e6ec;--now:#2f6fdb;--before:#b9c3d3}
*{box-sizing:border-box}
body{margin:0;overflow-wrap:anywhere;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--ink);background:#f6f7f9}
main{max-width:1040px;margin:0 auto;padding:28px 24px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:36px 0 12px}
.meta{color:var(--muted);margin:0 0 18px}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line);border-radius:8px;overflow:hidden}
th,td{text-align:left;padding:7px 10px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
thead th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);background:#fafbfc}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
`;

/** The whole document: `css` after the base styles, `body` inside <body>. */
export function htmlDocument(title: string, css: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${BASE_CSS}${css}</style>
</head>
<body>
${render(body)}
</body>
</html>
`;
}
