/**
 * checkFeasibility: does a layout satisfy the site boundary and the minimum spacing, and if not,
 * what is the single worst violation in metres, in words a user can act on (a turbine inside an
 * exclusion zone is reported with the zone's name). Turbine numbers in
 * messages are 0-based indices into the layout arrays. With several turbine models the spacing is
 * per turbine and a pair keeps the larger of its two (pairSpacing.ts).
 */
import { exclusionClearanceAt, siteSignedDistanceAt } from './boundaryDistance.js';
import { assertSameLength } from './sameLength.js';
import { prepareBoundary, type BoundaryLike } from './preparedBoundary.js';
import { largestSpacing, pairMinimum, type SpacingRule } from './pairSpacing.js';

export interface FeasibilityReport {
  /** maxViolationM <= tolerance. */
  feasible: boolean;
  /**
   * Largest violation, m: how far the worst turbine is outside the boundary or inside an
   * exclusion zone, or how much the
   * closest pair is short of the minimum spacing; 0 when nothing is violated; Infinity for a
   * non-finite coordinate.
   */
  maxViolationM: number;
  /** The worst violation as a sentence, or null when nothing is violated (even within tolerance). */
  worst: string | null;
  /** The turbine (or the pair) of `worst`; empty when nothing is violated. */
  worstTurbines: number[];
}

/** Metres with enough digits to show small violations: "12.4", "0.0649", "2.31e-7". */
export function formatMetres(metres: number): string {
  if (!Number.isFinite(metres)) return String(metres);
  const magnitude = Math.abs(metres);
  if (magnitude >= 1 || magnitude === 0) return metres.toFixed(1);
  return String(Number(metres.toPrecision(3)));
}

/** A spacing like 396 or 260.5 without trailing zeros. */
function formatSpacing(metres: number): string {
  return String(Number(metres.toFixed(3)));
}

/** A distance printed with enough decimals that it visibly differs from the minimum. */
function formatDistance(distance: number, shortfall: number): string {
  const decimals = shortfall >= 1 ? 1 : Math.min(9, Math.ceil(-Math.log10(shortfall)) + 1);
  return distance.toFixed(decimals);
}

export function checkFeasibility(
  boundary: BoundaryLike | null,
  x: Float64Array,
  y: Float64Array,
  minSpacing: SpacingRule,
  tolerance = 1e-6,
): FeasibilityReport {
  assertSameLength(x, y);
  const count = x.length;
  for (let i = 0; i < count; i++) {
    if (!Number.isFinite(x[i]!) || !Number.isFinite(y[i]!)) {
      return {
        feasible: false,
        maxViolationM: Infinity,
        worst: `turbine ${i} has a non-finite position (${x[i]}, ${y[i]})`,
        worstTurbines: [i],
      };
    }
  }
  let maxViolationM = 0;
  let worst: string | null = null;
  let worstTurbines: number[] = [];
  if (boundary !== null) {
    const site = prepareBoundary(boundary);
    const gradient = new Float64Array(2);
    for (let i = 0; i < count; i++) {
      const outside = -siteSignedDistanceAt(site, x[i]!, y[i]!, gradient);
      if (outside > maxViolationM) {
        maxViolationM = outside;
        worst = `turbine ${i} is ${formatMetres(outside)} m outside the boundary`;
        worstTurbines = [i];
      }
      for (let k = 0; k < site.exclusions.length; k++) {
        const inside = -exclusionClearanceAt(site, k, x[i]!, y[i]!, gradient);
        if (inside > maxViolationM) {
          maxViolationM = inside;
          worst = `turbine ${i} is ${formatMetres(inside)} m inside exclusion zone '${site.exclusions[k]!.name}'`;
          worstTurbines = [i];
        }
      }
    }
  }
  if (typeof minSpacing !== 'number') {
    if (largestSpacing(minSpacing) > 0) {
      // Per-turbine spacing: the largest shortfall of any pair against its own minimum.
      let worstShortfall = 0,
        worstI = -1,
        worstJ = -1,
        worstDistance = 0;
      for (let i = 0; i < count; i++) {
        const xi = x[i]!,
          yi = y[i]!;
        for (let j = i + 1; j < count; j++) {
          const s = pairMinimum(minSpacing, i, j);
          const gapX = xi - x[j]!,
            gapY = yi - y[j]!;
          const distanceSq = gapX * gapX + gapY * gapY;
          if (!(distanceSq < s * s)) continue;
          const distance = Math.sqrt(distanceSq);
          if (s - distance > worstShortfall) {
            worstShortfall = s - distance;
            worstI = i;
            worstJ = j;
            worstDistance = distance;
          }
        }
      }
      if (worstI >= 0 && worstShortfall > maxViolationM) {
        maxViolationM = worstShortfall;
        worst =
          `turbines ${worstI} and ${worstJ} are ${formatDistance(worstDistance, worstShortfall)} m apart, ` +
          `minimum ${formatSpacing(pairMinimum(minSpacing, worstI, worstJ))} m (the larger of their types' spacings)`;
        worstTurbines = [worstI, worstJ];
      }
    }
  } else if (minSpacing > 0) {
    // Find the closest pair on squared distances; one square root at the end.
    let closestSq = minSpacing * minSpacing;
    let closestI = -1,
      closestJ = -1;
    for (let i = 0; i < count; i++) {
      const xi = x[i]!,
        yi = y[i]!;
      for (let j = i + 1; j < count; j++) {
        const gapX = xi - x[j]!,
          gapY = yi - y[j]!;
        const distanceSq = gapX * gapX + gapY * gapY;
        if (distanceSq < closestSq) {
          closestSq = distanceSq;
          closestI = i;
          closestJ = j;
        }
      }
    }
    if (closestI >= 0) {
      const distance = Math.sqrt(closestSq);
      const shortfall = minSpacing - distance;
      if (shortfall > maxViolationM) {
        maxViolationM = shortfall;
        worst = `turbines ${closestI} and ${closestJ} are ${formatDistance(distance, shortfall)} m apart, ` + `minimum ${formatSpacing(minSpacing)} m`;
        worstTurbines = [closestI, closestJ];
      }
    }
  }
  return { feasible: maxViolationM <= tolerance, maxViolationM, worst, worstTurbines };
}

/**
 * The worst violation with the positions of its turbines, for messages about a whole layout:
 * "turbine 3 at (4812.0, 20.0) is 3700.0 m outside the boundary", "turbines 2 at (…) and 7 at (…)
 * are 250.1 m apart, minimum 260 m"; null when nothing is violated.
 */
export function worstWithPositions(report: FeasibilityReport, x: ArrayLike<number>, y: ArrayLike<number>): string | null {
  if (report.worst === null) return null;
  const at = (i: number): string => `${i} at (${formatCoordinate(x[i]!)}, ${formatCoordinate(y[i]!)})`;
  const [i, j] = report.worstTurbines;
  if (j !== undefined && report.worst.startsWith(`turbines ${i} and ${j} `))
    return `turbines ${at(i!)} and ${at(j)}${report.worst.slice(`turbines ${i} and ${j}`.length)}`;
  if (i !== undefined && report.worst.startsWith(`turbine ${i} `) && Number.isFinite(x[i]!) && Number.isFinite(y[i]!))
    return `turbine ${at(i)}${report.worst.slice(`turbine ${i}`.length)}`;
  return report.worst;
}

const formatCoordinate = (v: number): string => v.toFixed(1);
