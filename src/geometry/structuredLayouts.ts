/**
 * Structured initial layouts: the families good layouts come from, as starting points for a
 * gradient method. Each is built as an ordered list of candidate points (most wanted first) that a
 * greedy filter turns into a layout: a candidate is taken when it is inside the site (outside every
 * exclusion zone) and at least the minimum spacing from every point taken so far.
 *
 * - rings: turbines equally spaced along the site boundary (for a circle: on the circle), then
 *   along contours inset by about one to one and a half spacings, ring after ring inwards; for a
 *   circle these are exact concentric rings. The best known IEA37 case study 1 layouts look like
 *   this (turbines on the boundary circle in near-regular rings).
 * - hex: a hexagonal (triangular) lattice clipped to the site, its pitch the largest that still
 *   leaves n points inside, at a random angle and offset.
 * - rows: a lattice of rows perpendicular to a given direction (the dominant wind), with a wider
 *   pitch along the wind than across it, clipped to the site.
 * Gaps the structure cannot fill (a thin site, zones) are filled with random feasible points, so a
 * layout is returned whenever randomFeasibleLayout would return one. Deterministic per rng state.
 */
import { signedDistanceAt } from './boundaryDistance.js';
import { prepareBoundary, type BoundaryLike, type PreparedBoundary } from './preparedBoundary.js';
import { randomFeasibleLayout, assertLayoutRequest, type LayoutArrays } from './sampling.js';
import type { Rng } from '../util/rng.js';

export const STRUCTURED_FAMILIES = ['rings', 'hex', 'rows'] as const;
export type StructuredFamily = (typeof STRUCTURED_FAMILIES)[number];

export interface StructuredOptions {
  /** rows only: the direction the rows face, radians clockwise from north (meteorological). */
  directionRad?: number;
  /** Keep candidate points this far inside the boundary, m (default 1 mm). */
  marginM?: number;
}

const gradientScratch = new Float64Array(2);

export function structuredLayout(
  boundary: BoundaryLike,
  turbineCount: number,
  minSpacing: number,
  family: StructuredFamily,
  rng: Rng,
  options: StructuredOptions = {},
): LayoutArrays {
  assertLayoutRequest(turbineCount, minSpacing);
  const site = prepareBoundary(boundary);
  const margin = options.marginM ?? 1e-3;
  let candidates: number[];
  switch (family) {
    case 'rings':
      candidates = ringCandidates(site, turbineCount, minSpacing, margin, rng);
      break;
    case 'hex':
      candidates = latticeCandidates(site, turbineCount, minSpacing, margin, rng, rng.uniform(0, Math.PI / 3), 1, true);
      break;
    case 'rows': {
      const direction = options.directionRad ?? 0;
      const stretch = rng.uniform(1.5, 3);
      candidates = latticeCandidates(site, turbineCount, minSpacing, margin, rng, direction, stretch, rng.next() < 0.5);
      break;
    }
  }
  return greedyFilter(site, turbineCount, minSpacing, margin, candidates, rng);
}

/** Take candidates in order while they fit; fill the rest with random feasible points. */
function greedyFilter(site: PreparedBoundary, n: number, minSpacing: number, margin: number, candidates: number[], rng: Rng): LayoutArrays {
  const x = new Float64Array(n),
    y = new Float64Array(n);
  let placed = 0;
  const minSq = (minSpacing + margin) ** 2;
  for (let k = 0; k + 1 < candidates.length && placed < n; k += 2) {
    const px = candidates[k]!,
      py = candidates[k + 1]!;
    if (signedDistanceAt(site, px, py, gradientScratch) < margin * 0.999) continue;
    let clear = true;
    for (let j = 0; j < placed && clear; j++) if ((px - x[j]!) ** 2 + (py - y[j]!) ** 2 < minSq) clear = false;
    if (!clear) continue;
    x[placed] = px;
    y[placed] = py;
    placed++;
  }
  if (placed === n) return { x, y };
  // Fill: random points that keep the spacing to the structured ones (bounded attempts), else
  // fall back to a fully random feasible layout.
  const box = site.box;
  for (let attempt = 0; attempt < 20_000 * (n - placed) && placed < n; attempt++) {
    const px = rng.uniform(box.minX, box.maxX),
      py = rng.uniform(box.minY, box.maxY);
    if (signedDistanceAt(site, px, py, gradientScratch) < margin) continue;
    let clear = true;
    for (let j = 0; j < placed && clear; j++) if ((px - x[j]!) ** 2 + (py - y[j]!) ** 2 < minSq) clear = false;
    if (!clear) continue;
    x[placed] = px;
    y[placed] = py;
    placed++;
  }
  if (placed === n) return { x, y };
  return randomFeasibleLayout(site, n, minSpacing, rng);
}

/** Total boundary length, m (all parts; for a circle its circumference). */
export function perimeterLength(site: PreparedBoundary): number {
  if (site.isCircle) return 2 * Math.PI * site.radius;
  let total = 0;
  for (let k = 0; k < site.edgeCount; k++) total += 1 / Math.sqrt(site.edgeInvLengthSq[k]!);
  return total;
}

/**
 * The point at arc length `s` along the boundary moved `inset` metres inwards (along the inward
 * normal of its edge; at a vertex, along the mean of the two edges' normals). out = [x, y].
 */
export function perimeterPoint(site: PreparedBoundary, s: number, inset: number, out: Float64Array): void {
  if (site.isCircle) {
    const angle = (2 * Math.PI * s) / perimeterLength(site);
    const r = site.radius - inset;
    out[0] = site.centerX + r * Math.sin(angle);
    out[1] = site.centerY + r * Math.cos(angle);
    return;
  }
  const total = perimeterLength(site);
  let remaining = ((s % total) + total) % total;
  for (let k = 0; k < site.edgeCount; k++) {
    const length = 1 / Math.sqrt(site.edgeInvLengthSq[k]!);
    if (remaining <= length || k === site.edgeCount - 1) {
      const t = Math.min(1, remaining / length);
      out[0] = site.edgeStartX[k]! + t * site.edgeAlongX[k]! + inset * site.edgeInwardNormalX[k]!;
      out[1] = site.edgeStartY[k]! + t * site.edgeAlongY[k]! + inset * site.edgeInwardNormalY[k]!;
      return;
    }
    remaining -= length;
  }
}

/**
 * Rings: the outer ring holds a random share of the turbines (as many as the boundary length
 * allows at the spacing), each further ring is inset by a random 1–1.6 spacings and takes a random
 * share of what is left; a random phase per ring. Candidates past the planned counts (denser rings)
 * follow, then a hexagonal lattice, so a ring that loses points at corners is topped up.
 */
function ringCandidates(site: PreparedBoundary, n: number, minSpacing: number, margin: number, rng: Rng): number[] {
  const out: number[] = [];
  const point = new Float64Array(2);
  const perimeter = perimeterLength(site);
  let inset = margin;
  let remaining = n;
  const spare: number[] = [];
  for (let ring = 0; remaining > 0 && ring < 12; ring++) {
    const length = site.isCircle ? 2 * Math.PI * (site.radius - inset) : perimeter;
    if (length <= 0) break;
    // Chords of a circle are shorter than arcs: the count that keeps chord ≥ spacing.
    const capacity = site.isCircle
      ? site.radius - inset > minSpacing / 2
        ? Math.floor(Math.PI / Math.asin(minSpacing / (2 * (site.radius - inset))))
        : 1
      : Math.floor(length / (minSpacing * 1.05));
    if (capacity <= 0) break;
    let count: number;
    if (capacity >= remaining && (rng.next() < 0.3 || remaining <= 3)) count = remaining;
    else {
      const share = ring === 0 ? rng.uniform(0.35, 0.8) : rng.uniform(0.45, 1);
      count = Math.max(1, Math.min(capacity, remaining, Math.round(share * remaining)));
    }
    if (site.isCircle && site.radius - inset < minSpacing / 2) {
      out.push(site.centerX, site.centerY);
      remaining -= 1;
      break;
    }
    const phase = rng.next() * length;
    for (let k = 0; k < count; k++) {
      perimeterPoint(site, ((phase + (k * length) / count) / length) * perimeter, inset, point);
      out.push(point[0]!, point[1]!);
    }
    // Denser alternatives on the same ring, used only when the planned points do not all fit.
    const dense = Math.min(capacity, count + 4);
    for (let k = 0; k < dense; k++) {
      perimeterPoint(site, ((phase + ((k + 0.5) * length) / dense) / length) * perimeter, inset, point);
      spare.push(point[0]!, point[1]!);
    }
    remaining -= count;
    inset += minSpacing * rng.uniform(1, 1.6);
  }
  out.push(...spare);
  out.push(...latticeCandidates(site, n, minSpacing, margin, rng, rng.uniform(0, Math.PI / 3), 1, true));
  return out;
}

/**
 * Lattice points inside the site: rows perpendicular to `angle` (radians, clockwise from north)
 * `stretch` times the cross-row pitch apart, alternate rows shifted by half a pitch when `stagger`;
 * the pitch is the largest (by bisection) that leaves at least n points inside, never below the
 * spacing. Points are listed in a random order, so that the n kept are spread over the site.
 */
function latticeCandidates(
  site: PreparedBoundary,
  n: number,
  minSpacing: number,
  margin: number,
  rng: Rng,
  angle: number,
  stretch: number,
  stagger: boolean,
): number[] {
  const offsetU = rng.next(),
    offsetV = rng.next();
  const along = { x: Math.sin(angle), y: Math.cos(angle) };
  const across = { x: along.y, y: -along.x };
  const cx = 0.5 * (site.box.minX + site.box.maxX),
    cy = 0.5 * (site.box.minY + site.box.maxY);
  const half = 0.75 * site.extent + minSpacing;
  const rowFactor = stagger ? Math.sqrt(3) / 2 : 1;
  const generate = (pitch: number): number[] => {
    const points: number[] = [];
    const rowGap = Math.max(minSpacing, pitch * rowFactor * stretch);
    const rows = Math.ceil(half / rowGap);
    const columns = Math.ceil(half / pitch);
    for (let r = -rows; r <= rows; r++) {
      const shift = stagger && (r & 1) !== 0 ? 0.5 : 0;
      for (let q = -columns; q <= columns; q++) {
        const u = (q + shift + offsetU) * pitch,
          v = (r + offsetV) * rowGap;
        const px = cx + u * across.x + v * along.x,
          py = cy + u * across.y + v * along.y;
        if (signedDistanceAt(site, px, py, gradientScratch) >= margin) points.push(px, py);
      }
    }
    return points;
  };
  let fine = minSpacing * 1.0001,
    coarse = Math.max(fine * 1.01, Math.sqrt(site.area / Math.max(1, n)) * 2);
  if (generate(fine).length / 2 < n) return generate(fine);
  for (let step = 0; step < 30; step++) {
    const middle = 0.5 * (fine + coarse);
    if (generate(middle).length / 2 >= n) fine = middle;
    else coarse = middle;
  }
  const points = generate(fine);
  // Fisher–Yates on point indices.
  const count = points.length / 2;
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  const out: number[] = [];
  for (const i of order) out.push(points[2 * i]!, points[2 * i + 1]!);
  return out;
}
