/**
 * Several turbine models and neighbours under a time series: the waked engine visits the series
 * sample by sample for a farm of several models beside fixed neighbours exactly as it does for a
 * rose. The series' AEP and gradient must equal the weighted sum over its samples of the same
 * farm under one-condition winds (each sample's direction, speed and TI alone), computed through
 * the same mixed evaluator; and a constant-TI series must differ from the per-sample-TI one with a
 * TI-dependent model (the TI is really used per sample).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { PYWAKE_REFERENCE as REFERENCE } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import { windFromSeries } from '../../src/physics/windSeries.js';
import type { WindResource } from '../../src/physics/windResource.js';
import { createRng } from '../../src/util/rng.js';

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

for (const file of ['neighbours-niayifar2016.yaml', 'mixed-niayifar2016.yaml', 'mixed-bastankhah2014.yaml']) {
  test(`${file} under a 40-sample series: AEP and gradient = weighted sum of the samples alone`, () => {
    const c = caseFromReferenceDocument(readYamlFile(path.join(REFERENCE, file)), path.join(REFERENCE, file));
    assert.ok(c.turbines || c.neighbours, `${file} is a farm of several models or with neighbours`);
    const rng = createRng(2026);
    const n = 40;
    const directionsDeg = Array.from({ length: n }, () => Math.round(rng.uniform(0, 360) * 10) / 10);
    directionsDeg[5] = directionsDeg[3]; // two samples from one direction share its geometry
    // Ten samples within two 1° bins of the series' summary rose: the engine visits each exact
    // direction (more directions than the summary has bins).
    for (let k = 0; k < 10; k++) directionsDeg[10 + k] = 100.1 + 0.2 * k;
    const speeds = Array.from({ length: n }, () => rng.uniform(3.5, 22));
    const ti = Array.from({ length: n }, () => rng.uniform(0.04, 0.2));
    const weights = Array.from({ length: n }, () => rng.uniform(0.5, 2));
    const series = windFromSeries({ directionsDeg, speeds, weights, turbulenceIntensity: ti });
    const { x, y } = c.layout!;
    const whole = caseEvaluator({ ...c, wind: series }).aepWithGradient(x, y);

    const wSum = weights.reduce((a, b) => a + b, 0);
    let aep = 0;
    const gx = new Float64Array(x.length),
      gy = new Float64Array(x.length);
    for (let t = 0; t < n; t++) {
      const alone: WindResource = {
        directionsDeg: Float64Array.of(directionsDeg[t]),
        speeds: Float64Array.of(speeds[t]),
        probability: Float64Array.of(1),
        turbulenceIntensity: ti[t],
      };
      const r = caseEvaluator({ ...c, wind: alone }).aepWithGradient(x, y);
      const w = weights[t] / wSum;
      aep += w * r.aepMwh;
      for (let i = 0; i < x.length; i++) {
        gx[i] += w * r.gradX[i];
        gy[i] += w * r.gradY[i];
      }
    }
    assert.ok(aep > 0);
    assert.ok(rel(whole.aepMwh, aep) <= 1e-12, `${file}: series ${whole.aepMwh} vs samples ${aep}`);
    let gMax = 0;
    for (let i = 0; i < x.length; i++) gMax = Math.max(gMax, Math.abs(gx[i]), Math.abs(gy[i]));
    for (let i = 0; i < x.length; i++) {
      assert.ok(Math.abs(whole.gradX[i] - gx[i]) <= 1e-10 * gMax, `${file}: ∂/∂x${i} ${whole.gradX[i]} vs ${gx[i]}`);
      assert.ok(Math.abs(whole.gradY[i] - gy[i]) <= 1e-10 * gMax, `${file}: ∂/∂y${i} ${whole.gradY[i]} vs ${gy[i]}`);
    }
    if (file.includes('niayifar')) {
      const flat = windFromSeries({ directionsDeg, speeds, weights, turbulenceIntensity: ti.map(() => 0.1) });
      const other = caseEvaluator({ ...c, wind: flat }).aep(x, y).aepMwh;
      assert.ok(rel(other, whole.aepMwh) > 1e-4, `${file}: per-sample TI changes the AEP (${other} vs ${whole.aepMwh})`);
    }
  });
}
