/**
 * Direction treatments through the CLI (issue 28): the treated AEP of `wflo aep --directions` and
 * of a case file's `directions:` equals `wflo aep` of the rose written out by hand (every bin's
 * sub-directions listed as an ordinary rose) to 1e-12, and PyWake's evaluation of a written-out
 * spread table (test/data/reference/spread4-*.yaml, bench/peers/pywake_spread.py) to 1e-9; the
 * benchmark AEP (the bins as listed) is printed beside it; a result file of `wflo optimize
 * --directions` carries the treatment and gives its AEP back; bad input gets one line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { IEA37, PYWAKE_REFERENCE, runWflo, tempDir } from '../helpers.js';

const dir = tempDir('wflo-directions-');
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

/** The IEA37 cs1 rose as published: 16 bins, one speed, their frequencies. */
function cs1Rose(): { bins: number[]; speed: number; p: number[]; ti: number } {
  const doc = parse(fs.readFileSync(path.join(IEA37, 'cs1-2', 'iea37-windrose.yaml'), 'utf8'));
  const props = doc.definitions.wind_inflow.properties;
  return { bins: props.direction.bins, speed: props.speed.default, p: props.probability.default, ti: props.ti.default };
}

function aepJson(args: string[]): Record<string, unknown> & { aep_mwh: number } {
  const r = runWflo(['aep', ...args, '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** A case file on iea37-cs1-16 (its ring layout, turbine, site) with `extra` lines. */
function caseFile(name: string, extra: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `base: iea37-cs1-16\n${extra}`);
  return file;
}

test('spread 20: the treated AEP of the 16-bin rose equals the written-out 320-direction rose to 1e-12, flag and field alike', () => {
  const rose = cs1Rose();
  const n = 20,
    width = 360 / rose.bins.length;
  const directions: number[] = [],
    probability: number[][] = [];
  rose.bins.forEach((theta, d) => {
    for (let j = 0; j < n; j++) {
      directions.push((((theta + ((j + 0.5) / n - 0.5) * width) % 360) + 360) % 360);
      probability.push([rose.p[d] / n]);
    }
  });
  const windFile = path.join(dir, 'spread20-rose.yaml');
  fs.writeFileSync(
    windFile,
    `wind_direction: [${directions.join(', ')}]\nwind_speed: [${rose.speed}]\nprobability: [${probability.map((r) => `[${r[0]}]`).join(', ')}]\nturbulence_intensity: ${rose.ti}\n`,
  );
  const explicit = aepJson([caseFile('explicit.yaml', `wind: ${windFile}\n`)]);
  assert.equal(explicit.n_directions, 320);
  const byFlag = aepJson(['iea37-cs1-16', '--directions', 'spread:20']);
  const byField = aepJson([caseFile('field.yaml', 'directions: {spread: 20}\n')]);
  for (const treated of [byFlag, byField]) {
    assert.ok(rel(treated.aep_mwh, explicit.aep_mwh) <= 1e-12, `treated ${treated.aep_mwh} vs written out ${explicit.aep_mwh}`);
    assert.deepEqual(treated.directions, { spread: 20 });
    assert.equal(treated.n_directions_evaluated, 320);
    // The energy of each listed bin: the sum of its sub-directions' in the written-out rose.
    const perBin = treated.per_direction_mwh as number[];
    assert.equal(perBin.length, 16);
    const explicitPer = explicit.per_direction_mwh as number[];
    perBin.forEach((v, d) => {
      const sum = explicitPer.slice(d * n, (d + 1) * n).reduce((s, e) => s + e, 0);
      assert.ok(rel(v, sum) <= 1e-12, `bin ${d}: ${v} vs ${sum}`);
    });
  }
  // Beside it, the benchmark AEP: the bins as listed, which is the plain evaluation.
  const bins = aepJson(['iea37-cs1-16']);
  assert.equal(byFlag.aep_bins_mwh, bins.aep_mwh);
  assert.equal(bins.directions, undefined);
  // The issue's figure for the published baseline ring, spread over 20: 372 039 MWh.
  assert.equal(Math.round(byFlag.aep_mwh), 372039);
  // `--directions bins` turns a file's treatment off.
  assert.equal(aepJson([caseFile('field2.yaml', 'directions: {spread: 20}\n'), '--directions', 'bins']).aep_mwh, bins.aep_mwh);
});

test('gaussian and refine: the treated AEP equals the written-out rose to 1e-12', () => {
  const rose = cs1Rose();
  // Gaussian σ = 6° on 7 points over ±3σ: offsets at the cells' midpoints, normal weights normalised.
  const sigma = 6,
    m = 7;
  const offsets = Array.from({ length: m }, (_, j) => -3 * sigma + ((j + 0.5) * 6 * sigma) / m);
  const dens = offsets.map((o) => Math.exp(-0.5 * (o / sigma) ** 2));
  const total = dens.reduce((s, v) => s + v, 0);
  const dirs: number[] = [],
    probs: number[] = [];
  rose.bins.forEach((theta, d) =>
    offsets.forEach((o, j) => {
      dirs.push((((theta + o) % 360) + 360) % 360);
      probs.push((rose.p[d] * dens[j]) / total);
    }),
  );
  const g = path.join(dir, 'gauss-rose.yaml');
  fs.writeFileSync(
    g,
    `wind_direction: [${dirs.join(', ')}]\nwind_speed: [${rose.speed}]\nprobability: [${probs.map((p) => `[${p}]`).join(', ')}]\nturbulence_intensity: ${rose.ti}\n`,
  );
  const explicitG = aepJson([caseFile('g.yaml', `wind: ${g}\n`)]);
  const treatedG = aepJson(['iea37-cs1-16', '--directions', `gaussian:${sigma}:${m}`]);
  assert.ok(rel(treatedG.aep_mwh, explicitG.aep_mwh) <= 1e-12, `${treatedG.aep_mwh} vs ${explicitG.aep_mwh}`);
  // Refined to every 7.5°: frequencies interpolated linearly between the bins' centres (every 22.5°), renormalised.
  const step = 7.5,
    k = 360 / step;
  const fine = Array.from({ length: k }, (_, i) => {
    const at = (i * step) / 22.5,
      lo = Math.floor(at) % 16,
      hi = (lo + 1) % 16,
      t = at - Math.floor(at);
    return (1 - t) * rose.p[lo] + t * rose.p[hi];
  });
  const sum = fine.reduce((s, v) => s + v, 0);
  const r = path.join(dir, 'refined-rose.yaml');
  fs.writeFileSync(
    r,
    `wind_direction: [${fine.map((_, i) => i * step).join(', ')}]\nwind_speed: [${rose.speed}]\nprobability: [${fine.map((p) => `[${p / sum}]`).join(', ')}]\nturbulence_intensity: ${rose.ti}\n`,
  );
  const explicitR = aepJson([caseFile('r.yaml', `wind: ${r}\n`)]);
  const treatedR = aepJson([caseFile('rf.yaml', 'directions: {refine_deg: 7.5}\n')]);
  assert.ok(rel(treatedR.aep_mwh, explicitR.aep_mwh) <= 1e-12, `${treatedR.aep_mwh} vs ${explicitR.aep_mwh}`);
});

test('PyWake: the spread of the 72 × 23 table over 4 sub-directions matches PyWake on the written-out table to 1e-9, in total and per turbine', () => {
  const refFile = path.join(PYWAKE_REFERENCE, 'spread4-bastankhah2014-random16.yaml');
  const ref = parse(fs.readFileSync(refFile, 'utf8'));
  // The same case on the table as listed, treated by wflo.
  const { spread_of: spreadOf, expected, ...rest } = ref;
  const listed = path.join(dir, 'listed-random16.yaml');
  fs.writeFileSync(listed, JSON.stringify({ ...rest, wind: spreadOf.wind }));
  assert.deepEqual(spreadOf.directions, { spread: 4 });
  const out = aepJson([listed, '--directions', 'spread:4']);
  assert.equal(out.n_directions_evaluated, 288);
  assert.ok(rel(out.aep_mwh, expected.aep_mwh) <= 1e-9, `wflo ${out.aep_mwh} vs PyWake ${expected.aep_mwh}`);
  (out.per_turbine_mwh as number[]).forEach((v, i) =>
    assert.ok(rel(v, expected.aep_per_turbine_mwh[i]) <= 1e-9, `turbine ${i}: ${v} vs ${expected.aep_per_turbine_mwh[i]}`),
  );
  // The bins as listed give another AEP (the treatment is not a no-op here).
  assert.ok(rel(out.aep_bins_mwh as number, expected.aep_mwh) > 1e-5);
});

test('text output names both measures', () => {
  const r = runWflo(['aep', 'iea37-cs1-16', '--directions', 'spread:20']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^AEP +372038\.\d+ MWh with directions spread:20: each bin spread over its width in 20 sub-directions \(320 directions evaluated\)$/m);
  assert.match(r.stdout, /^AEP bins +366941\.\d+ MWh on the 16 bins as listed \(the benchmark measure\)/m);
});

test('wflo optimize --directions: the objective is the treated AEP, deterministic per seed; the result file carries the treatment and gives the AEP back', () => {
  const out = path.join(dir, 'robust.yaml');
  const args = ['optimize', 'iea37-cs1-16', '--method', 'gradient', '--directions', 'spread:8', '--max-iterations', '40', '--json'];
  const a = runWflo([...args, '-o', out]);
  assert.equal(a.status, 0, a.stderr);
  const b = runWflo(args);
  const ra = JSON.parse(a.stdout),
    rb = JSON.parse(b.stdout);
  assert.deepEqual(ra.directions, { spread: 8 });
  assert.equal(ra.aep_mwh, rb.aep_mwh);
  assert.deepEqual(ra.x, rb.x);
  assert.equal(a.stderr.includes('note:'), false, a.stderr);
  assert.match(fs.readFileSync(out, 'utf8'), /^directions:\s*\n?\s*spread: 8$/m);
  const back = aepJson([out]);
  assert.equal(back.aep_mwh, ra.aep_mwh);
  assert.ok(back.aep_bins_mwh !== ra.aep_mwh);
});

function expectBadInput(args: string[], pattern: RegExp): void {
  const r = runWflo(args);
  assert.equal(r.status, 2, `exit code 2 expected, got ${r.status}; stderr: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line expected, got:\n${r.stderr}`);
  assert.match(lines[0], pattern);
  assert.equal(r.stdout, '');
}

test('bad directions: one line naming the file, line and field (or the flag)', () => {
  expectBadInput(['aep', caseFile('b1.yaml', 'directions:\n  spred: 20\n')], /b1\.yaml:3: directions\.spred: unknown field 'spred'; did you mean 'spread'\?/);
  expectBadInput(
    ['aep', caseFile('b2.yaml', 'directions: {spread: 2.5}\n')],
    /b2\.yaml:2: directions\.spread: expected a whole number of sub-directions per bin from 1 to 1000, got 2\.5/,
  );
  expectBadInput(['aep', caseFile('b3.yaml', 'directions: {spread: 1001}\n')], /b3\.yaml:2: directions\.spread: .*from 1 to 1000, got 1001/);
  expectBadInput(
    ['aep', caseFile('b4.yaml', 'directions:\n  gaussian: {sigma_deg: 5, point: 3}\n')],
    /b4\.yaml:3: directions\.gaussian\.point: unknown field 'point'; did you mean 'points'\?/,
  );
  expectBadInput(['aep', caseFile('b5.yaml', 'directions: {refine_deg: 7}\n')], /b5\.yaml:2: directions\.refine_deg: 7° does not divide 360°/);
  expectBadInput(['aep', caseFile('b6.yaml', 'directions: spread\n')], /b6\.yaml:2: directions: expected bins, \{spread: N\}.*got 'spread'/);
  expectBadInput(
    ['aep', caseFile('b7.yaml', 'directions: {spread: 4, refine_deg: 1}\n')],
    /b7\.yaml:2: directions: give one of spread, gaussian, refine_deg \(got spread and refine_deg\)/,
  );
  expectBadInput(
    ['aep', 'iea37-cs1-16', '--directions', 'spread:0'],
    /^wflo: --directions: spread: expected a whole number of sub-directions per bin from 1 to 1000, got '0'$/,
  );
  expectBadInput(
    ['aep', 'iea37-cs1-16', '--directions', 'gaus:3'],
    /--directions: expected bins, spread:N, gaussian:SIGMA:N or refine:STEP, got 'gaus:3'; did you mean 'gaussian'\?/,
  );
  expectBadInput(['aep', 'iea37-cs1-16', '--directions', 'gaussian:0:5'], /--directions: gaussian: sigma: .*got '0'/);
  expectBadInput(['optimize', 'iea37-cs1-16', '--directions', 'refine:7'], /--directions: refine: 7° does not divide 360°/);
  // A time series has no bins: spread and refine refused, gaussian allowed.
  const csv = path.join(dir, 'series.csv');
  fs.writeFileSync(csv, `wind_direction,wind_speed\n${Array.from({ length: 30 }, (_, t) => `${(t * 37.3) % 360},${6 + (t % 7)}`).join('\n')}\n`);
  expectBadInput(
    ['aep', caseFile('ts.yaml', `wind: ${csv}\ndirections: {spread: 4}\n`)],
    /ts\.yaml:3: directions: spread needs a binned rose; a time series has no bins/,
  );
  expectBadInput(
    ['aep', caseFile('ts2.yaml', `wind: ${csv}\n`), '--directions', 'refine:1'],
    /^wflo: --directions: refine needs a binned rose; a time series has no bins \(use gaussian:SIGMA:N/,
  );
  const g = aepJson([caseFile('ts3.yaml', `wind: ${csv}\ndirections: {gaussian: {sigma_deg: 4, points: 5}}\n`)]);
  assert.equal(g.n_samples, 30);
  assert.notEqual(g.aep_mwh, g.aep_bins_mwh);
});
