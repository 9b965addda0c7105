/**
 * The blockage solve's exact gradient (adjoint of the fixed point, blockageSolve.ts) against
 * central finite differences of converged AEPs on random layouts, with the wake models and
 * options it is combined with; the self-similarity model's own partial derivatives against
 * central differences; and that blockage acts where it must (a slow-down upstream, a speed-up
 * downstream beside the wake, a front row slowed by the farm behind it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Turbine } from '../../src/physics/turbine.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { windFromSeries } from '../../src/physics/windSeries.js';
import { blockageFlow } from '../../src/physics/blockageSolve.js';
import { induction, pairGeometry, sourceGamma } from '../../src/physics/blockage/selfSimilarity2020.js';
import { createRng } from '../../src/util/rng.js';
import { centralDifferenceCheck, randomLayout as layout } from './gradientCheck.js';

// A tabulated turbine shaped like a 2 MW, 80 m machine (Ct falling above rated, 0 outside the table).
const turbine: Turbine = {
  name: 'table-2mw',
  diameter: 80,
  hubHeight: 70,
  ratedPowerW: 2e6,
  cutIn: 3,
  cutOut: 25,
  cutOutInclusive: true,
  power: { kind: 'table', speeds: Float64Array.from([3, 5, 7, 9, 11, 13, 25]), powerW: Float64Array.from([0, 0.15e6, 0.46e6, 1.0e6, 1.66e6, 1.96e6, 2e6]) },
  thrust: { kind: 'table', speeds: Float64Array.from([3, 4, 6, 9, 12, 15, 25]), ct: Float64Array.from([0, 0.82, 0.8, 0.8, 0.7, 0.25, 0.05]), outside: 'zero' },
};
const wind = {
  ...roseFromSectors([7, 61, 133, 199, 262, 311], [0.1, 0.2, 0.15, 0.25, 0.2, 0.1], [4.7, 6.3, 8.1, 10.7, 13.9], null),
  turbulenceIntensity: 0.08,
};

const variants: FarmModelSpec[] = [
  { wake: 'bastankhah2014', superposition: 'linear', blockage: 'selfsimilarity2020' },
  { wake: 'bastankhah2014', superposition: 'sos', blockage: 'selfsimilarity2020', rotorAverage: 'cgi4' },
  { wake: 'niayifar2016', superposition: 'linear', blockage: 'selfsimilarity2020' },
  { wake: 'niayifar2016', superposition: 'sos', turbulenceSuperposition: 'sos', blockage: 'selfsimilarity2020' },
  { wake: 'niayifar2016', superposition: 'linear', turbulenceSuperposition: 'linear', blockage: 'selfsimilarity2020' },
  { wake: 'turbopark2022', superposition: 'sos', blockage: 'selfsimilarity2020' },
  { wake: 'jensen', superposition: 'sos', ct2a: 'madsen', params: { k: 0.1 }, blockage: 'selfsimilarity2020' },
  { wake: 'zong2020', superposition: 'linear', blockage: 'selfsimilarity2020' },
  { wake: 'iea37', superposition: 'sos', blockage: 'selfsimilarity2020' },
  { wake: 'bastankhah2014', superposition: 'max', blockage: 'selfsimilarity2020', params: { wec: 2 } },
];

for (const model of variants) {
  test(`blockage gradient matches central differences: ${JSON.stringify(model)}`, () => {
    for (const seed of [3, 8]) {
      const { x, y } = layout(seed, 9, 1400);
      const ev = createFarmEvaluator(turbine, wind, model);
      const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y);
      assert.ok(maxAbs > 1e-3, `gradient should not vanish (max |g| = ${maxAbs})`);
      assert.ok(maxErr <= 1e-6 * maxAbs, `seed ${seed}: max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
    }
  });
}

test('blockage gradient over a time series with a turbulence intensity per sample', () => {
  const rng = createRng(5);
  const n = 40;
  const series = windFromSeries({
    directionsDeg: Array.from({ length: n }, () => rng.uniform(0, 360)),
    speeds: Array.from({ length: n }, () => rng.uniform(4, 16)),
    turbulenceIntensity: Array.from({ length: n }, () => rng.uniform(0.04, 0.2)),
    weights: Array.from({ length: n }, () => rng.uniform(1, 3)),
  });
  const { x, y } = layout(11, 8, 1200);
  const ev = createFarmEvaluator(turbine, series, { wake: 'niayifar2016', superposition: 'linear', blockage: 'selfsimilarity2020' });
  const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y);
  assert.ok(maxErr <= 1e-6 * maxAbs, `relative ${(maxErr / maxAbs).toExponential(3)}`);
});

test('self-similarity 2020 partial derivatives match central differences', () => {
  const geom = new Float64Array(10),
    gam = new Float64Array(8),
    g = new Float64Array(3);
  const R = 40;
  const at = (dx: number, dy: number, ct: number): number => {
    pairGeometry(dx, dy, R, geom, 0);
    sourceGamma(ct, gam, 0);
    return induction(geom, 0, ct, gam, 0, null);
  };
  // Upstream and downstream, near (|x| < 1), between (1 < |x| < 6) and far (|x| > 6), both sides.
  for (const [dx, dy, ct] of [
    [-30, 12, 0.8],
    [-150, -35, 0.7],
    [-400, 90, 0.5],
    [60, 150, 0.8],
    [-200, 0, 0.3],
    [900, -300, 0.75],
  ] as const) {
    pairGeometry(dx, dy, R, geom, 0);
    sourceGamma(ct, gam, 0);
    const v = induction(geom, 0, ct, gam, 0, g);
    assert.ok(dx < 0 ? v > 0 : v < 0, `slow-down upstream, speed-up downstream (dx = ${dx}: ${v})`);
    const h = 1e-5,
      hc = 1e-7;
    const fd = [
      (at(dx + h, dy, ct) - at(dx - h, dy, ct)) / (2 * h),
      (at(dx, dy + h, ct) - at(dx, dy - h, ct)) / (2 * h),
      (at(dx, dy, ct + hc) - at(dx, dy, ct - hc)) / (2 * hc),
    ];
    fd.forEach((f, i) =>
      assert.ok(Math.abs(f - g[i]) <= 1e-7 * Math.max(Math.abs(f), 1e-9) + 1e-12, `(${dx}, ${dy}, ${ct}) partial ${i}: exact ${g[i]} vs FD ${f}`),
    );
  }
});

test('blockage slows a turbine upstream and speeds up one downstream beside the wake', () => {
  const spec: FarmModelSpec = { wake: 'bastankhah2014', superposition: 'linear', blockage: 'selfsimilarity2020' };
  // Wind from the west (270°): turbine 0 at the origin, 1 upstream, 2 downstream beside the wake.
  const x = Float64Array.from([0, -300, 300]),
    y = Float64Array.from([0, 0, 250]);
  const flow = blockageFlow(turbine, spec, x, y, 270, 9, 0.08);
  assert.ok(flow.wsEff[1] < 9 - 1e-3, `upstream turbine slowed by the induction of the others (${flow.wsEff[1]})`);
  assert.ok(flow.wsEff[2] > 9 + 1e-4, `downstream turbine outside the wake sped up (${flow.wsEff[2]})`);
  // Upstream of a 4 x 4 block: the front row sees less than the free stream.
  const bx: number[] = [],
    by: number[] = [];
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++) {
      bx.push(400 * i);
      by.push(400 * j);
    }
  const block = blockageFlow(turbine, spec, Float64Array.from(bx), Float64Array.from(by), 270, 9, 0.08);
  for (let j = 0; j < 4; j++) assert.ok(block.wsEff[j] < 9 - 1e-3, `front-row turbine ${j}: ${block.wsEff[j]}`);
});
