/**
 * physics/conditionFlows.ts: the recorded flow of every condition is the flow of that condition
 * solved alone (wakedAep.ts wakedFlow: the check-condition path of the PyWake comparisons), row by
 * row in the resource's order — a rose's bin d · nSpeeds + s, a time series' sample t in the
 * file's order (the solve visits samples grouped by direction) — and its weights times power give
 * the evaluator's AEP to 1e-12.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { PYWAKE_REFERENCE } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { conditionFlows } from '../../src/physics/conditionFlows.js';
import { wakedFlow } from '../../src/physics/wakedAep.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import { loadCase } from '../../src/io/caseFile.js';
import type { Case } from '../../src/case/case.js';

const reference = (f: string): Case => {
  const file = path.join(PYWAKE_REFERENCE, f);
  return caseFromReferenceDocument(readYamlFile(file), file);
};

function check(c: Case, rows: number[], condition: (k: number) => { dir: number; speed: number; ti: number }): void {
  const { x, y } = c.layout!;
  const f = conditionFlows([c.turbine], c.wind, c.model, x, y);
  const n = x.length;
  for (const k of rows) {
    const { dir, speed, ti } = condition(k);
    assert.equal(f.directionDeg[k], dir, `row ${k}: direction`);
    assert.equal(f.speed[k], speed, `row ${k}: speed`);
    assert.equal(f.ambientTi[k], ti, `row ${k}: TI`);
    if (speed < c.turbine.cutIn) {
      // wakedFlow leaves a condition below cut-in unsolved (0); here it is solved: no power, wakes only slow it.
      for (let i = 0; i < n; i++) {
        assert.equal(f.powerW[k * n + i], 0, `row ${k} turbine ${i}: power below cut-in`);
        assert.ok(f.wsEff[k * n + i] > 0 && f.wsEff[k * n + i] <= speed, `row ${k} turbine ${i}: ${f.wsEff[k * n + i]} m/s at ${speed} m/s`);
      }
      continue;
    }
    const alone = wakedFlow(c.turbine, c.model, x, y, dir, speed, ti);
    for (let i = 0; i < n; i++) {
      assert.ok(Math.abs(f.wsEff[k * n + i] - alone.wsEff[i]) <= 1e-12 * speed, `row ${k} turbine ${i}: ${f.wsEff[k * n + i]} vs ${alone.wsEff[i]}`);
      assert.ok(Math.abs(f.ct[k * n + i] - alone.ct[i]) <= 1e-12, `row ${k} turbine ${i}: ct`);
      assert.ok(Math.abs(f.powerW[k * n + i] - alone.powerW[i]) <= 1e-12 * Math.max(1, alone.powerW[i]), `row ${k} turbine ${i}: power`);
    }
  }
  let energy = 0;
  for (let e = 0; e < f.powerW.length; e++) energy += f.weight[e] * f.powerW[e];
  const aep = caseEvaluator(c).aep(x, y).aepMwh;
  assert.ok(Math.abs(energy * f.hoursPerYear * 1e-6 - aep) <= 1e-12 * aep, `Σ weight · power ${energy * f.hoursPerYear * 1e-6} vs AEP ${aep}`);
}

test('conditionFlows on a time series: row t is sample t of the file, solved alone', () => {
  const c = reference('timeseries-niayifar2016-random16.yaml');
  const s = c.wind.series!;
  assert.ok(s.turbulenceIntensity, 'the case has a TI per sample');
  // The samples are not in direction order, so a row order by direction would fail here.
  const n = s.directionsDeg.length;
  let sorted = true;
  for (let t = 1; t < n; t++) if (s.directionsDeg[t] < s.directionsDeg[t - 1]) sorted = false;
  assert.equal(sorted, false);
  check(c, [0, 1, 2, 7, Math.floor(n / 2), n - 1], (t) => ({ dir: s.directionsDeg[t], speed: s.speeds[t], ti: s.turbulenceIntensity![t] }));
});

test('conditionFlows on a rose: row d · nSpeeds + s is bin (d, s), also bins of probability 0 and below cut-in', () => {
  const c = { ...loadCase('iea37-cs4'), model: { ...loadCase('iea37-cs4').model } };
  const ns = c.wind.speeds.length,
    nd = c.wind.directionsDeg.length;
  const zero = Array.from(c.wind.probability).indexOf(0);
  const rows = [0, ns - 1, ns, 7 * ns + 3, nd * ns - 1, ...(zero >= 0 ? [zero] : [])];
  check(c, rows, (k) => ({ dir: c.wind.directionsDeg[Math.floor(k / ns)], speed: c.wind.speeds[k % ns], ti: c.wind.turbulenceIntensity }));
});
