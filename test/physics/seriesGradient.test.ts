/**
 * Time series and per-bin turbulence without blockage: the exact AEP gradient against central
 * finite differences on random layouts (samples that share a direction, per-sample TI feeding the
 * TI-dependent wake widths and Crespo–Hernández, free-stream models routed to the waked engine);
 * and the parallel evaluator, which splits a series by the directions it visits, giving the same
 * AEP, energy by direction, per turbine and gradient as one thread (for a free-stream model too,
 * whose rose engine would see only the series' binned summary).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { createParallelEvaluator } from '../../src/physics/parallelAep.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { Turbine } from '../../src/physics/turbine.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import { windFromSeries } from '../../src/physics/windSeries.js';
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

/** 60 samples over 12 distinct directions (several samples per direction), each with its own TI, some below cut-in. */
function series(seed: number) {
  const rng = createRng(seed);
  const n = 60;
  const dirs = Array.from({ length: 12 }, () => Math.round(rng.uniform(0, 360) * 100) / 100);
  return windFromSeries({
    directionsDeg: Array.from({ length: n }, (_, t) => dirs[t % dirs.length]),
    speeds: Array.from({ length: n }, () => rng.uniform(2, 17)),
    turbulenceIntensity: Array.from({ length: n }, () => rng.uniform(0.04, 0.2)),
    weights: Array.from({ length: n }, () => (rng.uniform(0, 1) < 0.5 ? 10 : 20)),
  });
}

const variants: FarmModelSpec[] = [
  { wake: 'niayifar2016', superposition: 'linear' },
  { wake: 'niayifar2016', superposition: 'sos', turbulenceSuperposition: 'sos', rotorAverage: 'cgi4' },
  { wake: 'turbopark2022', superposition: 'sos' },
  { wake: 'bastankhah2014', superposition: 'linear' },
  { wake: 'iea37', superposition: 'sos' },
  { wake: 'iea37', superposition: 'sos', inflow: 'free-stream' },
  { wake: 'jensen', superposition: 'sos', ct2a: 'madsen', params: { k: 0.1 } },
  { wake: 'zong2020', superposition: 'linear' },
];

for (const model of variants) {
  test(`time series with a TI per sample: exact gradient = central differences for ${JSON.stringify(model)}`, () => {
    for (const seed of [21, 22]) {
      const wind = series(seed);
      assert.ok(wind.series && wind.series.speeds.length === 60);
      const { x, y } = layout(seed + 100, 10, 1600);
      const { maxAbs, maxErr } = centralDifferenceCheck(createFarmEvaluator(turbine, wind, model), x, y);
      assert.ok(maxAbs > 1e-3, `gradient should not vanish (max |g| = ${maxAbs})`);
      assert.ok(maxErr <= 1e-6 * maxAbs, `seed ${seed}: max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
    }
  });
}

test('a rose with a turbulence intensity per bin: exact gradient = central differences', () => {
  const base = {
    ...roseFromSectors([7, 61, 133, 199, 262, 311], [0.1, 0.2, 0.15, 0.25, 0.2, 0.1], [4.7, 6.3, 8.1, 10.7, 13.9], null),
    turbulenceIntensity: 0.08,
  };
  const rng = createRng(4);
  const wind = { ...base, turbulenceIntensityByBin: Float64Array.from(base.probability, () => rng.uniform(0.04, 0.2)) };
  for (const model of [
    { wake: 'niayifar2016', superposition: 'linear' },
    { wake: 'turbopark2022', superposition: 'sos' },
  ] as FarmModelSpec[]) {
    const { x, y } = layout(9, 10, 1600);
    const { maxAbs, maxErr } = centralDifferenceCheck(createFarmEvaluator(turbine, wind, model), x, y);
    assert.ok(maxAbs > 1e-3 && maxErr <= 1e-6 * maxAbs, `${JSON.stringify(model)}: relative ${(maxErr / maxAbs).toExponential(3)}`);
  }
});

test('the parallel evaluator over a time series equals one thread (waked and free-stream models)', async () => {
  const wind = series(31);
  const { x, y } = layout(32, 12, 1600);
  // iea37 at the free-stream inflow: a model of the rose-only free-stream engine.
  for (const model of [
    { wake: 'niayifar2016', superposition: 'linear' },
    { wake: 'iea37', superposition: 'sos', inflow: 'free-stream' },
  ] as FarmModelSpec[]) {
    const one = createFarmEvaluator(turbine, wind, model).aepWithGradient(x, y);
    const par = createParallelEvaluator(turbine, wind, model, 2);
    try {
      assert.equal(par.threads, 2);
      const r = await par.aepWithGradient(x, y);
      const close = (a: number, b: number, what: string) =>
        assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${JSON.stringify(model)} ${what}: ${a} vs ${b}`);
      close(r.aepMwh, one.aepMwh, 'AEP');
      one.perDirectionMwh.forEach((v, d) => close(r.perDirectionMwh[d], v, `direction ${d}`));
      one.perTurbineMwh.forEach((v, i) => close(r.perTurbineMwh[i], v, `turbine ${i}`));
      one.gradX.forEach((v, i) => {
        close(r.gradX[i], v, `dx ${i}`);
        close(r.gradY[i], one.gradY[i], `dy ${i}`);
      });
    } finally {
      await par.close();
    }
  }
});
