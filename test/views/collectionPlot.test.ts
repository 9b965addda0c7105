/**
 * The collection system and the sea floor on the layout plot: every cable drawn between the right
 * two nodes (its drawn end points are the turbine's and the substation's coordinates, read back
 * from the markers), coloured by its type, lengths that add up to the routed network's total
 * (recomputed here from the drawn coordinates, not taken from the router); the substation where
 * it is; the depth raster with the field's range; the figure renders to PNG (resvg parses it).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { layoutSvg } from '../../src/views/layoutSvg.js';
import { builtinCase } from '../../src/io/builtinCases.js';
import { routeCollection } from '../../src/geometry/collection/routeCollection.js';
import { svgToPng } from '../../src/views/svgToPng.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { runWflo } from './viewsTestKit.js';

const attr = (tag: string, name: string): string => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? '';

test('cables, substation and water depth on the layout plot', async () => {
  const c = builtinCase('iea37-cs1-16');
  const x = c.layout!.x,
    y = c.layout!.y;
  const substations: [number, number][] = [[0, -1400]];
  const cables = [
    { name: 'small', capacity: 3, costPerMetre: 200 },
    { name: 'large', capacity: 6, costPerMetre: 350 },
  ];
  const network = routeCollection({ turbines: { x, y }, substations, cables });
  // A sloping sea floor: 20 m at x = −1500 to 50 m at x = 1500.
  const depth = {
    at: (px: number, _py: number, g: Float64Array | null) => {
      if (g) {
        g[0] = 0.01;
        g[1] = 0;
      }
      return 35 + 0.01 * px;
    },
  };
  const plot = await layoutSvg({ title: 'cables', site: c, x, y, collection: { network, cables, substations }, depth }, { width: 900, height: 640 });
  const svg = plot.svg;

  const turbines = new Map(
    [...svg.matchAll(/<circle class="turbine"[^>]*>/g)].map((m) => [
      Number(attr(m[0], 'data-turbine')),
      [Number(attr(m[0], 'data-x')), Number(attr(m[0], 'data-y'))],
    ]),
  );
  assert.equal(turbines.size, 16);
  const subs = [...svg.matchAll(/<rect class="substation"[^>]*>/g)];
  assert.equal(subs.length, 1);
  assert.deepEqual([Number(attr(subs[0][0], 'data-x')), Number(attr(subs[0][0], 'data-y'))], substations[0]);

  const lines = [...svg.matchAll(/<line class="cable"[^>]*>/g)].map((m) => m[0]);
  assert.equal(lines.length, 16, 'one cable per turbine');
  let total = 0;
  const colourOf = new Map<string, string>();
  for (const l of lines) {
    const from = turbines.get(Number(attr(l, 'data-from')))!;
    const toAttr = attr(l, 'data-to');
    const to = toAttr.startsWith('s') ? substations[Number(toAttr.slice(1))] : turbines.get(Number(toAttr))!;
    const length = Math.hypot(from[0] - to[0], from[1] - to[1]);
    assert.ok(Math.abs(length - Number(attr(l, 'data-length'))) < 1e-9 * length, `cable ${attr(l, 'data-from')} → ${toAttr}`);
    total += length;
    const type = attr(l, 'data-cable');
    assert.ok(
      cables.some((t) => t.name === type),
      type,
    );
    if (colourOf.has(type)) assert.equal(attr(l, 'stroke'), colourOf.get(type), `one colour per type (${type})`);
    colourOf.set(type, attr(l, 'stroke'));
  }
  assert.ok(Math.abs(total - network.totalLength) < 1e-9 * total, `drawn ${total} m vs routed ${network.totalLength} m`);
  if (colourOf.size === 2) assert.notEqual(colourOf.get('small'), colourOf.get('large'));
  // Every turbine reaches the substation along the drawn cables.
  const parent = new Map(lines.map((l) => [attr(l, 'data-from'), attr(l, 'data-to')]));
  for (const i of turbines.keys()) {
    let node = String(i);
    for (let steps = 0; !node.startsWith('s'); steps++) {
      assert.ok(steps <= 16, `turbine ${i} loops`);
      node = parent.get(node)!;
    }
  }

  const raster = /<image class="depth" data-min="([^"]*)" data-max="([^"]*)"/.exec(svg);
  assert.ok(raster, 'depth raster drawn');
  const [lo, hi] = [Number(raster![1]), Number(raster![2])];
  assert.ok(lo < 35 && hi > 35 && hi - lo > 20, `depth range ${lo}–${hi} m around the farm`);
  assert.match(svg, /water depth/);
  assert.match(svg, /substation<\/text>/);

  // A constant depth draws no raster; the PNG renders.
  const flat = await layoutSvg(
    { title: 'flat', site: c, x, y, collection: { network, cables, substations }, depth: { at: () => 30 } },
    { width: 600, height: 420 },
  );
  assert.doesNotMatch(flat.svg, /class="depth"/);
  const png = svgToPng(svg);
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
});

test('wflo plot of the offshore cs4 example: 81 cables to the substation over the depth grid of its CSV', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-cs4-plot-'));
  try {
    const file = path.join(dir, 'cs4.svg');
    const example = path.join(REPO, 'examples', 'offshore-cs4', 'cs4-offshore.yaml');
    const r = runWflo(['plot', example, '-o', file]);
    assert.equal(r.status, 0, r.stderr);
    const svg = fs.readFileSync(file, 'utf8');
    assert.equal([...svg.matchAll(/<line class="cable"/g)].length, 81);
    assert.match(svg, /<rect class="substation" data-substation="0" data-x="6200" data-y="6430"/);
    // The raster's range lies inside the CSV's depths (bilinear never leaves the nodes' range).
    const depths = fs
      .readFileSync(path.join(REPO, 'examples', 'offshore-cs4', 'depth.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => Number(l.split(',')[2]));
    const raster = /<image class="depth" data-min="([^"]*)" data-max="([^"]*)"/.exec(svg)!;
    assert.ok(Number(raster[1]) >= Math.min(...depths) - 1e-9 && Number(raster[2]) <= Math.max(...depths) + 1e-9, `${raster[1]}–${raster[2]}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
