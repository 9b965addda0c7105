/**
 * geometry/bathymetry.ts: bilinear interpolation on a regular grid reproduces every function of the
 * form a + b x + c y + e x y exactly (inside each cell it IS that form), returns the node values at
 * the nodes and the mean of the four corners at a cell's centre; its gradient agrees with central
 * differences; outside the grid it takes the edge's value with zero gradient across the edge.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BathymetryGrid, ConstantDepth } from '../../src/geometry/bathymetry.js';

// 4 × 3 nodes, x from -300 by 250, y from 1000 by 400; irregular-looking depths.
const NX = 4;
const NY = 3;
const X0 = -300;
const DX = 250;
const Y0 = 1000;
const DY = 400;
const D = Float64Array.from([20, 22, 27, 31, 18, 25, 30, 40, 15, 21, 35, 44]);
const grid = new BathymetryGrid(X0, DX, NX, Y0, DY, NY, D);

test('node values at the nodes; mean of the corners at cell centres', () => {
  for (let j = 0; j < NY; j++) {
    for (let i = 0; i < NX; i++) assert.equal(grid.at(X0 + i * DX, Y0 + j * DY, null), D[j * NX + i]);
  }
  for (let j = 0; j < NY - 1; j++) {
    for (let i = 0; i < NX - 1; i++) {
      const k = j * NX + i;
      const mean = (D[k] + D[k + 1] + D[k + NX] + D[k + NX + 1]) / 4;
      assert.ok(Math.abs(grid.at(X0 + (i + 0.5) * DX, Y0 + (j + 0.5) * DY, null) - mean) < 1e-12);
    }
  }
});

test('a bilinear function of x and y is reproduced exactly, value and gradient', () => {
  const f = (x: number, y: number): number => 30 + 0.01 * x - 0.004 * y + 2e-6 * x * y;
  const depth = new Float64Array(NX * NY);
  for (let j = 0; j < NY; j++) for (let i = 0; i < NX; i++) depth[j * NX + i] = f(X0 + i * DX, Y0 + j * DY);
  // One cell: f is bilinear in each cell (a + b x + c y + e x y is its own bilinear interpolant).
  const g = new BathymetryGrid(X0, DX, NX, Y0, DY, NY, depth);
  const grad = new Float64Array(2);
  for (const [x, y] of [
    [-250, 1100],
    [10, 1333],
    [400, 1790],
    [123.4, 1501],
  ]) {
    assert.ok(Math.abs(g.at(x, y, grad) - f(x, y)) < 1e-10, `(${x}, ${y})`);
    assert.ok(Math.abs(grad[0] - (0.01 + 2e-6 * y)) < 1e-12);
    assert.ok(Math.abs(grad[1] - (-0.004 + 2e-6 * x)) < 1e-12);
  }
});

test('gradient against central differences inside cells', () => {
  const grad = new Float64Array(2);
  let worst = 0;
  for (let k = 0; k < 200; k++) {
    // Deterministic points spread over the grid, away from cell edges by more than the step.
    const x = X0 + ((k * 0.6180339887) % 1) * (NX - 1) * DX;
    const y = Y0 + ((k * 0.4142135623) % 1) * (NY - 1) * DY;
    const h = 1e-3;
    const ux = ((x - X0) / DX) % 1;
    const uy = ((y - Y0) / DY) % 1;
    if (Math.min(ux, 1 - ux) * DX < 2 * h || Math.min(uy, 1 - uy) * DY < 2 * h) continue;
    grid.at(x, y, grad);
    const gx = (grid.at(x + h, y, null) - grid.at(x - h, y, null)) / (2 * h);
    const gy = (grid.at(x, y + h, null) - grid.at(x, y - h, null)) / (2 * h);
    worst = Math.max(worst, Math.abs(gx - grad[0]), Math.abs(gy - grad[1]));
  }
  assert.ok(worst < 1e-8, `worst ${worst}`);
});

test('outside the grid: the edge value, zero gradient across the edge; outside() names the first point out', () => {
  const grad = new Float64Array(2);
  // Left of the grid at a node's y: the node's depth; along the edge the gradient is the edge's.
  assert.equal(grid.at(X0 - 5000, Y0 + DY, grad), D[NX]);
  assert.equal(grad[0], 0);
  assert.ok(Math.abs(grad[1] - ((1 - 0) * (D[2 * NX] - D[NX])) / DY) < 1e-15);
  // Beyond a corner: the corner.
  assert.equal(grid.at(X0 + 10 * DX, Y0 - 10, grad), D[NX - 1]);
  assert.deepEqual([...grad], [0, 0]);
  assert.equal(grid.outside([0, 100], [1100, 1200]), null);
  assert.deepEqual(grid.outside([0, 100, 451], [1100, 1200, 1300]), { x: 451, y: 1300 });
  assert.deepEqual(grid.outside([0], [999]), { x: 0, y: 999 });
});

test('a constant depth, and the grid refuses a shape it cannot interpolate', () => {
  const grad = new Float64Array([5, 5]);
  assert.equal(new ConstantDepth(33).at(1e6, -4, grad), 33);
  assert.deepEqual([...grad], [0, 0]);
  assert.throws(() => new BathymetryGrid(0, 1, 1, 0, 1, 2, new Float64Array(2)), /2 × 2/);
  assert.throws(() => new BathymetryGrid(0, 1, 2, 0, 1, 2, new Float64Array(3)), /3 depths for 2 × 2/);
});
