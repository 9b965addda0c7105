/**
 * The weighted-sum superposition's exact gradient (superposition/weightedSumGradient.ts) against
 * central finite differences: Zong & Porté-Agel 2020 with its default weighted sum on the V80 and
 * 72 × 23 rose of the PyWake reference cases (test/data/reference/zong2020-*.yaml), on random
 * layouts of 9 to 16 turbines and on the 5D grid of zong2020-grid5x5.yaml turned by 17° (the
 * grid as given has pairs exactly crosswind to the rose's 5° directions, where the AEP has kinks:
 * the downstream order flips). Then the options the weighted sum takes (deficit reference,
 * effective TI, added turbulence, induction, wake expansion continuation, the other Gaussian
 * models) on a smaller rose. The replay the gradient makes of the solve must give the solve's AEP
 * bit for bit. Last, `wflo optimize --method gradient` on a Zong weighted-sum case.
 *
 * The weighted-sum AEP is not continuous everywhere: a source joins the weighted set when its local
 * deficit reaches δ·U (δ = 0.01), which changes every weight of that target (PyWake's rule; a jump of
 * a few cm/s at one turbine in one condition), and the iteration count of the U_c solve is discrete.
 * A central difference straddling such a surface measures the jump, not the slope: on the reference
 * rose, layouts of seeds 33, 34 and 38 (16 turbines, 30–41 tried) have one within ±1e-3 m of some
 * coordinate. The layouts below have none, so every coordinate is checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE, runWflo, tempDir } from '../helpers.js';
import { loadCase } from '../../src/io/caseFile.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import { weightedSumSetup } from '../../src/physics/wakedAep.js';
import { evaluateWeightedSum } from '../../src/physics/superposition/weightedSum.js';
import { weightedSumGradient } from '../../src/physics/superposition/weightedSumGradient.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { createRng } from '../../src/util/rng.js';
import { centralDifferenceCheck } from './gradientCheck.js';

function referenceCase(name: string) {
  const full = path.join(PYWAKE_REFERENCE, name);
  return caseFromReferenceDocument(readYamlFile(full), full);
}

/** n turbines uniform in a square, at least 2D = 160 m apart (closer, the near wake's curvature swamps h = 1e-3 m differences). */
function randomLayout(seed: number, n: number, side: number): { x: Float64Array; y: Float64Array } {
  const rng = createRng(seed);
  const x = new Float64Array(n),
    y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    do {
      x[i] = rng.uniform(0, side);
      y[i] = rng.uniform(0, side);
    } while (Array.from({ length: i }, (_, k) => Math.hypot(x[i] - x[k], y[i] - y[k])).some((r) => r < 160));
  }
  return { x, y };
}

function assertGradient(label: string, ev: ReturnType<typeof caseEvaluator>, x: Float64Array, y: Float64Array): void {
  const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y);
  assert.ok(maxAbs > 1e-3, `${label}: gradient should not vanish (max |g| = ${maxAbs})`);
  assert.ok(maxErr <= 1e-6 * maxAbs, `${label}: max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
}

test('Zong 2020 weighted sum, reference turbine and rose: exact gradient = central differences (random 9–16 turbines, turned 5D grid)', () => {
  const c = referenceCase('zong2020-random16.yaml');
  assert.equal(c.model.superposition, 'weighted');
  const ev = caseEvaluator(c);
  for (const [seed, n] of [
    [31, 9],
    [32, 12],
    [35, 16],
  ] as const) {
    const { x, y } = randomLayout(seed, n, 1800);
    assertGradient(`random ${n} (seed ${seed})`, ev, x, y);
  }
  const g = referenceCase('zong2020-grid5x5.yaml');
  assert.equal(g.model.superposition, 'weighted');
  const turn = (17 * Math.PI) / 180,
    gx = g.layout!.x,
    gy = g.layout!.y;
  const x = Float64Array.from(gx, (v, i) => v * Math.cos(turn) - gy[i] * Math.sin(turn));
  const y = Float64Array.from(gx, (v, i) => v * Math.sin(turn) + gy[i] * Math.cos(turn));
  assertGradient('5D grid turned 17°', caseEvaluator(g), x, y);
});

test('the gradient replays the weighted-sum solve: same AEP bit for bit, same iteration counts used', () => {
  for (const name of ['zong2020-random16.yaml', 'zong2020-grid5x5.yaml']) {
    const c = referenceCase(name);
    const setup = weightedSumSetup(c.turbine, c.wind, c.model);
    const x = Float64Array.from(c.layout!.x),
      y = Float64Array.from(c.layout!.y);
    const solve = evaluateWeightedSum(setup, x, y);
    // The iteration counts are the solve's lockstep ones: some steps stop early, some run to max_iter.
    assert.ok(solve.iterations.some((k) => k > 1) && solve.iterations.some((k) => k >= 1 && k < 5), `${name}: iterations ${solve.iterations.join(',')}`);
    const replay = weightedSumGradient(setup, x, y, solve.iterations);
    assert.equal(replay.aepMwh, solve.aepMwh, name);
    replay.perTurbineMwh.forEach((v, i) => assert.equal(v, solve.perTurbineMwh[i], `${name} turbine ${i}`));
    // And the evaluator's AEP with the gradient is the PyWake-checked one.
    const withGradient = caseEvaluator(c).aepWithGradient(x, y);
    assert.ok(Math.abs(withGradient.aepMwh - c.expected!.aepMwh) <= 1e-9 * c.expected!.aepMwh);
  }
});

// A smaller rose for the option sweep (directions off the 5° grid, several speeds).
const ref = referenceCase('zong2020-random16.yaml');
const smallWind = {
  ...roseFromSectors([7, 61, 133, 199, 262, 311], [0.1, 0.2, 0.15, 0.25, 0.2, 0.1], [4.7, 6.3, 8.1, 10.7, 13.9], null),
  turbulenceIntensity: 0.08,
};
const variants: FarmModelSpec[] = [
  { wake: 'zong2020', superposition: 'weighted' },
  { wake: 'zong2020', superposition: 'weighted', deficitReference: 'free-stream' },
  { wake: 'zong2020', superposition: 'weighted', useEffectiveTi: false },
  { wake: 'zong2020', superposition: 'weighted', turbulence: 'none' },
  { wake: 'zong2020', superposition: 'weighted', ct2a: 'mom1d' },
  { wake: 'zong2020', superposition: 'weighted', params: { wec: 2 } },
  { wake: 'niayifar2016', superposition: 'weighted' },
  { wake: 'bastankhah2014', superposition: 'weighted', turbulence: 'crespo-hernandez' },
  { wake: 'turbopark2022', superposition: 'weighted' },
  { wake: 'bastankhah2014', superposition: 'weighted', ct2a: 'madsen', deficitReference: 'source-effective' },
  { wake: 'iea37', superposition: 'weighted', inflow: 'waked' },
];

for (const model of variants) {
  test(`weighted sum: exact gradient = central differences for ${JSON.stringify(model)}`, () => {
    const ev = createFarmEvaluator(ref.turbine, smallWind, model);
    for (const seed of [41, 42]) {
      const { x, y } = randomLayout(seed, 10, 1400);
      assertGradient(`${JSON.stringify(model)} seed ${seed}`, ev, x, y);
    }
  });
}

test('wflo optimize --method gradient runs a Zong weighted-sum case: a feasible layout, a higher AEP, the weighted-sum AEP of that layout', () => {
  const dir = tempDir('wflo-weighted-');
  try {
    const file = path.join(dir, 'zong.yaml');
    fs.writeFileSync(file, 'name: zong-weighted\nbase: iea37-cs1-16\nturbine: v80\nwake_model: zong2020\nsuperposition: weighted\n');
    const r = runWflo(['optimize', file, '--method', 'gradient', '--seed', '1', '--max-iterations', '20', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.feasible, true);
    assert.ok(out.aep_mwh > 1.02 * out.aep_initial_mwh, `AEP ${out.aep_initial_mwh} → ${out.aep_mwh}`);
    const c = loadCase(file);
    assert.equal(c.model.superposition, 'weighted');
    const again = caseEvaluator(c).aep(Float64Array.from(out.x), Float64Array.from(out.y)).aepMwh;
    assert.ok(Math.abs(again - out.aep_mwh) <= 1e-9 * again, `${again} vs ${out.aep_mwh}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
