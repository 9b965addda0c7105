/**
 * gridLayout: a deterministic initial layout. A square grid centred on the site's bounding box
 * is clipped to the site; its pitch is the largest found (shrinking from sqrt(area/n), then 48
 * bisection steps) that still leaves at least n grid points inside, and never below minSpacing,
 * so every pair is at least the pitch apart. When more than n points fit, n are taken evenly spread over the row-major
 * order of the points (rows bottom to top, each left to right).
 */
import { signedDistanceAt } from './boundaryDistance.js';
import { prepareBoundary, type BoundaryLike, type PreparedBoundary } from './preparedBoundary.js';
import { assertLayoutRequest, type LayoutArrays } from './sampling.js';
import { InputError } from '../util/errors.js';

const BISECTION_STEPS = 48;
/** 1.25^200: from any sensible first pitch down to far below any turbine's size. */
const MAX_SHRINKS = 200;
const unusedGradient = new Float64Array(2);

export function gridLayout(boundary: BoundaryLike, turbineCount: number, minSpacing: number): LayoutArrays {
  assertLayoutRequest(turbineCount, minSpacing);
  const site = prepareBoundary(boundary);
  if (turbineCount === 0) return { x: new Float64Array(0), y: new Float64Array(0) };

  // Start at the pitch that would tile the area with n squares and shrink until n points fit
  // (never below minSpacing), so no needlessly fine grid is ever evaluated.
  let finePitch = Math.max(minSpacing, Math.sqrt(site.area / turbineCount));
  let coarsePitch = 2 * site.extent + finePitch; // only the box centre is a grid point
  for (let shrink = 0; countGridPoints(site, finePitch) < turbineCount; shrink++) {
    if (finePitch === minSpacing || shrink === MAX_SHRINKS) {
      throw new InputError(
        `cannot place ${turbineCount} turbines on a grid at spacing ${minSpacing} m inside the boundary ` + `(at most ${countGridPoints(site, finePitch)} fit)`,
      );
    }
    coarsePitch = finePitch;
    finePitch = Math.max(minSpacing, finePitch / 1.25);
  }
  // Invariant: n points fit at finePitch (coarsePitch is where they stopped fitting, or the box).
  for (let step = 0; step < BISECTION_STEPS; step++) {
    const middle = 0.5 * (finePitch + coarsePitch);
    if (countGridPoints(site, middle) >= turbineCount) finePitch = middle;
    else coarsePitch = middle;
  }
  const points = gridPointsInside(site, finePitch);
  const pointCount = points.length / 2;
  const x = new Float64Array(turbineCount);
  const y = new Float64Array(turbineCount);
  for (let k = 0; k < turbineCount; k++) {
    const chosen = Math.floor((k * pointCount) / turbineCount);
    x[k] = points[2 * chosen]!;
    y[k] = points[2 * chosen + 1]!;
  }
  return { x, y };
}

/** Grid lines at centre + k·pitch covering the box: the integer range of k for one axis. */
function stepsCovering(halfWidth: number, pitch: number): number {
  return Math.floor(halfWidth / pitch);
}

function countGridPoints(site: PreparedBoundary, pitch: number): number {
  return visitGridPointsInside(site, pitch, () => undefined);
}

function gridPointsInside(site: PreparedBoundary, pitch: number): number[] {
  const xy: number[] = [];
  visitGridPointsInside(site, pitch, (px, py) => {
    xy.push(px, py);
  });
  return xy;
}

function visitGridPointsInside(site: PreparedBoundary, pitch: number, visit: (px: number, py: number) => void): number {
  const { box } = site;
  const centerX = 0.5 * (box.minX + box.maxX),
    centerY = 0.5 * (box.minY + box.maxY);
  const stepsX = stepsCovering(0.5 * (box.maxX - box.minX), pitch);
  const stepsY = stepsCovering(0.5 * (box.maxY - box.minY), pitch);
  let inside = 0;
  for (let row = -stepsY; row <= stepsY; row++) {
    const py = centerY + row * pitch;
    for (let column = -stepsX; column <= stepsX; column++) {
      const px = centerX + column * pitch;
      if (signedDistanceAt(site, px, py, unusedGradient) >= 0) {
        inside++;
        visit(px, py);
      }
    }
  }
  return inside;
}
