/**
 * Parametric lattices clipped to a site: the layout family a few numbers describe, which a
 * derivative-free search can tune before any gradient method runs (the "boundary-grid" idea of
 * Stanley & Ning, Wind Energ. Sci. 4 (2019), with the lattice free in angle, aspect and shear).
 *
 * A lattice shape is five numbers: `angle` (radians, the direction of the rows, clockwise from
 * north), `aspect` (row gap / pitch along the rows), `shear` (shift of each row along the rows, in
 * pitches) and an offset (`offsetU`, `offsetV` in [0, 1), fractions of the two lattice vectors).
 * With the pitch p, point (i, j) lies at
 *
 *   centre + p · [(i + u) + shear·(j + v)] · along + p · aspect · (j + v) · across
 *
 * where `along` = (sin angle, cos angle) and `across` is `along` turned 90° clockwise; the
 * centre is the centre of the site's bounding box.
 *
 * `fitLattice` finds the largest pitch (bisection) that leaves at least n points at least `inset`
 * inside the usable site, never a pitch at which two lattice points are closer than the minimum
 * spacing. Deterministic: no randomness here.
 */
import { signedDistanceAt } from './boundaryDistance.js';
import type { PreparedBoundary } from './preparedBoundary.js';

export interface LatticeShape {
  angle: number;
  aspect: number;
  shear: number;
  offsetU: number;
  offsetV: number;
}

const scratch = new Float64Array(2);

/**
 * Length of the shortest non-zero vector of the lattice with pitch 1 (by the reduced basis: the
 * shortest of the two basis vectors and their small combinations).
 */
export function shortestLatticeVector(shape: LatticeShape): number {
  let best = Infinity;
  for (let j = 0; j <= 3; j++) {
    for (let i = -4; i <= 4; i++) {
      if (i === 0 && j === 0) continue;
      if (j === 0 && i < 0) continue;
      best = Math.min(best, Math.hypot(i + shape.shear * j, shape.aspect * j));
    }
  }
  return best;
}

/**
 * Lattice points at least `inset` metres inside the usable site, as a flat [x0, y0, x1, y1, …]
 * list in lattice order (rows, then along the row). `limit`: stop after this many points
 * (counting only; Infinity lists all).
 */
export function latticePoints(site: PreparedBoundary, shape: LatticeShape, pitch: number, inset: number, limit = Infinity): number[] {
  const out: number[] = [];
  const box = site.box;
  const cx = 0.5 * (box.minX + box.maxX),
    cy = 0.5 * (box.minY + box.maxY);
  const radius = 0.5 * Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
  const ax = Math.sin(shape.angle),
    ay = Math.cos(shape.angle);
  const bx = ay,
    by = -ax;
  const rowGap = pitch * shape.aspect;
  const u = shape.offsetU,
    v = shape.offsetV;
  const jLo = Math.ceil(-radius / rowGap - v),
    jHi = Math.floor(radius / rowGap - v);
  for (let j = jLo; j <= jHi; j++) {
    const across = rowGap * (j + v);
    const reach = Math.sqrt(Math.max(0, radius * radius - across * across));
    const shift = u + shape.shear * (j + v);
    const iLo = Math.ceil(-reach / pitch - shift),
      iHi = Math.floor(reach / pitch - shift);
    for (let i = iLo; i <= iHi; i++) {
      const along = pitch * (i + shift);
      const px = cx + along * ax + across * bx,
        py = cy + along * ay + across * by;
      if (px < box.minX || px > box.maxX || py < box.minY || py > box.maxY) continue;
      if (signedDistanceAt(site, px, py, scratch) < inset) continue;
      out.push(px, py);
      if (out.length >= 2 * limit) return out;
    }
  }
  return out;
}

/**
 * The largest pitch at which at least `count` lattice points lie `inset` inside the site, and
 * those points; null when even the densest allowed lattice (shortest vector = minSpacing) has
 * fewer. `steps` bisection steps (relative precision about 2^-steps).
 */
export function fitLattice(
  site: PreparedBoundary,
  shape: LatticeShape,
  count: number,
  minSpacing: number,
  inset: number,
  steps = 24,
): { pitch: number; points: number[] } | null {
  const shortest = shortestLatticeVector(shape);
  if (!(shortest > 0)) return null;
  let fine = (minSpacing * (1 + 1e-9)) / shortest;
  if (latticePoints(site, shape, fine, inset, count).length / 2 < count) return null;
  let coarse = Math.max(fine * 1.01, (2 * Math.sqrt(site.area / Math.max(1, count))) / Math.sqrt(shape.aspect));
  for (let k = 0; k < 60 && latticePoints(site, shape, coarse, inset, count).length / 2 >= count; k++) coarse *= 2;
  for (let k = 0; k < steps; k++) {
    const middle = 0.5 * (fine + coarse);
    if (latticePoints(site, shape, middle, inset, count).length / 2 >= count) fine = middle;
    else coarse = middle;
  }
  return { pitch: fine, points: latticePoints(site, shape, fine, inset) };
}
