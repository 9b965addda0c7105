/**
 * Parametric lattices (geometry/latticeLayout.ts) and their derivative-free tuning
 * (optimize/latticeStart.ts, optimize/nelderMead.ts): shortest vectors of known lattices, fitted
 * lattices inside the site with the spacing kept, boundary-grid layouts on the boundary, and
 * Nelder–Mead on a function with a known minimum.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCase } from '../../src/io/builtinCases.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import { signedDistanceAt } from '../../src/geometry/boundaryDistance.js';
import { fitLattice, latticePoints, shortestLatticeVector } from '../../src/geometry/latticeLayout.js';
import { latticeLayoutOf, latticeSearch } from '../../src/optimize/latticeStart.js';
import { nelderMead } from '../../src/optimize/nelderMead.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { createRng } from '../../src/util/rng.js';

const minDistance = (pts: number[]) => {
  let m = Infinity;
  for (let i = 0; i < pts.length; i += 2) for (let j = i + 2; j < pts.length; j += 2) m = Math.min(m, Math.hypot(pts[i]! - pts[j]!, pts[i + 1]! - pts[j + 1]!));
  return m;
};

test('shortest lattice vector: square 1, hexagonal 1, sheared rectangle by its short combination', () => {
  const base = { angle: 0.3, offsetU: 0, offsetV: 0 };
  assert.equal(shortestLatticeVector({ ...base, aspect: 1, shear: 0 }), 1);
  assert.ok(Math.abs(shortestLatticeVector({ ...base, aspect: Math.sqrt(3) / 2, shear: 0.5 }) - 1) < 1e-12);
  // rows 0.3 apart, shifted by 0.45 per row: (1 row, −0 pitches) has length hypot(0.45, 0.3)
  assert.ok(Math.abs(shortestLatticeVector({ ...base, aspect: 0.3, shear: 0.45 }) - Math.hypot(0.45, 0.3)) < 1e-12);
});

test('fitLattice on the cs4 polygons: at least n points, all inside with the inset, spacing kept, the pitch the largest', () => {
  const c = builtinCase('iea37-cs4');
  const site = prepareBoundary(c.boundary!);
  const shape = { angle: 0.7, aspect: 0.8, shear: 0.2, offsetU: 0.3, offsetV: 0.6 };
  const fit = fitLattice(site, shape, 81, c.minSpacing, 5)!;
  assert.ok(fit.points.length / 2 >= 81);
  for (let k = 0; k < fit.points.length; k += 2) assert.ok(signedDistanceAt(site, fit.points[k]!, fit.points[k + 1]!, new Float64Array(2)) >= 5);
  assert.ok(minDistance(fit.points) >= c.minSpacing);
  const looser = fitLattice(site, shape, 81, c.minSpacing, 5, 24);
  assert.deepEqual(looser, fit, 'deterministic');
  // 1 % wider and the lattice no longer holds n points
  assert.ok(latticePoints(site, shape, fit.pitch * 1.01, 5).length / 2 < 81);
});

test('boundary-grid layout: its boundary share on the circle, the rest a lattice one spacing inside', () => {
  const c = builtinCase('iea37-cs1-64');
  const site = prepareBoundary(c.boundary!);
  const p = [0.4, 0, 0, 0.1, 0.2, 0.5, 0.3, 1.2];
  const layout = latticeLayoutOf(site, 64, c.minSpacing, 'boundary-grid', p)!;
  assert.ok(layout.x.length >= 64);
  const depth = layout.x.map((x, i) => signedDistanceAt(site, x, layout.y[i]!, new Float64Array(2)));
  const onBoundary = depth.filter((d) => d < 0.01).length;
  assert.equal(onBoundary, 32, 'half of 64 on the circle');
  assert.ok(depth.filter((d) => d >= 0.01).every((d) => d >= 1.2 * c.minSpacing));
  assert.ok(minDistance(layout.x.flatMap((x, i) => [x, layout.y[i]!])) >= c.minSpacing);
});

test('latticeSearch: n turbines, feasible, best first, deterministic', () => {
  const c = builtinCase('iea37-cs1-16');
  const site = prepareBoundary(c.boundary!);
  const evaluator = createFarmEvaluator(c.turbine, c.wind, c.model);
  const opts = { family: 'lattice' as const, samples: 80, refineCount: 3, refineEvaluations: 60, keep: 2 };
  const a = latticeSearch(evaluator, site, 16, c.minSpacing, createRng(5), opts);
  const b = latticeSearch(evaluator, site, 16, c.minSpacing, createRng(5), opts);
  assert.equal(a.candidates.length, 2);
  assert.deepEqual(
    a.candidates.map((k) => k.aep),
    b.candidates.map((k) => k.aep),
  );
  assert.ok(a.candidates[0]!.aep >= a.candidates[1]!.aep);
  for (const k of a.candidates) {
    assert.equal(k.x.length, 16);
    assert.equal(evaluator.aep(k.x, k.y).aepMwh, k.aep);
    assert.ok(minDistance(Array.from(k.x).flatMap((x, i) => [x, k.y[i]!])) >= c.minSpacing);
  }
  // Tuned lattices beat the case study's baseline ring layout.
  assert.ok(a.candidates[0]!.aep > c.referenceAepMwh!, `${a.candidates[0]!.aep}`);
});

test('Nelder–Mead finds the minimum of a shifted, scaled quadratic and respects its budget', () => {
  const f = (x: number[]) => (x[0]! - 1.5) ** 2 + 10 * (x[1]! + 0.5) ** 2 + 0.1 * (x[0]! - 1.5) * (x[1]! + 0.5);
  const r = nelderMead(f, [0, 0], [0.5, 0.5], 400, 1e-14);
  assert.ok(Math.abs(r.x[0]! - 1.5) < 1e-4 && Math.abs(r.x[1]! + 0.5) < 1e-4, `${r.x}`);
  assert.ok(r.evaluations <= 400 + 3);
  const short = nelderMead(f, [0, 0], [0.5, 0.5], 10);
  assert.ok(short.evaluations <= 10 + 3);
});
