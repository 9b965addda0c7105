/** Signed boundary distance: values against hand geometry, containment, and exact gradients. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundaryDistance } from '../../src/geometry/boundaryDistance.js';
import { containsPoint } from '../../src/geometry/containsPoint.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import type { Boundary } from '../../src/geometry/boundary.js';
import { createRng } from '../../src/util/rng.js';
import { assertGradientClose, centralDifference, cs3Boundary, cs4Boundary, CS1_16_CIRCLE, randomPoints } from './fixtures.js';

/** The gradient at turbine i, with −0 read as 0. */
const gradientAt = (dx: Float64Array, dy: Float64Array, i: number): number[] => [dx[i]! + 0, dy[i]! + 0];

const near = (actual: number, expected: number, tolerance = 1e-9): void => assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);

test('circle: radius − |p − c| with gradient −(p − c)/|p − c|', () => {
  const circle: Boundary = { kind: 'circle', center: [100, -50], radius: 1300 };
  // 3-4-5 offsets: |(300, 400)| = 500, |(1200, 1600)| = 2000.
  const x = new Float64Array([400, 1300, 100, 100 - 1300]);
  const y = new Float64Array([350, 1550, -50, -50]);
  const { value, dx, dy } = boundaryDistance(circle, x, y);
  assert.deepEqual(Array.from(value), [800, -700, 1300, 0]);
  near(dx[0]!, -0.6);
  near(dy[0]!, -0.8);
  near(dx[1]!, -0.6);
  near(dy[1]!, -0.8);
  assert.deepEqual(gradientAt(dx, dy, 2), [0, 0], 'centre: zero supergradient');
  near(dx[3]!, 1);
  near(dy[3]!, 0);
});

test('polygon, either orientation: distance to the nearest edge or vertex, positive inside', () => {
  const counterClockwise: Boundary = {
    kind: 'polygon',
    vertices: [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ],
  };
  const clockwise: Boundary = {
    kind: 'polygon',
    vertices: [
      [0, 0],
      [0, 10],
      [10, 10],
      [10, 0],
    ],
  };
  const x = new Float64Array([5, 1, -1, 13, 12, 10, 10]);
  const y = new Float64Array([5.5, 5, 5, 14, 5, 5, 10]);
  for (const square of [counterClockwise, clockwise]) {
    const { value, dx, dy } = boundaryDistance(square, x, y);
    assert.deepEqual(Array.from(value), [4.5, 1, -1, -5, -2, 0, 0]);
    assert.deepEqual(gradientAt(dx, dy, 0), [0, -1], 'nearest edge y = 10: moving down goes deeper');
    assert.deepEqual(gradientAt(dx, dy, 1), [1, 0]);
    assert.deepEqual(gradientAt(dx, dy, 2), [1, 0], 'outside: gradient points back in');
    near(dx[3]!, -0.6);
    near(dy[3]!, -0.8);
    assert.deepEqual(gradientAt(dx, dy, 4), [-1, 0]);
    assert.deepEqual(gradientAt(dx, dy, 5), [-1, 0], 'on an edge: the inward normal');
    assert.equal(Math.hypot(dx[6]!, dy[6]!), 1, 'on a vertex: a unit inward normal of one of its edges');
  }
});

test('cs3: distances to a known vertex and edge of the published IIIa polygon', () => {
  // The vertex [10363.8, 6490.3] is a convex corner; from it the edge to [10106.9, 6611.1] leaves
  // along (−256.9, 120.8) and the edge to [9449.7, 1602.2] along (−914.1, −4888.1). The offset
  // (30, 40) has a negative dot product with both, so the vertex itself is nearest, at 50 m.
  const x = new Float64Array([10363.8 + 30]),
    y = new Float64Array([6490.3 + 40]);
  const outsideCorner = boundaryDistance(cs3Boundary(), x, y);
  near(outsideCorner.value[0]!, -50, 1e-9);
  near(outsideCorner.dx[0]!, -0.6);
  near(outsideCorner.dy[0]!, -0.8);
  // 20 m inward from the midpoint of the long straight edge [10363.8, 6490.3] -> [9449.7, 1602.2].
  const alongX = 9449.7 - 10363.8,
    alongY = 1602.2 - 6490.3;
  const length = Math.hypot(alongX, alongY);
  const inwardX = -alongY / length,
    inwardY = alongX / length; // left of the edge as listed...
  const midX = (10363.8 + 9449.7) / 2,
    midY = (6490.3 + 1602.2) / 2;
  // ...the published ring is clockwise, so its interior is on the right: flip.
  const px = midX - 20 * inwardX,
    py = midY - 20 * inwardY;
  const inside = boundaryDistance(cs3Boundary(), new Float64Array([px]), new Float64Array([py]));
  near(inside.value[0]!, 20, 1e-9);
  near(inside.dx[0]!, inwardX * -1);
  near(inside.dy[0]!, inwardY * -1);
});

test('containment of known points in cs3 and cs4', () => {
  const cs3 = cs3Boundary(),
    cs4 = cs4Boundary();
  // Inside IIIa: a central point, and just inside the thin step near its southern tip.
  assert.equal(containsPoint(cs3, 8000, 4000), true);
  assert.equal(containsPoint(cs3, 9360.5, 300), true);
  // Outside IIIa: east of the edge [9387.0, 1056.6] -> [9365.1, 625.5], west of it, the origin.
  assert.equal(containsPoint(cs3, 10000, 1000), false);
  assert.equal(containsPoint(cs3, 6000, 6000), false);
  assert.equal(containsPoint(cs3, 0, 0), false);
  // A vertex is on the boundary, which counts as inside.
  assert.equal(containsPoint(cs3, 10363.8, 6490.3), true);
  // cs4: the centroid of the triangle IVb is inside; IIIa points are inside cs4 too.
  assert.equal(containsPoint(cs4, (6764.9 + 4176.8 + 2047.8) / 3, (8399.7 + 5158.6 + 7220.7) / 3), true);
  assert.equal(containsPoint(cs4, 8000, 4000), true);
  // Between IIIa and IIIb (south-west of IIIb's edge [5588.4, 3791.3] -> [4670.7, 4680.2]).
  assert.equal(containsPoint(cs4, 5000, 4000), false);
  assert.equal(containsPoint(cs4, 0, 0), false);
  assert.equal(containsPoint(CS1_16_CIRCLE, 919, 919), true); // 1299.7 m from the centre
  assert.equal(containsPoint(CS1_16_CIRCLE, 920, 920), false); // 1301.1 m
});

test('multipolygon distance is the max over its parts', () => {
  const cs4 = cs4Boundary();
  if (cs4.kind !== 'multipolygon') throw new Error('fixture');
  const { x, y } = randomPoints(createRng(11), 400, -1000, 11000, -1000, 13000);
  const whole = boundaryDistance(cs4, x, y).value;
  const byPart = cs4.polygons.map((vertices) => boundaryDistance({ kind: 'polygon', vertices }, x, y).value);
  for (let i = 0; i < x.length; i++) {
    assert.equal(whole[i], Math.max(...byPart.map((values) => values[i]!)), `point ${i}`);
  }
});

/** Gradient check of boundaryDistance on random points in and around the site. */
function checkDistanceGradient(boundary: Boundary, seed: number, count: number): void {
  const site = prepareBoundary(boundary);
  const { minX, minY, maxX, maxY } = site.box;
  const padX = 0.2 * (maxX - minX),
    padY = 0.2 * (maxY - minY);
  const { x, y } = randomPoints(createRng(seed), count, minX - padX, maxX + padX, minY - padY, maxY + padY);
  const analytic = boundaryDistance(site, x, y);
  const step = 1e-3;
  let insideCount = 0;
  for (let i = 0; i < count; i++) {
    if (analytic.value[i]! > 0) insideCount++;
    const valueOfI = (): number => boundaryDistance(site, x.subarray(i, i + 1), y.subarray(i, i + 1)).value[0]!;
    assertGradientClose(analytic.dx[i]!, centralDifference(x, i, step, valueOfI), `d value/dx, point ${i}`);
    assertGradientClose(analytic.dy[i]!, centralDifference(y, i, step, valueOfI), `d value/dy, point ${i}`);
  }
  assert.ok(insideCount > count / 10 && insideCount < count - count / 10, `points on both sides (${insideCount} inside)`);
}

test('boundaryDistance gradient matches central differences: circle', () => {
  checkDistanceGradient(CS1_16_CIRCLE, 1, 500);
});

test('boundaryDistance gradient matches central differences: cs3 concave polygon', () => {
  checkDistanceGradient(cs3Boundary(), 2, 500);
});

test('boundaryDistance gradient matches central differences: cs4 multipolygon', () => {
  checkDistanceGradient(cs4Boundary(), 3, 500);
});

test('boundaryDistance reuses caller buffers and refuses mismatched x/y', () => {
  const out = { value: new Float64Array(2), dx: new Float64Array(2), dy: new Float64Array(2) };
  const result = boundaryDistance(CS1_16_CIRCLE, new Float64Array([0, 1300]), new Float64Array([0, 0]), out);
  assert.equal(result, out);
  assert.deepEqual(Array.from(out.value), [1300, 0]);
  assert.throws(() => boundaryDistance(CS1_16_CIRCLE, new Float64Array(2), new Float64Array(3)), RangeError);
});
