/**
 * Figures a paper can use, read back from the SVG:
 * - axes: tick labels in metres (km for a site 5 km or more across) sit where the markers put
 *   those coordinates; one scale for x and y;
 * - `--numbers`: each turbine's index beside its marker;
 * - the wind rose: wedge radius ∝ direction frequency (the IEA37 cs1 rose: 21.3 % from 270°), rings
 *   labelled in %, speed classes stacked with a legend (cs3: 20 speeds in 5 classes);
 * - `--style paper`: size in millimetres, no title, no flow field, PNG at 300 dpi;
 * - the report: farm types in numeric order (x9 before x16), one dot per seed when cells have few,
 *   and each cell's best and worst layout on one wake-loss colour scale.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pngHeader, runCampaign, runWflo, tempDir, writeNoopCampaign } from './viewsTestKit.js';
import { readCampaignView } from '../../src/views/campaignData.js';
import { campaignCharts } from '../../src/views/chartSpecs.js';
import { vegaLiteToSvg } from '../../src/views/vegaSvg.js';
import { readLedgerResults } from '../../src/views/storedResult.js';

const dir = tempDir('wflo-figures-');
function plot(args: string[], name: string): string {
  const file = path.join(dir, name);
  const r = runWflo(['plot', ...args, '-o', file]);
  assert.equal(r.status, 0, r.stderr);
  return fs.readFileSync(file, 'utf8');
}

interface Marker {
  i: number;
  x: number;
  y: number;
  cx: number;
  cy: number;
}
function markers(svg: string): Marker[] {
  return [...svg.matchAll(/<circle class="turbine" data-turbine="(\d+)" data-x="([^"]+)" data-y="([^"]+)"[^>]* cx="([^"]+)" cy="([^"]+)"/g)].map((m) => ({
    i: Number(m[1]),
    x: Number(m[2]),
    y: Number(m[3]),
    cx: Number(m[4]),
    cy: Number(m[5]),
  }));
}
/** Screen x of data x (and y), from two markers far apart. */
function screenMap(ms: Marker[]) {
  const a = ms.reduce((p, m) => (m.x < p.x ? m : p)),
    b = ms.reduce((p, m) => (m.x > p.x ? m : p));
  const k = (b.cx - a.cx) / (b.x - a.x);
  return { sx: (x: number) => a.cx + (x - a.x) * k, sy: (y: number) => a.cy - (y - a.y) * k, k };
}
const tickValue = (label: string, unit: number) => Number(label.replace('\u2212', '-').replace(/,/g, '')) * unit;

test('axes: tick labels in metres at the coordinates the markers give them', () => {
  const svg = plot(['iea37-cs1-16'], 'cs1.svg');
  const ms = markers(svg);
  const { sx, sy } = screenMap(ms);
  const xt = [...svg.matchAll(/<text class="tick-x" x="([^"]+)"[^>]*>([^<]+)<\/text>/g)];
  const yt = [...svg.matchAll(/<text class="tick-y" x="[^"]+" y="([^"]+)"[^>]*>([^<]+)<\/text>/g)];
  assert.ok(xt.length >= 4 && yt.length >= 4, 'ticks on both axes');
  assert.ok(xt.some((m) => m[2] === '1,000') && xt.some((m) => m[2] === '\u22121,000'), 'metres, grouped, true minus');
  for (const m of xt) assert.ok(Math.abs(Number(m[1]) - sx(tickValue(m[2], 1))) < 0.05, `x tick ${m[2]}`);
  // y labels are drawn 0.35 em below the tick's centre line.
  for (const m of yt) assert.ok(Math.abs(Number(m[1]) - 3.5 - sy(tickValue(m[2], 1))) < 0.05, `y tick ${m[2]}`);
  assert.match(svg, />x \(m, east\)</);
  assert.match(svg, />y \(m, north\)</);
  // cs4 spans about 10 km: kilometres.
  const cs4 = plot(['iea37-cs4'], 'cs4.svg');
  assert.match(cs4, />x \(km, east\)</);
  const k4 = screenMap(markers(cs4));
  for (const m of cs4.matchAll(/<text class="tick-x" x="([^"]+)"[^>]*>([^<]+)<\/text>/g))
    assert.ok(Math.abs(Number(m[1]) - k4.sx(tickValue(m[2], 1000))) < 0.05, `km tick ${m[2]}`);
});

test("--numbers writes every turbine's index beside its marker", () => {
  const svg = plot(['iea37-cs1-16', '--numbers'], 'numbers.svg');
  const ms = markers(svg);
  const labels = [...svg.matchAll(/<text class="turbine-number" x="([^"]+)" y="([^"]+)">(\d+)<\/text>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    i: Number(m[3]),
  }));
  assert.deepEqual(
    labels.map((l) => l.i),
    ms.map((m) => m.i),
  );
  for (const l of labels) {
    const m = ms[l.i];
    assert.ok(Math.hypot(l.x - m.cx, l.y - m.cy) < 20, `label ${l.i} next to its turbine`);
  }
  assert.doesNotMatch(plot(['iea37-cs1-16'], 'plain.svg'), /turbine-number/);
});

test('spacing circles: a light casing under dark dashes (screen), one per turbine', () => {
  const svg = plot(['iea37-cs1-16', '--flow', '270'], 'flow.svg');
  const spacing = /<g class="spacing"[^>]*><g stroke="#ffffff"[^>]*>(.*?)<\/g><g stroke="#1b2733"[^>]*stroke-dasharray[^>]*>(.*?)<\/g><\/g>/.exec(svg);
  assert.ok(spacing, 'casing and dashes');
  assert.equal((spacing[1].match(/<circle /g) ?? []).length, 16);
  assert.equal((spacing[2].match(/<circle /g) ?? []).length, 16);
});

test('wind rose: radius proportional to frequency, rings in %, speed classes with a legend', () => {
  const svg = plot(['iea37-cs1-16'], 'rose.svg');
  const rose = /<g class="windrose" data-directions="(\d+)" data-speed-classes="(\d+)">(.*?)<\/g><g class="rose-legend"/.exec(svg);
  assert.ok(rose);
  assert.equal(rose[1], '16');
  assert.equal(rose[2], '1');
  // Ring radii against their labels: r / percent is one constant.
  const rings = [...rose[3].matchAll(/<circle class="ring" cx="[^"]+" cy="[^"]+" r="([^"]+)"/g)].map((m) => Number(m[1]));
  const ringLabels = [...rose[3].matchAll(/<text class="ring-label"[^>]*>([\d.]+) %<\/text>/g)].map((m) => Number(m[1]));
  assert.ok(rings.length >= 2 && rings.length === ringLabels.length);
  const perPercent = rings[0] / ringLabels[0];
  rings.forEach((r, k) => assert.ok(Math.abs(r / ringLabels[k] - perPercent) < 0.01));
  // Wedge outer radii (the arc radius of each path): the published cs1 frequencies, 0.213 for 270°.
  const radii = [...rose[3].matchAll(/<path d="M[^"]*?A([\d.]+),/g)].map((m) => Number(m[1]));
  const cs1 = [0.025, 0.024, 0.029, 0.036, 0.063, 0.065, 0.1, 0.122, 0.063, 0.038, 0.039, 0.083, 0.213, 0.046, 0.032, 0.022];
  assert.equal(radii.length, 16);
  radii.forEach((r, d) => assert.ok(Math.abs(r - cs1[d] * 100 * perPercent) < 0.02, `direction ${d * 22.5}°: ${r} vs ${cs1[d] * 100 * perPercent}`));
  // cs3: 20 speeds in classes of 5 m/s, in the legend.
  const cs3 = plot(['iea37-cs3'], 'rose3.svg');
  assert.match(cs3, /data-speed-classes="5"/);
  assert.deepEqual([...cs3.matchAll(/<g class="rose-legend".*?<\/g>/g)][0][0].match(/>[^<]*m\/s</g), [
    '>0–5 m/s<',
    '>5–10 m/s<',
    '>10–15 m/s<',
    '>15–20 m/s<',
    '>≥ 20 m/s<',
  ]);
});

test('--style paper: millimetres, no title, no flow field, PNG at 300 dpi', () => {
  const svg = plot(['iea37-cs3', '--style', 'paper'], 'paper.svg');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="160mm" height="120mm" viewBox="0 0 640 480"/);
  assert.doesNotMatch(svg, /class="title"/);
  assert.doesNotMatch(svg, /class="flow"/);
  const png = path.join(dir, 'paper.png');
  assert.equal(runWflo(['plot', 'iea37-cs3', '--style', 'paper', '-o', png]).status, 0);
  assert.deepEqual(pngHeader(fs.readFileSync(png)), { width: 1890, height: 1418 });
  const flow = runWflo(['plot', 'iea37-cs3', '--style', 'paper', '--flow', '270', '-o', path.join(dir, 'x.svg')]);
  assert.equal(flow.status, 2);
  assert.match(flow.stderr, /--flow: the paper style draws no flow field/);
  assert.equal(runWflo(['plot', 'iea37-cs3', '--style', 'poster', '-o', path.join(dir, 'x.svg')]).status, 2);
});

test('report: numeric order of farm types, a dot per seed, one colour scale per best/worst pair', async () => {
  const { file, out } = writeNoopCampaign(
    dir,
    'order',
    4,
    {},
    {
      farm_types: [
        { id: 0, turbine: 'iea37-3.35mw', n_turbines: 9, label: 'x9' },
        { id: 1, turbine: 'iea37-3.35mw', n_turbines: 16, label: 'x16' },
      ],
    },
  );
  runCampaign(file, out);
  const view = await readCampaignView(out);
  const charts = campaignCharts(view);
  // The heat map's farm-type axis: x9 left of x16 (as text, 'x16' < 'x9').
  const heat = await vegaLiteToSvg(charts.find((c) => c.id === 'status')!.spec);
  const labelX = (label: string) =>
    Number(
      new RegExp(`transform="translate\\(([\\d.]+),[\\d.-]+\\)[^>]*>${label}</text>`).exec(heat)?.[1] ??
        new RegExp(`<text[^>]*transform="translate\\(([\\d.]+),[^)]*\\)"[^>]*>${label}<`).exec(heat)?.[1],
    );
  assert.ok(labelX('x9') < labelX('x16'), `x9 at ${labelX('x9')}, x16 at ${labelX('x16')}`);
  // Four seeds per cell: one dot per done task, with its AEP.
  const dots = charts.find((c) => c.id === 'aep-histogram')!;
  assert.match(dots.title, /every seed/);
  const values = (dots.spec as { data: { values: { taskId: string; aep: number }[] } }).data.values;
  assert.equal(values.length, view.status.done);
  const stored = readLedgerResults(
    out,
    values.map((v) => v.taskId),
  );
  values.forEach((v, i) => assert.equal(v.aep, stored[i].aep));
  // Best and worst of a cell: the same colour bar, and each marker's colour placed on it by its loss.
  const pair = view.layouts.filter((l) => l.label === view.cells[0].label);
  assert.equal(pair.length, 2);
  const ticks = pair.map((l) => [...l.svg.matchAll(/<text x="[^"]+" y="[^"]+" font-size="[^"]+">([\d.]+)<\/text>/g)].map((m) => m[1]).join(','));
  assert.equal(ticks[0], ticks[1]);
  const losses = pair.flatMap((l) =>
    [...l.svg.matchAll(/data-wake-loss="([^"]+)"[^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => ({ loss: Number(m[1]), fill: m[2] })),
  );
  const lo = Math.min(...losses.map((m) => m.loss)),
    hi = Math.max(...losses.map((m) => m.loss));
  // The lowest loss of the pair has the scale's lightest colour, the highest its darkest, whichever plot they are in.
  assert.equal(losses.find((m) => m.loss === lo)!.fill, '#fff5be');
  assert.equal(losses.find((m) => m.loss === hi)!.fill, '#6e0a28');
});
