/**
 * `wflo plot`: the SVG of a published IEA37 layout puts one marker per turbine at the file's
 * coordinates (an equal-aspect, y-up map), colours follow per-turbine wake loss, the title
 * carries the case study's AEP; PNG output has the requested size; stored results plot from a
 * campaign folder and from layouts.h5; bad input is one line with exit 2.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { IEA37 } from '../helpers.js';
import { pngHeader, runCampaign, runWflo, tempDir, writeNoopCampaign } from './viewsTestKit.js';

const EX16 = path.join(IEA37, 'cs1-2', 'iea37-ex16.yaml');

interface Marker {
  x: number;
  y: number;
  cx: number;
  cy: number;
  loss: number;
  fill: string;
}

function markers(svg: string): Marker[] {
  const out: Marker[] = [];
  for (const m of svg.matchAll(/<circle class="turbine"([^>]*)>/g)) {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(m[1])?.[1] ?? '';
    out.push({
      x: Number(attr('data-x')),
      y: Number(attr('data-y')),
      cx: Number(attr('cx')),
      cy: Number(attr('cy')),
      loss: Number(attr('data-wake-loss')),
      fill: attr('fill'),
    });
  }
  return out;
}

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

test('an IEA37 cs1 baseline: one marker per turbine at the published coordinates, coloured by wake loss', () => {
  const dir = tempDir('wflo-plot-');
  const file = path.join(dir, 'ex16.svg');
  const r = runWflo(['plot', EX16, '--case', 'iea37-cs1-16', '-o', file]);
  assert.equal(r.status, 0, r.stderr);
  const svg = fs.readFileSync(file, 'utf8');
  const doc = parse(fs.readFileSync(EX16, 'utf8')) as {
    definitions: { position: { items: { xc: number[]; yc: number[] } }; plant_energy: { properties: { annual_energy_production: { default: number } } } };
  };
  const { xc, yc } = doc.definitions.position.items;
  const ms = markers(svg);
  assert.equal(ms.length, xc.length, 'one marker per turbine');
  for (let i = 0; i < xc.length; i++) {
    assert.ok(Math.abs(ms[i].x - xc[i]) < 1e-9 && Math.abs(ms[i].y - yc[i]) < 1e-9, `turbine ${i} at (${xc[i]}, ${yc[i]})`);
  }
  // Screen positions: one scale for x and y, y pointing up (north at the top).
  const a = ms.reduce((p, m) => (m.x < p.x ? m : p)),
    b = ms.reduce((p, m) => (m.x > p.x ? m : p));
  const scale = (b.cx - a.cx) / (b.x - a.x);
  assert.ok(scale > 0);
  for (const m of ms) {
    assert.ok(Math.abs(m.cx - (a.cx + (m.x - a.x) * scale)) < 0.02, `cx of (${m.x}, ${m.y})`);
    assert.ok(Math.abs(m.cy - (a.cy - (m.y - a.y) * scale)) < 0.02, `cy of (${m.x}, ${m.y})`);
  }
  // Every IEA37 cs1 turbine alone makes rated power (9.8 m/s = rated speed) all year:
  // 3.35 MW × 8760 h = 29 346 MWh; wake loss_i = 1 − AEP_i / 29 346 MWh.
  const lone = 3.35 * 8760;
  const aep = JSON.parse(runWflo(['aep', EX16, '--json']).stdout) as { per_turbine_mwh: number[] };
  for (let i = 0; i < ms.length; i++) assert.ok(Math.abs(ms[i].loss - (1 - aep.per_turbine_mwh[i] / lone)) < 1e-9, `wake loss of turbine ${i}`);
  // Colour order follows loss: more loss, darker colour.
  const byLoss = [...ms].sort((p, q) => p.loss - q.loss);
  for (let k = 1; k < byLoss.length; k++) assert.ok(luminance(byLoss[k].fill) <= luminance(byLoss[k - 1].fill) + 1e-9, 'darker with more loss');
  assert.ok(luminance(byLoss[0].fill) - luminance(byLoss[byLoss.length - 1].fill) > 100, 'the scale spans light to dark');
  // Title: the case study's published AEP (366 941.57 MWh) and gross 16 × 29 346 MWh.
  const published = doc.definitions.plant_energy.properties.annual_energy_production.default;
  assert.match(svg, new RegExp(`AEP ${Math.round(published).toLocaleString('en-US')} MWh`));
  assert.match(svg, new RegExp(`gross ${Math.round(16 * lone).toLocaleString('en-US')} MWh`));
  assert.match(svg, /<circle cx="[\d.]+" cy="[\d.]+" r="[\d.]+" class="boundary"/, 'the 1300 m circle');
  assert.match(svg, /class="windrose"/);
  assert.match(svg, /Wake loss per turbine/);
});

test('PNG output has the requested size; --flow embeds the velocity field', () => {
  const dir = tempDir('wflo-plot-');
  const png = path.join(dir, 'cs3.png');
  const r = runWflo(['plot', 'iea37-cs3', '-o', png, '--width', '640', '--height', '480', '--flow', '270']);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(pngHeader(fs.readFileSync(png)), { width: 640, height: 480 });
  const svgFile = path.join(dir, 'cs3.svg');
  assert.equal(runWflo(['plot', 'iea37-cs3', '-o', svgFile, '--flow', '270']).status, 0);
  const svg = fs.readFileSync(svgFile, 'utf8');
  const image = /<image class="flow"[^>]*href="data:image\/png;base64,([^"]+)"/.exec(svg);
  assert.ok(image, 'flow raster present');
  assert.ok(pngHeader(Buffer.from(image[1], 'base64')), 'flow raster is a PNG');
  assert.equal(markers(svg).length, 25, 'cs3 has 25 turbines');
  assert.match(svg, /wind from 270°/);
});

test('exclusion zones are drawn hatched, under the turbines', () => {
  const dir = tempDir('wflo-plot-');
  const caseFile = path.join(dir, 'lane.yaml');
  fs.writeFileSync(
    caseFile,
    [
      'name: lane',
      'base: iea37-cs1-16',
      'n_turbines: 4',
      'boundary:',
      '  polygon: [[-1500, -1500], [1500, -1500], [1500, 1500], [-1500, 1500]]',
      '  exclusions:',
      '    - name: shipping lane',
      '      polygon: [[-200, -1500], [200, -1500], [200, 1500], [-200, 1500]]',
      'layout: {x: [-1000, -600, 600, 1000], y: [0, 500, -500, 0]}',
      '',
    ].join('\n'),
  );
  const svgFile = path.join(dir, 'lane.svg');
  const r = runWflo(['plot', caseFile, '-o', svgFile]);
  assert.equal(r.status, 0, r.stderr);
  const svg = fs.readFileSync(svgFile, 'utf8');
  assert.match(svg, /<path class="exclusion" d="M[^"]+"[^>]*><title>shipping lane<\/title>/);
  assert.ok(svg.indexOf('class="exclusion"') < svg.indexOf('class="turbine"'), 'zones under the turbines');
  assert.deepEqual(
    markers(svg).map((m) => [m.x, m.y]),
    [
      [-1000, 0],
      [-600, 500],
      [600, -500],
      [1000, 0],
    ],
  );
});

test('stored results: campaign folder, layouts.h5 and --compare; bad input is one line, exit 2', () => {
  const dir = tempDir('wflo-plot-');
  const { file, out } = writeNoopCampaign(dir, 'plots', 2);
  runCampaign(file, out);
  assert.equal(runWflo(['export', out]).status, 0);
  const fromDir = path.join(dir, 'dir.svg'),
    fromH5 = path.join(dir, 'h5.svg');
  assert.equal(runWflo(['plot', out, '--task', 'farm_1_type_1_seed_1', '-o', fromDir]).status, 0);
  const r = runWflo(['plot', path.join(out, 'layouts.h5'), '--task', 'farm_1_type_1_seed_1', '-o', fromH5]);
  assert.equal(r.status, 0, r.stderr);
  const a = markers(fs.readFileSync(fromDir, 'utf8')),
    b = markers(fs.readFileSync(fromH5, 'utf8'));
  assert.equal(a.length, 9);
  assert.deepEqual(
    a.map((m) => [m.x, m.y]),
    b.map((m) => [m.x, m.y]),
  );
  for (const m of a) assert.ok(m.x >= 0 && m.x <= 3000 && m.y >= 0 && m.y <= 2000, 'inside the rectangle');

  const cmp = path.join(dir, 'cmp.svg');
  assert.equal(runWflo(['plot', out, '--compare', 'farm_0_type_0_seed_0', 'farm_0_type_1_seed_0', '-o', cmp]).status, 0);
  const cmpSvg = fs.readFileSync(cmp, 'utf8');
  assert.equal((cmpSvg.match(/class="wflo-layout"/g) ?? []).length, 2);
  assert.equal(markers(cmpSvg).length, 6 + 9);

  for (const args of [
    ['plot', out, '--task', 'farm_9_type_9_seed_9', '-o', path.join(dir, 'x.svg')],
    ['plot', path.join(out, 'layouts.h5'), '--task', 'nope', '-o', path.join(dir, 'x.svg')],
    ['plot', dir, '--task', 'farm_0_type_0_seed_0', '-o', path.join(dir, 'x.svg')],
    ['plot', 'no-such-case', '-o', path.join(dir, 'x.svg')],
    ['plot', 'iea37-cs1-16', '-o', path.join(dir, 'x.pdf')],
  ]) {
    const bad = runWflo(args);
    assert.equal(bad.status, 2, `${args.join(' ')}: ${bad.stderr}`);
    assert.equal(bad.stderr.trim().split('\n').length, 1, `one line: ${bad.stderr}`);
    assert.match(bad.stderr, /^wflo: /);
  }
  assert.ok(!fs.existsSync(path.join(dir, 'x.svg')), 'nothing written on bad input');
});
