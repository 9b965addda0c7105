/**
 * Per-point sector Weibull sites (physics/site/siteWeibull.ts, engine/siteWork.ts): the exact
 * gradient through each turbine's own probability (A, k and sector frequency interpolated at the
 * turbine) against central differences at turbines between grid nodes, on the PyWake Weibull
 * reference cases (their AEP against PyWake: pywakeReference.test.ts), and the probabilities
 * summing to one over a wide speed range (the Weibull's mass).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSiteReference, SITE_STEP, thinRose } from './siteReference.js';
import { centralDifferenceCheck } from './gradientCheck.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';

for (const file of ['site-weibull-bastankhah2014.yaml', 'site-weibull-speedup-niayifar2016.yaml', 'site-weibull-wrg-jensen1983.yaml']) {
  test(`Weibull site gradient ${file}: exact against central differences (16 turbines between grid nodes)`, () => {
    const c = loadSiteReference(file);
    c.wind = thinRose(c.wind, 6, false);
    const ev = caseEvaluator(c);
    const x = Float64Array.from(c.layout!.x),
      y = Float64Array.from(c.layout!.y);
    const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y, SITE_STEP);
    assert.ok(maxAbs > 0, `${file}: a gradient`);
    assert.ok(maxErr <= 1e-6 * maxAbs, `${file}: largest |exact − FD| ${maxErr.toExponential(2)} of largest |gradient| ${maxAbs.toExponential(2)}`);
  });
}

test('the gradient through the probabilities alone: one turbine, no wakes, no speed-up, between nodes', () => {
  const c = loadSiteReference('site-weibull-bastankhah2014.yaml');
  c.wind = thinRose(c.wind, 6, false);
  const ev = caseEvaluator(c);
  // x nodes every 500 m; y nodes −400, 300, 700, 1200, 2000, 2600.
  for (const [px, py] of [
    [812.5, 450.0],
    [1250.0, 1000.0],
    [1700.0, 2300.0],
  ]) {
    const x = Float64Array.of(px),
      y = Float64Array.of(py);
    const { maxAbs, maxErr } = centralDifferenceCheck(ev, x, y, SITE_STEP);
    assert.ok(maxAbs > 1e-2, `a gradient at (${px}, ${py}): ${maxAbs}`);
    assert.ok(maxErr <= 1e-7 * maxAbs, `(${px}, ${py}): |exact − FD| ${maxErr.toExponential(2)} of ${maxAbs.toExponential(2)}`);
  }
});

test("one turbine's probabilities over every direction and speeds 0…60 m/s sum to the sector frequencies' sum", () => {
  // A power curve flat at 1 W from 0 m/s: the AEP is hours × Σ P, so Σ P = AEP / (8760 h · 1e-6 MWh/Wh).
  const c = loadSiteReference('site-weibull-bastankhah2014.yaml');
  const speeds = Float64Array.from({ length: 121 }, (_, i) => i * 0.5);
  const directions = Float64Array.from({ length: 360 }, (_, i) => i);
  c.wind = {
    ...c.wind,
    directionsDeg: directions,
    speeds,
    probability: new Float64Array(360 * 121).fill(1 / (360 * 121)),
    turbulenceIntensityByBin: undefined,
  };
  const flat = { ...c.turbine, cutIn: 0, cutOut: 1000, power: { kind: 'table' as const, speeds: Float64Array.of(0, 100), powerW: Float64Array.of(1, 1) } };
  const aep = caseEvaluator({ ...c, turbine: flat }).aep(Float64Array.of(1250), Float64Array.of(1000)).aepMwh;
  const sum = aep / (8760 * 1e-6);
  // Bins from 0 to 60.25 m/s hold all of each Weibull but e^{−(60.25/A)^k} (< 1e-20 here); the frequencies of a point sum to 1 as written.
  assert.ok(Math.abs(sum - 1) <= 1e-9, `Σ P = ${sum}`);
});
