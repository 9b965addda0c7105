/** Initial layouts (random and grid) and the small helpers boundingBox, boundaryArea. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomFeasibleLayout } from '../../src/geometry/sampling.js';
import { gridLayout } from '../../src/geometry/gridLayout.js';
import { checkFeasibility } from '../../src/geometry/feasibility.js';
import { boundingBox } from '../../src/geometry/boundingBox.js';
import { boundaryArea } from '../../src/geometry/boundaryArea.js';
import { containsPoint } from '../../src/geometry/containsPoint.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import type { Boundary } from '../../src/geometry/boundary.js';
import { createRng } from '../../src/util/rng.js';
import { InputError } from '../../src/util/errors.js';
import { cs3Boundary, cs4Boundary, CS1_16_CIRCLE, D_10MW, iea37BoundaryParts } from './fixtures.js';

/** The three IEA37 requests: cs1 16 turbines at 2 D (260 m), cs3 25 and cs4 81 at 2 D (396 m). */
const requests: [string, Boundary, number, number][] = [
  ['cs1 circle', CS1_16_CIRCLE, 16, 260],
  ['cs3', cs3Boundary(), 25, 2 * D_10MW],
  ['cs4', cs4Boundary(), 81, 2 * D_10MW],
];

test('randomFeasibleLayout gives feasible layouts for 50 seeds (cs1 circle, cs3, cs4)', () => {
  for (const [name, boundary, count, spacing] of requests) {
    const site = prepareBoundary(boundary);
    for (let seed = 0; seed < 50; seed++) {
      const { x, y } = randomFeasibleLayout(site, count, spacing, createRng(seed));
      assert.equal(x.length, count);
      const report = checkFeasibility(site, x, y, spacing, 0);
      assert.equal(report.feasible, true, `${name} seed ${seed}: ${report.worst}`);
      assert.equal(report.maxViolationM, 0);
    }
  }
});

test('randomFeasibleLayout: the same seed gives a bit-identical layout, another seed another layout', () => {
  for (const [name, boundary, count, spacing] of requests) {
    const first = randomFeasibleLayout(boundary, count, spacing, createRng(12345));
    const again = randomFeasibleLayout(boundary, count, spacing, createRng(12345));
    const other = randomFeasibleLayout(boundary, count, spacing, createRng(12346));
    assert.deepStrictEqual(again, first, name);
    assert.ok(Buffer.compare(Buffer.from(first.x.buffer), Buffer.from(again.x.buffer)) === 0, `${name}: bytes`);
    assert.notDeepStrictEqual(other, first, name);
  }
});

test('randomFeasibleLayout is uniform over a multipolygon: turbines per part follow the part areas', () => {
  const parts = Object.values(iea37BoundaryParts('cs4'));
  const partAreas = parts.map((vertices) => boundaryArea({ kind: 'polygon', vertices }));
  const total = partAreas.reduce((a, b) => a + b, 0);
  const count = 4000;
  const { x, y } = randomFeasibleLayout(cs4Boundary(), count, 0, createRng(7));
  partAreas.forEach((area, p) => {
    const part = prepareBoundary({ kind: 'polygon', vertices: parts[p]! });
    let inPart = 0;
    for (let i = 0; i < count; i++) if (containsPoint(part, x[i]!, y[i]!)) inPart++;
    const expected = (count * area) / total;
    const sigma = Math.sqrt(expected * (1 - area / total));
    assert.ok(Math.abs(inPart - expected) < 5 * sigma, `part ${p}: ${inPart} turbines, expected ${expected.toFixed(0)} ± ${sigma.toFixed(0)}`);
  });
});

test('an impossible request throws InputError after the attempt budget', () => {
  // At most 3 points fit 2000 m apart in a 1300 m circle (an equilateral triangle of side 2000 m
  // has circumradius 1155 m; four need a square of side 2000 m, circumradius 1414 m).
  assert.throws(
    () => randomFeasibleLayout(CS1_16_CIRCLE, 100, 2000, createRng(1)),
    (error: unknown) =>
      error instanceof InputError &&
      /^cannot place 100 turbines at spacing 2000 m inside the boundary after 110000 attempts \(at most [123] placed at once\)$/.test(error.message),
  );
  assert.throws(() => randomFeasibleLayout(CS1_16_CIRCLE, 5, 100, createRng(1), 3), /after 3 attempts/);
  assert.throws(() => randomFeasibleLayout(CS1_16_CIRCLE, 2.5, 100, createRng(1)), InputError);
  assert.throws(() => randomFeasibleLayout(CS1_16_CIRCLE, 5, -1, createRng(1)), InputError);
  assert.deepEqual(randomFeasibleLayout(CS1_16_CIRCLE, 0, 100, createRng(1)), { x: new Float64Array(0), y: new Float64Array(0) });
});

test('gridLayout: n feasible points, deterministic, at least the minimum spacing apart', () => {
  for (const [name, boundary, count, spacing] of requests) {
    const first = gridLayout(boundary, count, spacing);
    assert.equal(first.x.length, count);
    const report = checkFeasibility(boundary, first.x, first.y, spacing, 0);
    assert.equal(report.feasible, true, `${name}: ${report.worst}`);
    assert.deepStrictEqual(gridLayout(boundary, count, spacing), first);
  }
  // The pitch grows beyond the minimum when the site has room: 4 points in a 1000 m square
  // are much further apart than 10 m.
  const square: Boundary = {
    kind: 'polygon',
    vertices: [
      [0, 0],
      [1000, 0],
      [1000, 1000],
      [0, 1000],
    ],
  };
  const roomy = gridLayout(square, 4, 10);
  const closest = Math.min(...[1, 2, 3].map((j) => Math.hypot(roomy.x[0]! - roomy.x[j]!, roomy.y[0]! - roomy.y[j]!)));
  assert.ok(closest >= 400, `closest ${closest}`);
  // 1300 m circle, 2000 m pitch: only the centre fits.
  assert.throws(
    () => gridLayout(CS1_16_CIRCLE, 4, 2000),
    (error: unknown) =>
      error instanceof InputError && error.message === 'cannot place 4 turbines on a grid at spacing 2000 m inside the boundary (at most 1 fit)',
  );
});

test('boundingBox and boundaryArea', () => {
  assert.deepEqual(boundingBox(CS1_16_CIRCLE), { minX: -1300, minY: -1300, maxX: 1300, maxY: 1300 });
  assert.equal(boundaryArea(CS1_16_CIRCLE), Math.PI * 1300 * 1300);
  // cs3: extremes of the published vertex list.
  assert.deepEqual(boundingBox(cs3Boundary()), { minX: 6098.3, minY: 126.9, maxX: 10363.8, maxY: 6611.1 });
  // Triangle IVb by Heron's formula (independent of the shoelace sum used by the code).
  const [a, b, c] = iea37BoundaryParts('cs4')['IVb']!;
  const side = (p: readonly number[], q: readonly number[]): number => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!);
  const [ab, bc, ca] = [side(a!, b!), side(b!, c!), side(c!, a!)];
  const half = (ab + bc + ca) / 2;
  const heron = Math.sqrt(half * (half - ab) * (half - bc) * (half - ca));
  const ivb = boundaryArea({ kind: 'polygon', vertices: [a!, b!, c!] });
  assert.ok(Math.abs(ivb - heron) < 1e-6 * heron, `${ivb} vs ${heron}`);
  // A multipolygon's area is the sum of its parts.
  const parts = Object.values(iea37BoundaryParts('cs4')).map((vertices) => boundaryArea({ kind: 'polygon', vertices }));
  assert.ok(Math.abs(boundaryArea(cs4Boundary()) - parts.reduce((s, v) => s + v, 0)) < 1e-6);
});
