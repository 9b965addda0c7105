/**
 * Sites that are not uniform (physics/site/, engine/siteWork.ts, io/siteFields.ts): the exact
 * gradient through speed-up, TI and shear against central differences at turbines between grid
 * nodes (the PyWake site reference cases' fields, turbines and models; the AEP itself is checked
 * against PyWake by pywakeReference.test.ts and mixedReference.test.ts), the interpolation
 * convention on hand-computed numbers, and the strict reading of `site:` blocks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSiteReference, SITE_STEP, thinRose } from './siteReference.js';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { centralDifferenceCheck } from './gradientCheck.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import { makeSiteField, sampleField, type FieldSample } from '../../src/physics/site/siteField.js';

const GRADIENT_CASES = [
  'site-speedup-bastankhah2014.yaml', // speed-up, source-effective reference
  'site-speedup-jensen1983.yaml', // the source's free stream as the deficit reference (r̄_q)
  'site-ti-niayifar2016.yaml', // a TI field: effective TI, Crespo–Hernández from the source's ambient TI
  'site-wd-niayifar2016.yaml', // speed-up by direction (between the 90° sectors, and across 270 → 360)
  'mixed-shear-power-bastankhah2014.yaml', // shear at two hub heights
];

for (const file of GRADIENT_CASES) {
  test(`site gradient ${file}: exact against central differences (turbines between grid nodes)`, () => {
    const c = loadSiteReference(file);
    c.wind = thinRose(c.wind, 6);
    const ev = caseEvaluator(c);
    const x = Float64Array.from(c.layout!.x),
      y = Float64Array.from(c.layout!.y);
    const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y, SITE_STEP);
    assert.ok(maxAbs > 0, `${file}: a gradient`);
    assert.ok(maxErr <= 1e-6 * maxAbs, `${file}: largest |exact − FD| ${maxErr.toExponential(2)} of largest |gradient| ${maxAbs.toExponential(2)}`);
  });
}

test('the gradient through the field alone: one turbine on the speed-up hill, no wakes', () => {
  const c = loadSiteReference('site-ti-niayifar2016.yaml');
  c.wind = thinRose(c.wind, 6);
  const ev = caseEvaluator(c);
  // Between nodes on both axes (x nodes every 500 m; y nodes 300, 700, 1200).
  for (const [px, py] of [
    [812.5, 450.0],
    [1250.0, 1000.0],
    [1700.0, 1900.0],
  ]) {
    const x = Float64Array.of(px),
      y = Float64Array.of(py);
    const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y, SITE_STEP);
    assert.ok(maxAbs > 1e-3, `a field gradient at (${px}, ${py}): ${maxAbs}`);
    assert.ok(maxErr <= 1e-7 * maxAbs, `(${px}, ${py}): |exact − FD| ${maxErr.toExponential(2)} of ${maxAbs.toExponential(2)}`);
  }
});

test('a site of speed-up 1 and the rose TI gives the uniform AEP (to rounding)', () => {
  const c = loadSiteReference('site-speedup-bastankhah2014.yaml');
  const uniform = caseEvaluator({ ...c, model: { ...c.model, site: undefined } }).aep(c.layout!.x, c.layout!.y).aepMwh;
  const speedup = c.model.site!.speedup!;
  const flat = makeSiteField('speedup', speedup.dims, speedup.coords, new Float64Array(speedup.values.length).fill(1));
  const one = caseEvaluator({ ...c, model: { ...c.model, site: { ...c.model.site!, speedup: flat } } }).aep(c.layout!.x, c.layout!.y).aepMwh;
  assert.ok(Math.abs(one - uniform) <= 1e-13 * uniform, `${one} vs ${uniform}`);
  // and the hill changes it
  const hill = caseEvaluator(c).aep(c.layout!.x, c.layout!.y).aepMwh;
  assert.ok(hill > uniform * 1.01, `${hill} vs ${uniform}`);
});

test("interpolation as XRSite's: multilinear, irregular axes, direction wrap, outside refused", () => {
  // f(x, y) = 2 + x/100 + 3·y/1000 + x·y/1e5 on an irregular y grid: multilinear, so exact anywhere inside.
  const gx = Float64Array.of(0, 100, 200),
    gy = Float64Array.of(0, 300, 1000);
  const v = new Float64Array(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) v[i * 3 + j] = 2 + gx[i] / 100 + (3 * gy[j]) / 1000 + (gx[i] * gy[j]) / 1e5;
  const f = makeSiteField('speedup', ['x', 'y'], [gx, gy], v);
  const s: FieldSample = { value: 0, dx: 0, dy: 0 };
  // (150, 650): cell x [100, 200], y [300, 1000]; bilinear in the cell = the function (it is bilinear).
  assert.equal(sampleField(f, 150, 650, 0, 0, s), null);
  assert.ok(Math.abs(s.value - (2 + 1.5 + 1.95 + 0.975)) < 1e-12, String(s.value));
  assert.ok(Math.abs(s.dx - (1 / 100 + 650 / 1e5)) < 1e-12 && Math.abs(s.dy - (3 / 1000 + 150 / 1e5)) < 1e-12, `${s.dx} ${s.dy}`);
  // Grid edges are inside; beyond them is refused, naming the dimension and the range.
  assert.equal(sampleField(f, 200, 1000, 0, 0, s), null);
  assert.deepEqual(sampleField(f, 200.5, 10, 0, 0, s), { dim: 'x', value: 200.5, min: 0, max: 200 });
  // outside: limit (PyWake's bounds='limit'): the edge's values, no derivative across the edge.
  assert.equal(sampleField(f, 250, 650, 0, 0, s, true), null);
  assert.ok(Math.abs(s.value - (2 + 2 + 1.95 + 1.3)) < 1e-12 && s.dx === 0 && Math.abs(s.dy - (3 / 1000 + 200 / 1e5)) < 1e-12, `${s.value} ${s.dx} ${s.dy}`);
  // Direction: sectors 0, 90, 180, 270 close at 360 (value of 0); 315° is halfway from 270 to 360.
  const w = makeSiteField(
    'speedup',
    ['x', 'y', 'wd'],
    [Float64Array.of(0, 1), Float64Array.of(0, 1), Float64Array.of(0, 90, 180, 270)],
    Float64Array.from({ length: 16 }, (_, k) => [1.0, 1.2, 1.4, 1.6][k % 4]),
  );
  assert.equal(sampleField(w, 0.5, 0.5, 0, 315, s), null);
  assert.ok(Math.abs(s.value - 1.3) < 1e-12, String(s.value));
  // A grid that does not close the circle covers its own span only.
  const open = makeSiteField('ti', ['x', 'y', 'wd'], [Float64Array.of(0, 1), Float64Array.of(0, 1), Float64Array.of(0, 90)], new Float64Array(8).fill(0.1));
  assert.deepEqual(sampleField(open, 0, 0, 0, 100, s), { dim: 'wd', value: 100, min: 0, max: 90 });
});

/** A case file on the speed-up reference's turbine and wind, with `site` written as given. */
function caseWithSite(site: string, layout = 'layout: {x: [500, 1500], y: [500, 900]}'): string {
  const dir = tempDir('wflo-site-');
  const file = path.join(dir, 'case.yaml');
  fs.writeFileSync(file, ['turbine: iea37-3.35mw', 'wind: iea37-cs1', 'wake_model: bastankhah2014', 'superposition: linear', layout, site, ''].join('\n'));
  return file;
}

// The IEA37 rose blows at 9.8 m/s, the turbine's rated speed: a speed-up below 1 is what shows.
const GOOD = 'site:\n  speedup:\n    x: [0, 1000, 2000]\n    y: [0, 1000]\n    values: [[0.9, 0.85], [0.8, 0.9], [0.9, 0.9]]';

test('wflo aep with an inline site: the AEP moves with the speed-up', () => {
  const withSite = runWflo(['aep', caseWithSite(GOOD), '--json']);
  assert.equal(withSite.status, 0, withSite.stderr);
  const without = runWflo(['aep', caseWithSite(''), '--json']);
  assert.equal(without.status, 0, without.stderr);
  assert.ok(JSON.parse(withSite.stdout).aep_mwh < JSON.parse(without.stdout).aep_mwh * 0.8);
});

test('bad site blocks: one line naming file:line and the field, exit 2', () => {
  const cases: [string, RegExp][] = [
    [GOOD.replace('y: [0, 1000]', 'y: [1000, 0]'), /case\.yaml:\d+: site\.speedup\.y\[1\]: 0 does not follow 1000: a grid must be strictly ascending/],
    [GOOD.replace('[0.8, 0.9]', '[0.8]'), /case\.yaml:\d+: site\.speedup\.values\[1\]: 1 entries, expected a list of 2/],
    [
      'site:\n  ti:\n    x: [0, 1000, 2000]\n    y: [0, 1000]\n    values: [[0.1, 0.1], [8, 9], [0.1, 0.1]]',
      /site\.ti\.values\[1\]\[0\]: 8 is not a turbulence intensity as a fraction .*write 0\.08/,
    ],
    [GOOD.replace('speedup:', 'speedups:'), /case\.yaml:\d+: site\.speedups: unknown field 'speedups'; did you mean 'speedup'\?/],
    [
      GOOD.replace('    x: [0, 1000, 2000]', '    x: [0, 1000, 2000]\n    wd: [0, 90, 200]').replace(
        '[[1.0, 1.1], [1.05, 1.2], [1.0, 1.0]]',
        '[[[1, 1, 1], [1, 1, 1]], [[1, 1, 1], [1, 1, 1]], [[1, 1, 1], [1, 1, 1]]]',
      ),
      /site\.speedup\.wd\[2\]: wind-direction sectors must be equally wide/,
    ],
  ];
  for (const [site, pattern] of cases) {
    const r = runWflo(['aep', caseWithSite(site), '--json']);
    assert.equal(r.status, 2, `${site}\n${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], pattern);
  }
  // A turbine outside the grid: named with its position, not extrapolated.
  const r = runWflo(['aep', caseWithSite(GOOD, 'layout: {x: [500, 2100], y: [500, 900]}'), '--json']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr.trim(), /case\.yaml:\d+: site\.speedup: turbine 1 at \(2100, 900\) is outside the field's grid \(x 0…2000, y 0…1000\)/);
  // A boundary an optimizer could fill beyond the grid: refused when read.
  const b = runWflo([
    'aep',
    caseWithSite(GOOD, 'boundary: {polygon: [[100, 100], [2500, 100], [2500, 900], [100, 900]]}\nlayout: {x: [500, 1500], y: [500, 900]}'),
    '--json',
  ]);
  assert.equal(b.status, 2, b.stderr);
  assert.match(
    b.stderr.trim(),
    /case\.yaml:\d+: site\.speedup: the boundary reaches outside the field's grid \(a corner of its bounding box, \(2500, 100\), is outside/,
  );
});

test('wflo optimize --out keeps the site: the result file alone gives the same AEP', () => {
  const file = caseWithSite(
    GOOD.replace('[0.9, 0.9]]', '[0.9, 0.9]]\n    wd: [0, 180]').replace(
      '[[0.9, 0.85], [0.8, 0.9], [0.9, 0.9]]',
      '[[[0.9, 0.95], [0.85, 0.8]], [[0.8, 0.9], [0.9, 0.9]], [[0.9, 0.9], [0.9, 0.9]]]',
    ),
  );
  const out = path.join(path.dirname(file), 'best.yaml');
  const r = runWflo(['optimize', file, '--method', 'none', '--initial', 'given', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /gives AEP/);
  const a = JSON.parse(runWflo(['aep', file, '--json']).stdout).aep_mwh,
    b = JSON.parse(runWflo(['aep', out, '--json']).stdout).aep_mwh;
  assert.equal(b, a);
  assert.match(fs.readFileSync(out, 'utf8'), /wd: \[0, 180\]/);
});
