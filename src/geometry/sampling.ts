/**
 * randomFeasibleLayout: a random initial layout, every turbine inside the site (outside every
 * exclusion zone) and every pair at least minSpacing apart (random sequential adsorption). Candidates are uniform over the site:
 * rejection from the bounding box, and for a multipolygon a part chosen with probability
 * proportional to its area, then rejection from that part's box (the part is kept until a draw
 * lands inside it, which keeps the union uniform). A candidate too close to an
 * already placed turbine is rejected (neighbours found through a grid of cells of side >= s).
 * When many candidates in a row are rejected for spacing the placement is jammed, so it starts
 * over. Every candidate drawn counts towards maxAttempts; then InputError. Deterministic: the
 * same rng seed gives a bit-identical layout.
 */
import { exclusionClearanceAt, signedDistanceAt } from './boundaryDistance.js';
import { edgesContain } from './polygon.js';
import { prepareBoundary, type BoundaryLike, type PreparedBoundary } from './preparedBoundary.js';
import type { Rng } from '../util/rng.js';
import { InputError } from '../util/errors.js';

/** Turbine positions in metres; x[i], y[i] is turbine i (same shape as io's Layout). */
export interface LayoutArrays {
  x: Float64Array;
  y: Float64Array;
}

/** Default candidate budget: generous for feasible requests, still milliseconds for hopeless ones. */
export function defaultSamplingAttempts(turbineCount: number): number {
  return 10_000 + 1_000 * turbineCount;
}

/** Rejected-for-spacing candidates in a row after which the placement starts over. */
function stallLimit(turbineCount: number): number {
  return Math.max(2_000, 100 * turbineCount);
}

/** Throws InputError unless n is a non-negative integer and s a finite number >= 0. */
export function assertLayoutRequest(turbineCount: number, minSpacing: number): void {
  if (!Number.isInteger(turbineCount) || turbineCount < 0) {
    throw new InputError(`number of turbines must be a whole number >= 0, got ${turbineCount}`);
  }
  if (!Number.isFinite(minSpacing) || minSpacing < 0) {
    throw new InputError(`minimum spacing must be a finite number of metres >= 0, got ${minSpacing}`);
  }
}

export function randomFeasibleLayout(
  boundary: BoundaryLike,
  turbineCount: number,
  minSpacing: number,
  rng: Rng,
  maxAttempts = defaultSamplingAttempts(turbineCount),
): LayoutArrays {
  assertLayoutRequest(turbineCount, minSpacing);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new InputError(`maximum sampling attempts must be a whole number >= 1, got ${maxAttempts}`);
  }
  const site = prepareBoundary(boundary);
  const x = new Float64Array(turbineCount);
  const y = new Float64Array(turbineCount);
  if (turbineCount === 0) return { x, y };

  // Neighbour grid over the bounding box; cells no smaller than s so that only the 3×3 block
  // around a candidate can hold a turbine closer than s (capped at 1024² cells for tiny s).
  const { box } = site;
  const cellSide = Math.max(minSpacing, site.extent / 1024, Number.MIN_VALUE);
  const columns = Math.floor((box.maxX - box.minX) / cellSide) + 1;
  const rows = Math.floor((box.maxY - box.minY) / cellSide) + 1;
  const firstTurbineByCell = new Int32Array(columns * rows).fill(-1);
  const nextTurbineInCell = new Int32Array(turbineCount);
  const spacingSq = minSpacing * minSpacing;
  const limit = stallLimit(turbineCount);
  const candidate = new Float64Array(2);

  let placed = 0;
  let mostPlaced = 0;
  let spacingRejectionsInARow = 0;
  // The part stays chosen until a draw lands inside it: re-choosing after a miss would favour
  // parts that fill more of their box, and the union would no longer be sampled uniformly.
  let part = -1;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    if (part < 0) part = choosePart(site, rng);
    if (!drawInPart(site, part, rng, candidate)) continue;
    part = -1;
    const cx = candidate[0]!,
      cy = candidate[1]!;
    const column = Math.min(columns - 1, Math.floor((cx - box.minX) / cellSide));
    const row = Math.min(rows - 1, Math.floor((cy - box.minY) / cellSide));
    if (minSpacing > 0 && hasNeighbourWithin(cx, cy, column, row)) {
      if (++spacingRejectionsInARow > limit) {
        firstTurbineByCell.fill(-1);
        placed = 0;
        spacingRejectionsInARow = 0;
      }
      continue;
    }
    spacingRejectionsInARow = 0;
    x[placed] = cx;
    y[placed] = cy;
    const cell = row * columns + column;
    nextTurbineInCell[placed] = firstTurbineByCell[cell]!;
    firstTurbineByCell[cell] = placed;
    placed++;
    if (placed > mostPlaced) mostPlaced = placed;
    if (placed === turbineCount) return { x, y };
  }
  throw new InputError(
    `cannot place ${turbineCount} turbines at spacing ${minSpacing} m inside the boundary after ${maxAttempts} attempts ` +
      `(at most ${mostPlaced} placed at once)`,
  );

  function hasNeighbourWithin(cx: number, cy: number, column: number, row: number): boolean {
    for (let r = Math.max(0, row - 1); r <= Math.min(rows - 1, row + 1); r++) {
      for (let c = Math.max(0, column - 1); c <= Math.min(columns - 1, column + 1); c++) {
        for (let t = firstTurbineByCell[r * columns + c]!; t >= 0; t = nextTurbineInCell[t]!) {
          const gapX = cx - x[t]!,
            gapY = cy - y[t]!;
          if (gapX * gapX + gapY * gapY < spacingSq) return true;
        }
      }
    }
    return false;
  }
}

const unusedGradient = new Float64Array(2);

/** A part with probability proportional to its area (no draw for a single part). */
function choosePart(site: PreparedBoundary, rng: Rng): number {
  if (site.partCount === 1) return 0;
  let remaining = rng.next() * site.area;
  let part = 0;
  while (part < site.partCount - 1 && remaining >= site.partArea[part]!) {
    remaining -= site.partArea[part]!;
    part++;
  }
  return part;
}

/** One uniform draw from the part's box into out; false when it fell outside the part. */
function drawInPart(site: PreparedBoundary, part: number, rng: Rng, out: Float64Array): boolean {
  const partBox = site.partBox[part]!;
  const px = rng.uniform(partBox.minX, partBox.maxX);
  const py = rng.uniform(partBox.minY, partBox.maxY);
  out[0] = px;
  out[1] = py;
  if (site.isCircle) return signedDistanceAt(site, px, py, unusedGradient) >= 0;
  if (!edgesContain(site, px, py, site.partEdgeStart[part]!, site.partEdgeStart[part + 1]!)) return false;
  for (let k = 0; k < site.exclusions.length; k++) {
    if (exclusionClearanceAt(site, k, px, py, unusedGradient) < 0) return false;
  }
  return true;
}
