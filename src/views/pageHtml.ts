/**
 * The HTML page shared by `wflo report` (self-contained: vega, vega-lite, the page script and
 * the data inlined, opens offline from file://) and `wflo dashboard` (the same page loading its
 * scripts and data from the dashboard server). Vega and Vega-Lite are the packages' own minified
 * browser builds from node_modules.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { RuntimeFailure } from '../util/errors.js';
import { PAGE_SCRIPT } from './pageScript.js';
import { escapeXml } from './svgMarkup.js';

const require = createRequire(import.meta.url);

/** Path of a package's browser build (vega, vega-lite), resolved from the installed package. */
export function browserBuildPath(pkg: 'vega' | 'vega-lite'): string {
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new RuntimeFailure(`package ${pkg} is not installed (npm ci)`);
  }
  // The entry lives in <package>/build/…; walk up to the folder holding package.json.
  let dir = path.dirname(entry);
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const file = path.join(dir, 'build', `${pkg}.min.js`);
  if (!fs.existsSync(file)) throw new RuntimeFailure(`${file} is missing (reinstall ${pkg})`);
  return file;
}

const STYLE = `
:root { --ink: #1b2733; --muted: #5a6b7b; --line: #dfe5eb; --ok: #2e7d4f; --bad: #c62828; --live: #1f6fb2; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 "Liberation Sans", "DejaVu Sans", Arial, Helvetica, sans-serif; color: var(--ink); background: #f5f7f9; }
header { background: #16325c; color: #fff; padding: 16px 28px 14px; }
header h1 { margin: 0; font-size: 22px; font-weight: 600; }
header h1 small { font-weight: normal; opacity: .75; font-size: 14px; margin-left: 10px; }
header .meta { opacity: .8; font-size: 12.5px; margin-top: 4px; }
main { padding: 18px 28px 40px; max-width: 1500px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 14px 18px; margin: 0 0 16px; }
h2 { font-size: 16px; margin: 0 0 10px; }
h3 { font-size: 14px; margin: 6px 0; color: var(--muted); font-weight: 600; }
.note { color: var(--muted); font-size: 12.5px; margin: -4px 0 8px; }
#summary { display: flex; flex-wrap: wrap; gap: 10px; margin-bottom: 16px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 16px; min-width: 120px; }
.card .value { font-size: 21px; font-weight: 600; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card.ok .value { color: var(--ok); } .card.bad .value { color: var(--bad); } .card.live .value { color: var(--live); }
#charts { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
#charts section { margin: 0; max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; font-size: 13px; width: 100%; }
th, td { text-align: left; padding: 4px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
table.cells td:nth-child(n+3) { text-align: right; font-variant-numeric: tabular-nums; }
table.failures td:last-child { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; color: var(--bad); white-space: pre-wrap; }
.layout-row { display: inline-block; vertical-align: top; margin: 0 18px 10px 0; }
.layout-pair { display: flex; flex-wrap: wrap; gap: 12px; }
figure.layout { margin: 0; border: 1px solid var(--line); border-radius: 4px; overflow: hidden; line-height: 0; }
figure.layout.best { border-color: #9bc9a9; } figure.layout.worst { border-color: #e5b3a3; }
#live-state { float: right; font-size: 12px; background: rgba(255,255,255,.15); border-radius: 10px; padding: 2px 10px; }
`;

const scriptSafe = (text: string) => text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

function body(live: boolean): string {
  return `<header>${live ? '<span id="live-state">connecting…</span>' : ''}<h1><span id="campaign">campaign</span><small>${live ? 'wflo dashboard' : 'wflo report'}</small></h1><div class="meta" id="meta"></div></header>
<main>
<div id="summary"></div>
${live ? '<section><h2>Running tasks</h2><div id="running"></div></section>' : ''}
<div id="charts"></div>
<section><h2>Per farm × type</h2><div id="cells"></div></section>
<section><h2>Adopted and recovered results, reported AEPs</h2><p class="note">Results not computed by this campaign (adopted from other files, recovered from the folder's own layouts.h5 or audit log), and results that carry the AEP their source reported beside wflo's (aep_reported).</p><div id="provenance"></div></section>
<section><h2>Best and worst layout of each cell</h2><p class="note">Turbines coloured by their wake loss; dashed circles: half the minimum spacing (overlap = too close).</p><div id="layouts"></div></section>
<section><h2>Failures</h2><div id="failures"></div></section>
</main>`;
}

/** The self-contained report: everything inlined; a CSP forbids any network access. */
export function reportHtml(payload: unknown, title: string): string {
  const vega = fs.readFileSync(browserBuildPath('vega'), 'utf8');
  const vegaLite = fs.readFileSync(browserBuildPath('vega-lite'), 'utf8');
  const data = JSON.stringify(payload).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeXml(title)}</title><style>${STYLE}</style></head>
<body>
${body(false)}
<script type="application/json" id="wflo-data">${data}</script>
<script>${scriptSafe(vega)}</script>
<script>${scriptSafe(vegaLite)}</script>
<script>${scriptSafe(PAGE_SCRIPT)}</script>
</body></html>
`;
}

/** The dashboard page: scripts from the server's fixed asset routes, data from its API. */
export function dashboardHtml(title: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'">
<meta name="referrer" content="no-referrer">
<title>${escapeXml(title)}</title><style>${STYLE}</style></head>
<body>
${body(true)}
<script src="assets/vega.min.js"></script>
<script src="assets/vega-lite.min.js"></script>
<script src="assets/page.js"></script>
</body></html>
`;
}
