/**
 * `wflo plot` of a case on a site that is not uniform draws the field under the layout
 * (views/siteFieldDrawing.ts): the raster's pixels, decoded by Pillow (Debian's python3-pil), run
 * from the ramp's light end where the speed-up is lowest to its dark end where it is highest, in
 * the field's order; the key's range is the field's min and max (plateaus the frame reaches); the TI
 * field on request, in percent; grey where the grid ends; a misspelt --site-field is one line, exit 2.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { stringify } from 'yaml';
import { PYTHON, runWflo, tempDir } from '../helpers.js';
import { OUTSIDE_GRID, SITE_RAMP } from '../../src/views/siteFieldDrawing.js';

const dir = tempDir('wflo-site-plot-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const hasPil = spawnSync(PYTHON, ['-c', 'import PIL'], { encoding: 'utf8' }).status === 0;

// Speed-up 0.9 west of x = 500, 1.2 east of x = 1500, linear between; TI 6 % south, 12 % north.
const SITE = {
  speedup: {
    x: [-5000, 500, 1500, 5000],
    y: [-5000, 5000],
    values: [
      [0.9, 0.9],
      [0.9, 0.9],
      [1.2, 1.2],
      [1.2, 1.2],
    ],
  },
  ti: {
    x: [-5000, 5000],
    y: [-5000, 0, 2000, 5000],
    values: [
      [0.06, 0.06, 0.12, 0.12],
      [0.06, 0.06, 0.12, 0.12],
    ],
  },
};
function writeCase(name: string, site: unknown): string {
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(
    file,
    stringify({
      name,
      turbine: 'v80',
      wind: 'iea37-cs1',
      wake_model: 'bastankhah2014',
      boundary: {
        polygon: [
          [0, 0],
          [2000, 0],
          [2000, 2000],
          [0, 2000],
        ],
      },
      site,
      layout: { x: [200, 1000, 1800, 600], y: [300, 1000, 1700, 1600] },
    }),
  );
  return file;
}

/** The site raster of an SVG: its attributes and its pixels (RGB rows), decoded by Pillow. */
function raster(svg: string): { attrs: Record<string, string>; rows: number[][][] } {
  const tag = /<image class="site-field"[^>]*>/.exec(svg);
  assert.ok(tag, 'a site-field raster');
  const attrs = Object.fromEntries([...tag[0].matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const png = attrs.href.replace(/^data:image\/png;base64,/, '');
  const py = spawnSync(
    PYTHON,
    [
      '-c',
      `
import sys, io, json, base64
from PIL import Image
im = Image.open(io.BytesIO(base64.b64decode(sys.stdin.read()))).convert('RGB')
w, h = im.size
print(json.dumps([[list(im.getpixel((c, r))) for c in range(w)] for r in range(h)]))
`,
    ],
    { input: png, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  assert.equal(py.status, 0, py.stderr);
  return { attrs, rows: JSON.parse(py.stdout) as number[][][] };
}
/** Equal to the last bits a multilinear weighting of equal corner values may leave. */
const near = (a: number, b: number): void => assert.ok(Math.abs(a - b) <= 1e-12, `${a} vs ${b}`);
const lum = (p: number[]): number => 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];

test("the speed-up under the layout: light where it is lowest, dark where highest, in the field's order; the key is its range", {
  skip: hasPil ? false : 'needs python3-pil (Debian)',
}, () => {
  const svgFile = path.join(dir, 'speedup.svg');
  const r = runWflo(['plot', writeCase('hill', SITE), '-o', svgFile]);
  assert.equal(r.status, 0, r.stderr);
  const svg = fs.readFileSync(svgFile, 'utf8');
  const { attrs, rows } = raster(svg);
  assert.equal(attrs['data-field'], 'speedup');
  // The frame reaches both plateaus: the range is the field's min and max.
  near(Number(attrs['data-min']), 0.9);
  near(Number(attrs['data-max']), 1.2);
  assert.match(svg, /speed-up 0\.900–1\.200 × rose speed/);
  for (const row of [rows[0], rows[Math.floor(rows.length / 2)], rows[rows.length - 1]]) {
    assert.deepEqual(row[0], [...SITE_RAMP[0]], "west: the lowest speed-up, the ramp's light end");
    assert.deepEqual(row[row.length - 1], [...SITE_RAMP[SITE_RAMP.length - 1]], 'east: the highest, the dark end');
    // The field rises (weakly) from west to east: the colours darken in the same order.
    for (let c = 1; c < row.length; c++) assert.ok(lum(row[c]) <= lum(row[c - 1]) + 1e-9, `column ${c}: ${row[c - 1]} then ${row[c]}`);
    assert.ok(
      lum(row[Math.floor(row.length / 2)]) < lum(row[0]) && lum(row[Math.floor(row.length / 2)]) > lum(row[row.length - 1]),
      'the ramp between the plateaus',
    );
  }
});

test('--site-field ti draws the TI in percent (north dark); none draws no field; outside the grid is grey', {
  skip: hasPil ? false : 'needs python3-pil (Debian)',
}, () => {
  const file = writeCase('ti', SITE);
  const tiSvg = path.join(dir, 'ti.svg');
  assert.equal(runWflo(['plot', file, '--site-field', 'ti', '-o', tiSvg]).status, 0);
  const svg = fs.readFileSync(tiSvg, 'utf8');
  const { attrs, rows } = raster(svg);
  assert.equal(attrs['data-field'], 'ti');
  near(Number(attrs['data-min']), 0.06);
  near(Number(attrs['data-max']), 0.12);
  assert.match(svg, /ambient TI 6\.0–12\.0 %/);
  const column = (c: number) => rows.map((row) => row[c]);
  const mid = column(Math.floor(rows[0].length / 2));
  assert.deepEqual(mid[0], [...SITE_RAMP[SITE_RAMP.length - 1]], 'north (top row): the highest TI');
  assert.deepEqual(mid[mid.length - 1], [...SITE_RAMP[0]], 'south: the lowest');
  for (let r = 1; r < mid.length; r++) assert.ok(lum(mid[r]) >= lum(mid[r - 1]) - 1e-9, `row ${r}`);

  const noneSvg = path.join(dir, 'none.svg');
  assert.equal(runWflo(['plot', file, '--site-field', 'none', '-o', noneSvg]).status, 0);
  assert.doesNotMatch(fs.readFileSync(noneSvg, 'utf8'), /site-field/);

  // A grid that stops at x = 1500 (outside: limit lets the case through): the cells east of it are grey.
  const short = {
    speedup: {
      x: [-5000, 500, 1500],
      y: [-5000, 5000],
      values: [
        [0.9, 0.9],
        [0.9, 0.9],
        [1.2, 1.2],
      ],
    },
    outside: 'limit',
  };
  const shortSvg = path.join(dir, 'short.svg');
  const s = runWflo(['plot', writeCase('short', short), '-o', shortSvg]);
  assert.equal(s.status, 0, s.stderr);
  const east = raster(fs.readFileSync(shortSvg, 'utf8')).rows[0];
  assert.deepEqual(east[east.length - 1], [...OUTSIDE_GRID]);
  assert.deepEqual(east[0], [...SITE_RAMP[0]]);
});

test("on a site each turbine's gross is its model alone at its own position: the plot's gross is the sum of `wflo aep` of each turbine alone", () => {
  const file = writeCase('gross', SITE);
  const r = runWflo(['plot', file, '--json', '-o', path.join(dir, 'gross.svg')]);
  assert.equal(r.status, 0, r.stderr);
  const drawn = JSON.parse(r.stdout) as { layouts: { aepMwh: number; grossAepMwh: number; wakeLoss: number }[] };
  const x = [200, 1000, 1800, 600],
    y = [300, 1000, 1700, 1600];
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const one = path.join(dir, `alone${i}.yaml`);
    fs.writeFileSync(
      one,
      stringify({ name: 'alone', turbine: 'v80', wind: 'iea37-cs1', wake_model: 'bastankhah2014', site: SITE, layout: { x: [x[i]], y: [y[i]] } }),
    );
    const a = runWflo(['aep', one, '--json']);
    assert.equal(a.status, 0, a.stderr);
    sum += (JSON.parse(a.stdout) as { aep_mwh: number }).aep_mwh;
  }
  assert.ok(Math.abs(drawn.layouts[0].grossAepMwh - sum) <= 1e-9 * sum, `${drawn.layouts[0].grossAepMwh} vs ${sum}`);
  assert.ok(drawn.layouts[0].wakeLoss > 0 && drawn.layouts[0].aepMwh < sum, 'wakes only take energy away');
});

test('a misspelt --site-field: one line naming the flag, exit 2', () => {
  const r = runWflo(['plot', writeCase('bad', SITE), '--site-field', 'tii', '-o', path.join(dir, 'bad.svg')]);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /--site-field: expected speedup, ti, none, got 'tii'; did you mean 'ti'\?/);
  assert.ok(!fs.existsSync(path.join(dir, 'bad.svg')));
});
