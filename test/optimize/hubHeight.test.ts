/**
 * Hub height as a design variable (optimize/hubHeight.ts, issue 31): on examples/hub-height-shear.yaml
 * (a speed-up falling with height under a power-law shear) the gradient method chooses the height
 * where s(h)·(h/h_ref)^α is largest — computed here from the case file's own numbers by a dense
 * scan, independently of wflo: every turbine's free stream is U·s(h)·f(h) and the rose stays below
 * the rated speed, so more of it is more energy — and without the shear the lowest height allowed;
 * the result file gives the same AEP alone; bad `optimize:` blocks are one line, exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO, runWflo, tempDir } from '../helpers.js';
import { loadCase } from '../../src/io/caseFile.js';
import { optimizeLayout } from '../../src/optimize/optimizeLayout.js';
import { InputError } from '../../src/util/errors.js';

const EXAMPLE = path.join(REPO, 'examples', 'hub-height-shear.yaml');
const TEXT = fs.readFileSync(EXAMPLE, 'utf8');

/** The example with its text changed (a lighter optimization: fewer turbines, no wake continuation). */
function variant(edit: (t: string) => string, name = 'case.yaml'): string {
  const file = path.join(tempDir('wflo-hub-'), name);
  fs.writeFileSync(file, edit(TEXT.replace('n_turbines: 9', 'n_turbines: 4')));
  return file;
}

/** The height in [min, max] where the case's s(h)·(h/h_ref)^α is largest (piecewise-linear s over its h grid), by a 1 cm scan. */
function bestHeight(doc: {
  site: { speedup: { h: number[]; values: number[][][] }; shear?: { power: { h_ref: number; alpha: number } } };
  optimize: { hub_height: { min: number; max: number } };
}): number {
  const g = doc.site.speedup.h,
    s = doc.site.speedup.values[0][0];
  const shear = doc.site.shear?.power;
  const { min, max } = doc.optimize.hub_height;
  let best = min,
    bestValue = -Infinity;
  for (let h = min; h <= max + 1e-9; h += 0.01) {
    let k = 0;
    while (k < g.length - 2 && h > g[k + 1]) k++;
    const sh = s[k] + ((s[k + 1] - s[k]) * (h - g[k])) / (g[k + 1] - g[k]);
    const v = sh * (shear ? (h / shear.h_ref) ** shear.alpha : 1);
    if (v > bestValue) {
      bestValue = v;
      best = h;
    }
  }
  return best;
}

test('optimize.hub_height: under shear the chosen height is where s(h)·f(h) peaks (interior), without shear the lowest allowed', () => {
  const withShear = variant((t) => t);
  const without = variant((t) => t.replace(/^ {2}shear: .*\n/m, ''));
  const chosen: number[] = [];
  for (const file of [withShear, without]) {
    const out = path.join(path.dirname(file), 'best.yaml');
    const r = runWflo(['optimize', file, '--method', 'gradient', '--wec', '1', '--seed', '2', '--json', '--out', out]);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /gives AEP/);
    const record = JSON.parse(r.stdout);
    const doc = parse(fs.readFileSync(file, 'utf8'));
    const expected = bestHeight(doc);
    assert.ok(Math.abs(record.hub_height_m - expected) < 0.5, `${path.basename(file)}: chose ${record.hub_height_m} m, s·f peaks at ${expected.toFixed(2)} m`);
    // The result file stands alone: its turbine has the chosen height, its AEP is the optimization's.
    const written = parse(fs.readFileSync(out, 'utf8'));
    assert.equal(written.turbine.hub_height, record.hub_height_m);
    const again = runWflo(['aep', out, '--json']);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).aep_mwh, record.aep_mwh);
    chosen.push(record.hub_height_m);
  }
  const [shear, none] = chosen;
  const { min, max } = parse(TEXT).optimize.hub_height;
  assert.ok(shear > min + 10 && shear < max - 10, `under shear an interior height: ${shear}`);
  assert.ok(none - min < 1e-6, `without shear the lowest allowed: ${none}`);
  assert.ok(shear - none > 20, `${shear} vs ${none}`);
});

test('bad optimize.hub_height: one line naming file:line and the field, exit 2', () => {
  const cases: [(t: string) => string, RegExp][] = [
    [
      (t) => t.replace('hub_height: {min: 70', 'hub_heigth: {min: 70'),
      /case\.yaml:\d+: optimize\.hub_heigth: unknown field 'hub_heigth'; did you mean 'hub_height'\?/,
    ],
    [(t) => t.replace('min: 70, max: 140', 'min: 140, max: 70'), /case\.yaml:\d+: optimize\.hub_height: min \(140 m\) must be below max \(70 m\)/],
    [
      (t) =>
        t
          .replace(/^ {2}shear: .*\n/m, '')
          .replace(/^ {4}h: \[.*\]\n/m, '')
          .replace(/\[1\.10, 1\.08, 1\.02, 0\.95\]/g, '1.1'),
      /case\.yaml:\d+: optimize\.hub_height: the hub height would change nothing: the case has no site shear and no speedup or ti field over h/,
    ],
    [(t) => t.replace('superposition: linear', 'superposition: linear\nground: mirror'), /case\.yaml:\d+: optimize\.hub_height: not with ground: mirror/],
    [(t) => t.replace('superposition: linear', 'superposition: weighted'), /case\.yaml:\d+: optimize\.hub_height: not with superposition: weighted/],
    [
      (t) => t.replace('min: 70', 'min: 60'),
      /case\.yaml:\d+: optimize\.hub_height\.min: min \(60 m\) is below half the rotor diameter \(130 m\): the blades would hit the ground/,
    ],
    [(t) => t.replace('max: 140', 'max: 155'), /case\.yaml:\d+: optimize\.hub_height: \[70, 155\] m reaches outside site\.speedup's h grid \(60…150 m/],
  ];
  for (const [edit, pattern] of cases) {
    const file = variant((t) => edit(t).replace('  outside: limit', '  outside: error'));
    const r = runWflo(['optimize', file, '--method', 'none']);
    assert.equal(r.status, 2, `${pattern}\n${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], pattern);
  }
  // Another method than gradient: refused by name, not silently ignored.
  const r = runWflo(['optimize', variant((t) => t), '--method', 'random']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr.trim(), /^wflo: optimizer method: 'random' does not optimize the hub height \(optimize\.hub_height\) yet; use method gradient/);
  // A cost objective set after the file was read (as `--objective` does): refused by the optimizer too.
  const c = loadCase(variant((t) => t));
  assert.throws(
    () => optimizeLayout({ ...c, objective: 'lcoe' }, { method: 'gradient' }, 1),
    (err: Error) => err instanceof InputError && /optimize\.hub_height: not with objective 'lcoe' yet/.test(err.message),
  );
});

test('a campaign farm whose case file frees the hub height is refused in one line (rows have no hub height to store or verify)', () => {
  const dir = tempDir('wflo-hub-campaign-');
  const campaign = path.join(dir, 'campaign.yaml');
  fs.writeFileSync(
    campaign,
    [
      'name: hub',
      `output: ${path.join(dir, 'out')}`,
      'farms:',
      `  - {id: 0, case: ${path.join(REPO, 'examples', 'hub-height-shear.yaml')}}`,
      'farm_types:',
      '  - {id: 0, turbine: iea37-3.35mw, n_turbines: 4}',
      'seeds: {start: 0, count: 1}',
      'optimizer: {method: gradient}',
      '',
    ].join('\n'),
  );
  const r = runWflo(['run', campaign]);
  assert.equal(r.status, 2, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /campaign\.yaml:\d+: farms\[0\]\.case: .*optimize\.hub_height .*not supported in campaigns/);
  assert.ok(!fs.existsSync(path.join(dir, 'out', 'ledger.sqlite')), 'nothing written');
  fs.rmSync(dir, { recursive: true, force: true });
});
