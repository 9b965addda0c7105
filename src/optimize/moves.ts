/**
 * Perturbation moves of the hopping searches (globalSearch.ts, populationSearch.ts): each takes a
 * feasible layout and returns a changed one (inside the site, spacing kept where the move places
 * turbines; a shake may break the spacing, which the gradient polish restores), or null when it
 * found no spot. Spots are chosen by AEP with the evaluator given (real wake model):
 *
 * - relocate: one turbine (the least productive or a random one) to the best of `candidates`
 *   spots, half of them on the boundary, half random inside;
 * - relocateMany: two or three turbines, one after the other, the same way;
 * - toBoundary / toInterior: an interior turbine to the best boundary spot / a boundary turbine to
 *   the best spot at least one spacing inside;
 * - shake: every turbine moved by a normal step of `shakeStep` rotor diameters;
 * - swap: a boundary turbine to the best interior spot and an interior one to the best boundary
 *   spot, together (the boundary ring keeps its count but changes who is on it);
 * - transfer: on a site of several parts, a turbine from one part to the best spot of another
 *   (a gradient method cannot move a turbine across the gap between parts); else as relocate;
 * - reseatRow: the turbines on one line along a high-energy wind direction (a row, within half a
 *   spacing of the line through a random turbine) slide together along it by a quarter to three
 *   quarters of their median gap, so that the row is staggered against its neighbours;
 * - shakeLocal: a random turbine and its nearest neighbours (about a sixth of the farm, 3 to 12)
 *   moved by a normal step of twice `shakeStep`, the rest kept: a shake that scales with the farm.
 *
 * Deterministic per rng state.
 */
import type { Case } from '../case/case.js';
import type { FarmEvaluator } from '../physics/aep.js';
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import { signedDistanceAt } from '../geometry/boundaryDistance.js';
import { projectInside } from '../geometry/projectInside.js';
import { perimeterLength, perimeterPoint } from '../geometry/structuredLayouts.js';
import type { Rng } from '../util/rng.js';
import { caseSpacing } from './caseEvaluator.js';
import { pairMinimum } from '../geometry/pairSpacing.js';

export const MOVES = ['relocate', 'relocateMany', 'toBoundary', 'toInterior', 'shake', 'swap', 'transfer', 'reseatRow', 'shakeLocal'] as const;
export type Move = (typeof MOVES)[number];

export type Layout = { x: Float64Array; y: Float64Array };

export interface MoveContext {
  c: Case;
  site: PreparedBoundary;
  evaluator: FarmEvaluator;
  rng: Rng;
  /** Spots tried per placed turbine. */
  candidates: number;
  /** Shake step, rotor diameters. */
  shakeStep: number;
}

/** A point within 0.5 m of the boundary counts as on it. */
const ON_BOUNDARY_M = 0.5;
const MARGIN_M = 1e-3;

/** Draw one of `names` by relative weights (missing weights count 0; they need not sum to 1). */
export function drawMove<T extends string>(rng: Rng, weights: Partial<Record<T, number>>, names: readonly T[]): T {
  let total = 0;
  for (const m of names) total += weights[m] ?? 0;
  let u = rng.next() * total;
  for (const m of names) {
    const w = weights[m] ?? 0;
    if (w > 0 && u < w) return m;
    u -= w;
  }
  for (let k = names.length - 1; k >= 0; k--) if ((weights[names[k]!] ?? 0) > 0) return names[k]!;
  return names[0]!;
}

type Where = 'any' | 'boundary' | 'interior' | { part: number };

export function applyMove(move: Move, ctx: MoveContext, from: Layout): { layout: Layout | null; evaluations: number } {
  const { site, rng, c } = ctx;
  const x = Float64Array.from(from.x),
    y = Float64Array.from(from.y);
  const n = x.length;
  const grad = new Float64Array(2);
  let evaluations = 0;
  const onBoundary = (i: number) => signedDistanceAt(site, x[i]!, y[i]!, grad) < ON_BOUNDARY_M;
  const pickWhere = (want: (i: number) => boolean): number => {
    const pool: number[] = [];
    for (let i = 0; i < n; i++) if (want(i)) pool.push(i);
    return pool.length === 0 ? -1 : pool[rng.int(pool.length)]!;
  };
  const leastProductive = (among?: (i: number) => boolean): number => {
    const perTurbine = ctx.evaluator.aep(x, y).perTurbineMwh;
    evaluations++;
    let i = -1;
    for (let j = 0; j < n; j++) if ((!among || among(j)) && (i < 0 || perTurbine[j]! < perTurbine[i]!)) i = j;
    return i;
  };
  const place = (i: number, where: Where): boolean => {
    const r = bestSpot(ctx, x, y, i, ctx.candidates, where);
    evaluations += r.evaluations;
    if (!r.found) return false;
    x[i] = r.x;
    y[i] = r.y;
    return true;
  };
  const done = (ok: boolean) => ({ layout: ok ? { x, y } : null, evaluations });
  switch (move) {
    case 'relocate': {
      const i = rng.next() < 0.5 ? leastProductive() : rng.int(n);
      return done(place(i, 'any'));
    }
    case 'relocateMany': {
      const count = 2 + rng.int(2);
      for (let k = 0; k < count; k++) {
        const i = k === 0 && rng.next() < 0.5 ? leastProductive() : rng.int(n);
        if (!place(i, 'any')) return done(false);
      }
      return done(true);
    }
    case 'toBoundary': {
      const i = pickWhere((j) => !onBoundary(j));
      return done(i >= 0 && place(i, 'boundary'));
    }
    case 'toInterior': {
      const i = pickWhere(onBoundary);
      return done(i >= 0 && place(i, 'interior'));
    }
    case 'shake': {
      const step = ctx.shakeStep * c.turbine.diameter;
      for (let i = 0; i < n; i++) {
        x[i] += step * rng.normal();
        y[i] += step * rng.normal();
      }
      projectInside(site, x, y, MARGIN_M);
      return done(true);
    }
    case 'swap': {
      const outer = pickWhere(onBoundary);
      const inner = pickWhere((j) => !onBoundary(j));
      if (outer < 0 || inner < 0) return done(false);
      return done(place(outer, 'interior') && place(inner, 'boundary'));
    }
    case 'transfer': {
      if (site.partCount < 2) {
        const i = rng.next() < 0.5 ? leastProductive() : rng.int(n);
        return done(place(i, 'any'));
      }
      const partOf = (i: number) => partContaining(site, x[i]!, y[i]!);
      const source = partOf(rng.int(n));
      const i = rng.next() < 0.5 ? leastProductive((j) => partOf(j) === source) : pickWhere((j) => partOf(j) === source);
      let target = rng.int(site.partCount - 1);
      if (target >= source) target++;
      return done(i >= 0 && place(i, { part: target }));
    }
    case 'reseatRow': {
      const row = rowThrough(ctx, x, y, rng.int(n));
      if (row.length < 2) return done(false);
      const shift = (rng.next() < 0.5 ? -1 : 1) * rng.uniform(0.25, 0.75) * row.gap;
      for (const i of row.members) {
        x[i] += shift * row.ux;
        y[i] += shift * row.uy;
      }
      projectInside(site, x, y, MARGIN_M);
      return done(true);
    }
    case 'shakeLocal': {
      const centre = rng.int(n);
      const k = Math.min(n, Math.max(3, Math.min(12, Math.round(n / 6))));
      const order = Array.from({ length: n }, (_, j) => j).sort(
        (a, b) => (x[a]! - x[centre]!) ** 2 + (y[a]! - y[centre]!) ** 2 - ((x[b]! - x[centre]!) ** 2 + (y[b]! - y[centre]!) ** 2),
      );
      const step = 2 * ctx.shakeStep * c.turbine.diameter;
      for (const i of order.slice(0, k)) {
        x[i] += step * rng.normal();
        y[i] += step * rng.normal();
      }
      projectInside(site, x, y, MARGIN_M);
      return done(true);
    }
  }
}

/** Index of the part of a multi-part site whose box and edges contain (px, py); the nearest part otherwise. */
export function partContaining(site: PreparedBoundary, px: number, py: number): number {
  if (site.partCount < 2) return 0;
  let best = 0,
    bestGap = Infinity;
  for (let p = 0; p < site.partCount; p++) {
    const gap = partDistance(site, p, px, py);
    if (gap < bestGap) {
      bestGap = gap;
      best = p;
    }
  }
  return best;
}

/** Distance from a point to part p's edges, negative inside it (even-odd over the part's edges). */
function partDistance(site: PreparedBoundary, p: number, px: number, py: number): number {
  let minSq = Infinity,
    inside = false;
  for (let k = site.partEdgeStart[p]!; k < site.partEdgeStart[p + 1]!; k++) {
    const ax = site.edgeStartX[k]!,
      ay = site.edgeStartY[k]!,
      ex = site.edgeAlongX[k]!,
      ey = site.edgeAlongY[k]!;
    const t = Math.min(1, Math.max(0, ((px - ax) * ex + (py - ay) * ey) * site.edgeInvLengthSq[k]!));
    const dx = px - (ax + t * ex),
      dy = py - (ay + t * ey);
    minSq = Math.min(minSq, dx * dx + dy * dy);
    const by = site.edgeEndY[k]!;
    if (ay > py !== by > py && px < ax + ((py - ay) / (by - ay)) * ex) inside = !inside;
  }
  return inside ? -Math.sqrt(minSq) : Math.sqrt(minSq);
}

/** Arc-length range [start, end) of part p along the site's concatenated perimeter. */
function partArc(site: PreparedBoundary, p: number): [number, number] {
  let start = 0;
  for (let k = 0; k < site.partEdgeStart[p]!; k++) start += 1 / Math.sqrt(site.edgeInvLengthSq[k]!);
  let length = 0;
  for (let k = site.partEdgeStart[p]!; k < site.partEdgeStart[p + 1]!; k++) length += 1 / Math.sqrt(site.edgeInvLengthSq[k]!);
  return [start, start + length];
}

/**
 * The row through turbine i: turbines within half a spacing of the line through it along a wind
 * direction drawn by energy (Σ p·v³), with the line's unit vector and the median gap between
 * neighbours along it.
 */
function rowThrough(ctx: MoveContext, x: Float64Array, y: Float64Array, i: number): { members: number[]; length: number; ux: number; uy: number; gap: number } {
  const w = ctx.evaluator.wind;
  const ns = w.speeds.length;
  const energy = Array.from(w.directionsDeg, (_, d) => {
    let e = 0;
    for (let s = 0; s < ns; s++) e += w.probability[d * ns + s]! * w.speeds[s]! ** 3;
    return e;
  });
  let u = ctx.rng.next() * energy.reduce((a, b) => a + b, 0);
  let d = 0;
  for (; d < energy.length - 1; d++) {
    if (u < energy[d]!) break;
    u -= energy[d]!;
  }
  const theta = (w.directionsDeg[d]! * Math.PI) / 180;
  const ux = Math.sin(theta),
    uy = Math.cos(theta);
  const members: { i: number; t: number }[] = [];
  for (let j = 0; j < x.length; j++) {
    const dx = x[j]! - x[i]!,
      dy = y[j]! - y[i]!;
    if (Math.abs(dx * uy - dy * ux) < 0.5 * ctx.c.minSpacing) members.push({ i: j, t: dx * ux + dy * uy });
  }
  members.sort((a, b) => a.t - b.t);
  const gaps = members
    .slice(1)
    .map((m, k) => m.t - members[k]!.t)
    .sort((a, b) => a - b);
  const gap = gaps.length ? gaps[Math.floor(gaps.length / 2)]! : 0;
  return { members: members.map((m) => m.i), length: members.length, ux, uy, gap };
}

/**
 * The best of `candidates` spots for turbine i (others fixed) that are inside the site and keep
 * the spacing: on the boundary, strictly inside (≥ one spacing from the boundary), either (half
 * each), or in one part of the site (half on its boundary, half inside it).
 */
export function bestSpot(
  ctx: MoveContext,
  x: Float64Array,
  y: Float64Array,
  i: number,
  candidates: number,
  where: Where,
): { found: boolean; x: number; y: number; evaluations: number } {
  const { site, rng, c } = ctx;
  const n = x.length;
  const grad = new Float64Array(2),
    point = new Float64Array(2);
  const perimeter = perimeterLength(site);
  const rule = caseSpacing(c);
  const part = typeof where === 'object' ? where.part : -1;
  const box = part >= 0 ? site.partBox[part]! : site.box;
  const arc = part >= 0 ? partArc(site, part) : [0, perimeter];
  let bestX = NaN,
    bestY = NaN,
    bestAep = -Infinity,
    found = 0,
    evaluations = 0;
  const ox = x[i]!,
    oy = y[i]!;
  for (let attempt = 0; attempt < 200 * candidates && found < candidates; attempt++) {
    const onEdge = where === 'boundary' || ((where === 'any' || part >= 0) && attempt % 2 === 0);
    let px: number, py: number;
    if (onEdge) {
      perimeterPoint(site, arc[0]! + rng.next() * (arc[1]! - arc[0]!), MARGIN_M, point);
      px = point[0]!;
      py = point[1]!;
    } else {
      px = rng.uniform(box.minX, box.maxX);
      py = rng.uniform(box.minY, box.maxY);
    }
    const depth = signedDistanceAt(site, px, py, grad);
    if (depth < MARGIN_M * 0.999) continue;
    if (where === 'interior' && depth < c.minSpacing) continue;
    let clear = true;
    for (let j = 0; j < n && clear; j++) if (j !== i && (px - x[j]!) ** 2 + (py - y[j]!) ** 2 < (pairMinimum(rule, i, j) + MARGIN_M) ** 2) clear = false;
    if (!clear) continue;
    found++;
    x[i] = px;
    y[i] = py;
    const aep = ctx.evaluator.aep(x, y).aepMwh;
    evaluations++;
    x[i] = ox;
    y[i] = oy;
    if (aep > bestAep) {
      bestAep = aep;
      bestX = px;
      bestY = py;
    }
  }
  return { found: found > 0, x: bestX, y: bestY, evaluations };
}
