/**
 * The treated wind of every direction treatment is an ordinary resource, so the exact AEP gradient
 * of a treated case holds: against central differences for spread, Gaussian and refined roses of
 * the IEA37 cs1 case (iea37 wake) and of a Bastankhah case with a speed table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCase } from '../../src/io/builtinCases.js';
import { withDirections } from '../../src/optimize/caseDirections.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import type { DirectionTreatment } from '../../src/physics/directionTreatment.js';
import { centralDifferenceCheck, randomLayout } from './gradientCheck.js';

const treatments: DirectionTreatment[] = [
  { kind: 'spread', n: 20 },
  { kind: 'gaussian', sigmaDeg: 5, n: 9 },
  { kind: 'refine', stepDeg: 2 },
];

for (const t of treatments) {
  for (const wake of ['iea37', 'bastankhah2014'] as const) {
    test(`${t.kind} (${JSON.stringify(t)}), ${wake} wake: exact gradient against central differences`, () => {
      const base = builtinCase('iea37-cs1-16');
      const c = withDirections({ ...base, model: { ...base.model, wake } }, t);
      assert.ok(c.wind.directionsDeg.length > 16);
      const { x, y } = randomLayout(7, 12, 2000);
      const { maxAbs, maxErr } = centralDifferenceCheck(caseEvaluator(c), x, y);
      assert.ok(maxAbs > 0);
      assert.ok(maxErr <= 1e-6 * maxAbs, `max |exact − FD| = ${maxErr.toExponential(3)}, relative ${(maxErr / maxAbs).toExponential(3)}`);
    });
  }
}
