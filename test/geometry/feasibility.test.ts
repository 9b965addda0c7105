/** checkFeasibility on published IEA37 layouts and on hand-made violations. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFeasibility, worstWithPositions } from '../../src/geometry/feasibility.js';
import { baselineLayout, cs1Baseline16, cs3Boundary, cs4Boundary, CS1_16_CIRCLE, D_10MW, D_335MW } from './fixtures.js';

test('published IEA37 baseline layouts are feasible up to the rounding of the published numbers', () => {
  // cs1: turbines on the 1300 m ring, coordinates rounded to 1e-4 m (error <= 0.5e-4·√2).
  const cs1 = cs1Baseline16();
  const ring = checkFeasibility(CS1_16_CIRCLE, cs1.x, cs1.y, 2 * D_335MW, 0.5e-4 * Math.SQRT2);
  assert.equal(ring.feasible, true, ring.worst ?? '');
  // cs3/cs4: turbines sit on boundary vertices that the boundary file rounds to 0.1 m, so a
  // turbine can be up to 0.05·√2 m outside; spacing is 2 D.
  for (const [boundary, layout] of [
    [cs3Boundary(), baselineLayout('cs3')],
    [cs4Boundary(), baselineLayout('cs4')],
  ] as const) {
    const report = checkFeasibility(boundary, layout.x, layout.y, 2 * D_10MW, 0.05 * Math.SQRT2);
    assert.equal(report.feasible, true, report.worst ?? '');
  }
  // At the default tolerance the rounding shows: turbine 19 of the cs3 baseline, at
  // [6098.2541, 3297.5471], is outside the corner [6098.3, 3297.5] (by 6.5 cm).
  const strict = checkFeasibility(cs3Boundary(), baselineLayout('cs3').x, baselineLayout('cs3').y, 2 * D_10MW);
  assert.equal(strict.feasible, false);
  assert.match(strict.worst ?? '', /^turbine 19 is 0\.06\d+ m outside the boundary$/);
  assert.ok(strict.maxViolationM > 0.06 && strict.maxViolationM < 0.05 * Math.SQRT2);
});

test('the worst violation is named in metres: boundary', () => {
  const x = new Float64Array([0, 500, -800, 1312.4, 0]);
  const y = new Float64Array([0, 0, 0, 0, 1301]);
  const report = checkFeasibility(CS1_16_CIRCLE, x, y, 260);
  assert.equal(report.feasible, false);
  assert.ok(Math.abs(report.maxViolationM - 12.4) < 1e-9);
  assert.equal(report.worst, 'turbine 3 is 12.4 m outside the boundary');
});

test('the worst violation is named in metres: spacing', () => {
  // Turbines 0–6 on the x axis 300 m apart; turbine 7 250.1 m north of turbine 2 (and
  // √(300² + 250.1²) = 390.6 m from turbines 1 and 3).
  const x = new Float64Array([-1000, -700, -400, -100, 200, 500, 800, -400]);
  const y = new Float64Array([0, 0, 0, 0, 0, 0, 0, 250.1]);
  const report = checkFeasibility(CS1_16_CIRCLE, x, y, 260);
  assert.equal(report.feasible, false);
  assert.ok(Math.abs(report.maxViolationM - 9.9) < 1e-9, `${report.maxViolationM}`);
  assert.equal(report.worst, 'turbines 2 and 7 are 250.1 m apart, minimum 260 m');
});

test('the larger of the two kinds of violation wins; small ones keep their digits', () => {
  const x = new Float64Array([1305, 0, 200]),
    y = new Float64Array([0, 0, 0]);
  assert.equal(checkFeasibility(CS1_16_CIRCLE, x, y, 260).worst, 'turbines 1 and 2 are 200.0 m apart, minimum 260 m');
  assert.equal(checkFeasibility(CS1_16_CIRCLE, x, y, 201).worst, 'turbine 0 is 5.0 m outside the boundary');
  const tiny = checkFeasibility(CS1_16_CIRCLE, new Float64Array([0, 259.9995]), new Float64Array([0, 0]), 260);
  assert.equal(tiny.worst, 'turbines 0 and 1 are 259.99950 m apart, minimum 260 m');
  assert.equal(tiny.feasible, false);
  assert.equal(checkFeasibility(CS1_16_CIRCLE, new Float64Array([0, 259.9995]), new Float64Array([0, 0]), 260, 1e-3).feasible, true);
});

test('no boundary: spacing only; nothing violated: worst is null', () => {
  const x = new Float64Array([1e6, 0]),
    y = new Float64Array([0, 0]);
  assert.deepEqual(checkFeasibility(null, x, y, 260), { feasible: true, maxViolationM: 0, worst: null, worstTurbines: [] });
  assert.deepEqual(checkFeasibility(null, new Float64Array(0), new Float64Array(0), 260), { feasible: true, maxViolationM: 0, worst: null, worstTurbines: [] });
});

test('a non-finite coordinate is reported, not compared', () => {
  const report = checkFeasibility(CS1_16_CIRCLE, new Float64Array([0, NaN]), new Float64Array([0, 5]), 260);
  assert.deepEqual(report, { feasible: false, maxViolationM: Infinity, worst: 'turbine 1 has a non-finite position (NaN, 5)', worstTurbines: [1] });
  assert.equal(worstWithPositions(report, new Float64Array([0, NaN]), new Float64Array([0, 5])), 'turbine 1 has a non-finite position (NaN, 5)');
});

test('the worst violation with the positions of its turbines (what a failed task says)', () => {
  // Turbine 3 at x = 1312.4 m is 12.4 m outside the 1300 m circle.
  const x = new Float64Array([0, 500, -800, 1312.4, 0]),
    y = new Float64Array([0, 0, 0, 0, 1200]);
  const outside = checkFeasibility(CS1_16_CIRCLE, x, y, 260);
  assert.deepEqual(outside.worstTurbines, [3]);
  assert.equal(worstWithPositions(outside, x, y), 'turbine 3 at (1312.4, 0.0) is 12.4 m outside the boundary');
  // Turbine 7 250.1 m north of turbine 2: the pair, each with its position.
  const sx = new Float64Array([-1000, -700, -400, -100, 200, 500, 800, -400]),
    sy = new Float64Array([0, 0, 0, 0, 0, 0, 0, 250.1]);
  const close = checkFeasibility(CS1_16_CIRCLE, sx, sy, 260);
  assert.deepEqual(close.worstTurbines, [2, 7]);
  assert.equal(worstWithPositions(close, sx, sy), 'turbines 2 at (-400.0, 0.0) and 7 at (-400.0, 250.1) are 250.1 m apart, minimum 260 m');
  assert.equal(worstWithPositions(checkFeasibility(CS1_16_CIRCLE, new Float64Array([0]), new Float64Array([0]), 260), [0], [0]), null);
});
