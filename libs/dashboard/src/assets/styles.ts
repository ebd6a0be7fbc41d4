/**
 * The dashboard's one stylesheet, served from /dashboard/static/ under a content hash. Kept as a
 * TypeScript string so that `nest build` ships it with the code (no asset-copy step, nothing read
 * from disk at run time). The CSP allows no inline style: every style is here, SVG uses classes.
 */
export const STYLES = `
:root {
  --ink: #0f172a;
  --muted: #526077;
  --line: #dfe4ec;
  --bg: #f4f6fa;
  --card: #ffffff;
  --brand: #2346c8;
  --brand-dark: #1a369e;
  --brand-soft: #e8edfc;
  --ok: #137a4b;
  --ok-soft: #e3f5ec;
  --warn: #9a5b00;
  --warn-soft: #fff3db;
  --bad: #b42318;
  --bad-soft: #fdeceb;
  --grey-soft: #eef1f5;
  --radius: 10px;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
  color: var(--ink);
  background: var(--bg);
}
a { color: var(--brand); text-underline-offset: 2px; }
a:hover { color: var(--brand-dark); }
code, .mono { font-family: var(--mono); font-size: 0.92em; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 6px; letter-spacing: -0.01em; }
h2 { font-size: 1.1rem; margin: 0 0 12px; }
h3 { font-size: 1rem; margin: 18px 0 8px; }
p { margin: 0 0 12px; }
.wrap { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 12px; top: 12px; background: #fff; padding: 6px 10px; z-index: 10; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

/* Top bar */
.topbar { background: #101a3c; color: #fff; }
.topbar-inner { display: flex; align-items: center; gap: 10px 28px; min-height: 58px; padding-top: 8px; padding-bottom: 8px; flex-wrap: wrap; }
.brand { display: flex; align-items: center; gap: 8px; color: #fff; text-decoration: none; font-weight: 700; font-size: 1.1rem; }
.brand:hover { color: #fff; }
.brand svg { width: 26px; height: 26px; }
.nav { display: flex; gap: 4px; flex-wrap: wrap; }
.nav a { white-space: nowrap; color: #d5dcf5; text-decoration: none; padding: 7px 12px; border-radius: 7px; font-weight: 500; }
.nav a:hover { background: rgba(255,255,255,0.08); color: #fff; }
.nav a[aria-current="page"] { background: rgba(255,255,255,0.14); color: #fff; }
.topbar-end { margin-left: auto; display: flex; align-items: center; gap: 14px; font-size: 0.9rem; color: #c9d1ee; flex-wrap: wrap; }
.topbar-end a { color: #dfe5fa; }
.org-name { color: #fff; font-weight: 600; }
.org { max-width: 260px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.lang { display: inline-flex; border: 1px solid rgba(255,255,255,0.25); border-radius: 6px; overflow: hidden; }
.lang a, .lang span { padding: 3px 8px; text-decoration: none; font-size: 0.8rem; font-weight: 600; }
.lang span { background: rgba(255,255,255,0.18); color: #fff; }
.topbar form { margin: 0; }
.linklike { background: none; border: 0; padding: 0; font: inherit; color: #dfe5fa; text-decoration: underline; text-underline-offset: 2px; cursor: pointer; }
.linklike:hover { color: #fff; }

main.wrap { padding-top: 30px; padding-bottom: 40px; min-height: calc(100vh - 140px); }
.page-head { margin-bottom: 20px; }
.page-head p { color: var(--muted); max-width: 760px; }
.footer { color: var(--muted); font-size: 0.85rem; padding-top: 18px; padding-bottom: 28px; border-top: 1px solid var(--line); }

/* Cards and grids */
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 20px 22px; margin-bottom: 20px; box-shadow: 0 1px 2px rgba(15,23,42,0.04); }
.card > h2:first-child { margin-top: 0; }
.card-head { display: flex; align-items: baseline; justify-content: space-between; gap: 12px; margin-bottom: 10px; }
.card-head h2 { margin: 0; }
.grid { display: grid; gap: 20px; margin-bottom: 20px; }
.grid > .card, .grid > .col > .card { margin-bottom: 0; }
.grid > .col { display: grid; gap: 20px; align-content: start; }
.grid-2 { grid-template-columns: 3fr 2fr; }
.grid-3 { grid-template-columns: repeat(3, 1fr); }
@media (max-width: 860px) { .grid-2, .grid-3 { grid-template-columns: 1fr; } }
.stat-label { color: var(--muted); font-size: 0.85rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; }
.stat-value { font-size: 1.7rem; font-weight: 700; letter-spacing: -0.01em; margin: 2px 0; }
.stat-help { color: var(--muted); font-size: 0.88rem; margin: 0; }
.muted { color: var(--muted); }
.small { font-size: 0.88rem; }

/* Usage bar */
.meter { width: 100%; height: 14px; display: block; margin: 10px 0 8px; }
.meter-track { fill: var(--grey-soft); }
.meter-fill { fill: var(--brand); }
.meter-fill.high { fill: #d97706; }
.meter-fill.full { fill: var(--bad); }
.meter-legend { display: flex; justify-content: space-between; gap: 12px; flex-wrap: wrap; color: var(--muted); font-size: 0.9rem; }

/* Chart */
.chart { width: 100%; height: auto; display: block; }
.chart .bar { fill: #9fb1ee; }
.chart .bar.current { fill: var(--brand); }
.chart .gridline { stroke: var(--line); stroke-width: 1; }
.chart .quota { stroke: var(--bad); stroke-width: 1.5; stroke-dasharray: 5 4; }
.chart .quota-label { fill: var(--bad); font-size: 11px; }
.chart .axis { fill: var(--muted); font-size: 11px; }
.chart .value { fill: var(--ink); font-size: 11px; font-weight: 600; }
.month-list { display: none; list-style: none; margin: 0; padding: 0; }
.month-list li { display: grid; grid-template-columns: 8.5em 1fr 4.5em; gap: 10px; align-items: center; padding: 5px 0; font-size: 0.92rem; }
.month-list li.current { font-weight: 600; }
.month-list b { text-align: right; font-variant-numeric: tabular-nums; }
.month-list progress { width: 100%; height: 10px; appearance: none; border: 0; border-radius: 5px; background: var(--grey-soft); overflow: hidden; }
.month-list progress::-webkit-progress-bar { background: var(--grey-soft); }
.month-list progress::-webkit-progress-value { background: #9fb1ee; }
.month-list li.current progress::-webkit-progress-value { background: var(--brand); }
.month-list progress::-moz-progress-bar { background: #9fb1ee; }
details summary { cursor: pointer; color: var(--brand); font-size: 0.9rem; margin-top: 8px; }

/* Tables */
.table-wrap { overflow-x: auto; position: relative; }
table { width: 100%; border-collapse: collapse; font-size: 0.93rem; }
th { text-align: left; font-size: 0.78rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); font-weight: 600; padding: 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
td { padding: 10px 8px; border-bottom: 1px solid var(--line); vertical-align: middle; }
tr:last-child td { border-bottom: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.actions { text-align: right; white-space: nowrap; }
.nowrap, td.when { white-space: nowrap; }
tr.dim td { color: var(--muted); }
.filename { font-family: var(--mono); font-size: 0.86rem; overflow-wrap: anywhere; }
td .filename { font-size: 0.82rem; white-space: nowrap; }
.sub { display: block; color: var(--muted); font-size: 0.8rem; }
.rowlist { font-family: var(--mono); font-size: 0.84rem; color: var(--muted); }

/* Badges */
.badge { display: inline-block; padding: 2px 9px; border-radius: 999px; font-size: 0.78rem; font-weight: 600; white-space: nowrap; background: var(--grey-soft); color: var(--muted); }
.badge.live { background: #fff1d6; color: #8a4b00; }
.badge.test { background: var(--brand-soft); color: var(--brand-dark); }
.badge.available, .badge.active, .badge.valid { background: var(--ok-soft); color: var(--ok); }
.badge.processing { background: var(--brand-soft); color: var(--brand-dark); }
.badge.failed, .badge.revoked, .badge.invalid { background: var(--bad-soft); color: var(--bad); }

/* Alerts */
.alert { border-radius: 8px; padding: 12px 14px; margin: 0 0 18px; border: 1px solid; }
.alert p:last-child { margin-bottom: 0; }
.alert.ok { background: var(--ok-soft); border-color: #b5e0c8; color: #0d4f31; }
.alert.error { background: var(--bad-soft); border-color: #f3c3bf; color: #7a1a12; }
.alert.warn { background: var(--warn-soft); border-color: #f2d49c; color: #6b3f00; }
.alert.info { background: var(--brand-soft); border-color: #c9d4f7; color: #1a2d74; }
.alert strong { display: block; margin-bottom: 2px; }

/* Forms */
form.stack { display: grid; gap: 14px; max-width: 440px; }
label { font-weight: 600; font-size: 0.92rem; display: block; margin-bottom: 5px; }
.field-help { color: var(--muted); font-size: 0.85rem; margin-top: 4px; }
input[type="text"], input[type="email"], input[type="password"], select {
  width: 100%; padding: 9px 11px; border: 1px solid #c5cdda; border-radius: 7px; font: inherit; background: #fff; color: var(--ink);
}
input[readonly] { background: var(--grey-soft); color: var(--muted); }
input[type="file"]::file-selector-button { font: inherit; font-weight: 600; padding: 6px 12px; margin-right: 10px; border-radius: 6px; border: 1px solid #c5cdda; background: #fff; color: var(--brand); cursor: pointer; }
input:focus, select:focus, button:focus-visible, a:focus-visible { outline: 3px solid rgba(35,70,200,0.35); outline-offset: 1px; }
fieldset { border: 0; padding: 0; margin: 0; }
legend { font-weight: 600; font-size: 0.92rem; margin-bottom: 6px; padding: 0; }
.choice { display: flex; gap: 10px; align-items: flex-start; padding: 10px 12px; border: 1px solid var(--line); border-radius: 8px; margin-bottom: 8px; font-weight: 400; cursor: pointer; }
.choice input { margin-top: 4px; }
.choice strong { display: block; }
.choice span { color: var(--muted); font-size: 0.88rem; }
.check { display: flex; gap: 8px; align-items: center; font-weight: 400; }
.row-form { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-end; }
.row-form > div { min-width: 220px; flex: 1; }

.btn { display: inline-flex; align-items: center; justify-content: center; gap: 6px; padding: 9px 16px; border-radius: 7px; border: 1px solid var(--brand); background: var(--brand); color: #fff; font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
.btn:hover { background: var(--brand-dark); color: #fff; }
.btn[disabled], .btn[aria-disabled='true'] { opacity: 0.6; cursor: progress; }
.btn.secondary { background: #fff; color: var(--brand); border-color: #c5cdda; }
.btn.secondary:hover { background: var(--brand-soft); color: var(--brand-dark); }
.btn.danger { background: var(--bad); border-color: var(--bad); }
.btn.danger:hover { background: #8f1c13; }
.btn.small { padding: 5px 11px; font-size: 0.86rem; }
.btn.danger-outline { background: #fff; color: var(--bad); border-color: #f0b6b0; }
.btn.danger-outline:hover { background: var(--bad-soft); }
.inline-form { display: inline; margin: 0; }
.actions-row { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; margin: 14px 0 6px; }

/* Sign-in */
.auth { max-width: 440px; margin: 40px auto; }
.auth .card { padding: 28px 30px; }
.auth h1 { margin-bottom: 8px; }

/* Secret */
.secret { display: flex; gap: 10px; align-items: stretch; flex-wrap: wrap; margin: 14px 0; }
.secret code { flex: 1; min-width: 280px; padding: 12px 14px; background: #0f172a; color: #e2f0ff; border-radius: 8px; font-size: 0.95rem; word-break: break-all; user-select: all; }
pre.example { background: var(--grey-soft); border-radius: 8px; padding: 12px 14px; overflow-x: auto; font-family: var(--mono); font-size: 0.84rem; margin: 6px 0 16px; white-space: pre-wrap; word-break: break-all; }

/* Drop zone */
.privacy { display: flex; gap: 10px; align-items: flex-start; margin: 0 0 18px; padding: 12px 14px; border-radius: 10px; background: var(--brand-soft); }
.privacy svg { flex: 0 0 20px; width: 20px; height: 20px; margin-top: 2px; color: var(--brand); }
.try-progress label { display: block; font-weight: 600; margin-bottom: 8px; }
.try-progress progress { width: 100%; height: 10px; }
.dropzone { border: 2px dashed #b7c2d6; border-radius: 12px; padding: 30px 20px; text-align: center; background: #fbfcfe; transition: background 0.15s, border-color 0.15s; }
.dropzone.dragging { border-color: var(--brand); background: var(--brand-soft); }
.dropzone .big { font-size: 1.05rem; font-weight: 600; margin-bottom: 6px; }
.dropzone:focus-within { outline: 3px solid rgba(35,70,200,0.35); outline-offset: 2px; }
.dropzone .chosen { margin-top: 10px; font-size: 0.9rem; color: var(--ink); min-height: 1.4em; }
.try-form { display: grid; gap: 18px; }
.linklike-label { display: inline; margin: 0; color: var(--brand); text-decoration: underline; text-underline-offset: 2px; cursor: pointer; }
.dropzone svg { width: 34px; height: 34px; color: var(--brand); }

/* Results */
.verdict { display: flex; gap: 14px; align-items: center; }
.verdict .icon { width: 40px; height: 40px; border-radius: 50%; display: grid; place-items: center; font-weight: 800; font-size: 1.2rem; flex: none; }
.verdict.ok .icon { background: var(--ok-soft); color: var(--ok); }
.verdict.bad .icon { background: var(--bad-soft); color: var(--bad); }
.verdict h2 { margin: 0; }
.counts { display: flex; gap: 28px; flex-wrap: wrap; margin: 16px 0 4px; }
.counts div { min-width: 90px; }
.counts b { display: block; font-size: 1.35rem; }
.counts span { color: var(--muted); font-size: 0.85rem; }
.counts b.bad { color: var(--bad); }
.counts b.warn { color: var(--warn); }
.pager { display: flex; justify-content: space-between; align-items: center; margin-top: 14px; color: var(--muted); font-size: 0.9rem; }
.spacer { height: 16px; }
.empty { color: var(--muted); padding: 10px 0; }
/* Phones: each table row becomes a card of label/value lines, with nothing hidden off-screen; the
   12-month chart becomes a list (its labels would be a few pixels high). */
@media (max-width: 640px) {
  .wrap { padding: 0 14px; }
  .card { padding: 16px; }
  .chart-wide { display: none; }
  .month-list { display: block; }
  table.cards thead { display: none; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards tr { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin-bottom: 10px; }
  table.cards td { display: flex; justify-content: space-between; align-items: baseline; gap: 14px; border: 0; padding: 4px 0; text-align: right; white-space: normal; }
  table.cards td[data-label]::before { content: attr(data-label); flex: none; color: var(--muted); font-size: 0.78rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; text-align: left; }
  table.cards td.lead { display: block; text-align: left; font-weight: 600; padding-bottom: 6px; }
  table.cards td.text { display: block; text-align: left; }
  table.cards td.text::before { display: block; margin-bottom: 2px; }
  table.cards td.actions { justify-content: flex-end; padding-top: 8px; }
  table.cards td:empty { display: none; }
  td .filename { white-space: normal; overflow-wrap: anywhere; }
}
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 8px 20px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; font-weight: 500; }
`;
