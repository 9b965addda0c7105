/**
 * Worker-thread evaluation over blocks of directions equals the one-thread waked engine (AEP,
 * per-turbine, per-direction and gradient), and the workers shut down.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { createParallelEvaluator } from '../../src/physics/parallelAep.js';
import type { Turbine } from '../../src/physics/turbine.js';
import { uniformRose } from '../../src/physics/windResource.js';
import { createRng } from '../../src/util/rng.js';

const turbine: Turbine = {
  name: 'table',
  diameter: 80,
  hubHeight: 70,
  ratedPowerW: 2e6,
  cutIn: 3,
  cutOut: 25,
  power: { kind: 'table', speeds: Float64Array.from([3, 6, 9, 12, 25]), powerW: Float64Array.from([0, 0.3e6, 1e6, 1.9e6, 2e6]) },
  thrust: { kind: 'table', speeds: Float64Array.from([3, 6, 9, 12, 25]), ct: Float64Array.from([0.8, 0.8, 0.78, 0.6, 0.1]) },
};

test('parallel evaluation over directions equals one thread', async () => {
  const wind = uniformRose(36, [5, 8, 11, 14]);
  const rng = createRng(3);
  const x = Float64Array.from({ length: 20 }, () => rng.uniform(0, 2000));
  const y = Float64Array.from({ length: 20 }, () => rng.uniform(0, 2000));
  const model = { wake: 'niayifar2016' as const, superposition: 'linear' as const };
  const one = createFarmEvaluator(turbine, wind, model).aepWithGradient(x, y);
  const par = createParallelEvaluator(turbine, wind, model, 3);
  try {
    const many = await par.aepWithGradient(x, y);
    assert.equal(par.threads, 3);
    assert.ok(Math.abs(many.aepMwh - one.aepMwh) <= 1e-12 * one.aepMwh);
    one.perDirectionMwh.forEach((v, d) => assert.ok(Math.abs(many.perDirectionMwh[d] - v) <= 1e-12 * Math.max(v, 1)));
    one.perTurbineMwh.forEach((v, i) => assert.ok(Math.abs(many.perTurbineMwh[i] - v) <= 1e-11 * v));
    const scale = Math.max(...one.gradX.map(Math.abs), ...one.gradY.map(Math.abs));
    one.gradX.forEach((v, i) => assert.ok(Math.abs(many.gradX[i] - v) <= 1e-11 * scale));
    one.gradY.forEach((v, i) => assert.ok(Math.abs(many.gradY[i] - v) <= 1e-11 * scale));
    const again = await par.aep(x, y);
    assert.ok(Math.abs(again.aepMwh - one.aepMwh) <= 1e-12 * one.aepMwh);
  } finally {
    await par.close();
  }
});
