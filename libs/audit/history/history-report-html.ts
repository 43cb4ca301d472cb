/** The HTML report's small parts. The page loads nothing from elsewhere: no script, font or image; the style inline. */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The five characters `& < > " '` as references, as the HTML standard's fragment serialisation escapes them. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Escaped: a string as is, else compact JSON; `undefined` (no value yet) and null as a dimmed dash. */
export function valueHtml(value: unknown): string {
  if (value === undefined || value === null) return '<span class="none" title="no value">—</span>';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `<span class="value">${escapeHtml(text)}</span>`;
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/;

/** `2026-01-05T10:00:00.000Z` as `2026-01-05 10:00:00.000 UTC`; any other text as is. */
export function utcText(instant: string): string {
  const m = ISO_UTC.exec(instant);
  return m ? `${m[1]} ${m[2]} UTC` : instant;
}

/** The document's head (`title` escaped here) and `<body>`; the caller's escaped content and {@link PAGE_END} follow. */
export function pageStart(title: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Nothing may be fetched: the report is read offline, and a page that loads nothing leaks nothing.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>\n',
  ].join('\n');
}

export const PAGE_END = '\n</body>\n</html>\n';

/** Each label escaped here; each value HTML the caller escaped. */
export function facts(rows: [label: string, html: string][]): string {
  return `<dl class="facts">${rows.map(([label, html]) => `<dt>${escapeHtml(label)}</dt><dd>${html}</dd>`).join('')}</dl>`;
}

/** Null as a dimmed "none". */
export function hashHtml(hash: string | null): string {
  return hash === null ? '<span class="none">none</span>' : `<span class="hash">${escapeHtml(hash)}</span>`;
}

const STYLE = `
:root { --ink: #1b1f24; --muted: #5b6470; --line: #d6dae0; --soft: #f4f6f8; --ok: #176b3a; --ok-bg: #e6f4ea;
  --bad: #a4161a; --bad-bg: #fdecea; --warn: #7a4d00; --warn-bg: #fff4e0; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1180px; padding: 24px 32px 48px; color: var(--ink); background: #fff;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--ink); }
h3 { font-size: 15px; margin: 20px 0 6px; }
p { margin: 6px 0; }
code, .hash, pre, .value { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.hash { word-break: break-all; color: var(--muted); }
.muted, .none { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.verdict { border-left: 6px solid; padding: 10px 14px; margin: 10px 0; border-radius: 3px; }
.verdict.ok { border-color: var(--ok); background: var(--ok-bg); }
.verdict.bad { border-color: var(--bad); background: var(--bad-bg); }
.verdict.warn { border-color: var(--warn); background: var(--warn-bg); }
.verdict strong { display: block; font-size: 15px; margin-bottom: 2px; }
ul.faults { margin: 6px 0; padding-left: 20px; }
ol.timeline { list-style: none; margin: 0; padding: 0; }
li.event { border: 1px solid var(--line); border-radius: 4px; margin: 12px 0; padding: 10px 14px; break-inside: avoid; }
li.event.faulty { border-color: var(--bad); box-shadow: inset 4px 0 0 var(--bad); }
.event-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 14px; }
.event-head .type { font-size: 16px; font-weight: 600; }
.event-head .rev { color: var(--muted); }
.tag { font-size: 12px; padding: 1px 8px; border-radius: 10px; background: var(--soft); color: var(--muted); border: 1px solid var(--line); }
.badge { font-size: 12px; padding: 1px 8px; border-radius: 10px; background: var(--bad-bg); color: var(--bad); font-weight: 600; }
dl.actor { display: flex; flex-wrap: wrap; gap: 2px 18px; margin: 4px 0 8px; color: var(--muted); }
dl.actor div { display: flex; gap: 6px; }
dl.actor dt::after { content: ":"; }
dl.actor dd { margin: 0; color: var(--ink); }
table.changes { border-collapse: collapse; width: 100%; table-layout: fixed; margin: 4px 0; }
table.changes th, table.changes td { text-align: left; vertical-align: top; padding: 3px 8px; border-bottom: 1px solid var(--line);
  overflow-wrap: anywhere; }
table.changes th { font-weight: 600; background: var(--soft); font-size: 12.5px; }
table.changes tr.item th { background: #fff; padding-top: 8px; font-size: 13px; }
table.changes col.field { width: 26%; }
table.changes col.arrow { width: 28px; }
table.changes td.arrow { color: var(--muted); text-align: center; }
table.changes td.old .value { color: var(--bad); }
table.changes td.new .value { color: var(--ok); }
table.index { border-collapse: collapse; margin: 8px 0 16px; width: 100%; }
table.index th, table.index td { text-align: left; padding: 2px 10px 2px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
table.index th { font-size: 12.5px; color: var(--muted); font-weight: 600; }
table.index td:first-child, table.index td:nth-child(2) { white-space: nowrap; }
details { margin-top: 6px; }
details summary { cursor: pointer; color: var(--muted); }
pre { background: var(--soft); border: 1px solid var(--line); padding: 8px 10px; overflow-x: auto; max-height: 520px; margin: 6px 0; }
footer { margin-top: 36px; color: var(--muted); font-size: 12.5px; }
@media print { body { padding: 0; } pre { max-height: none; overflow: visible; white-space: pre-wrap; } }
`.trim();
