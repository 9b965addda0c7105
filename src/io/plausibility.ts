/**
 * Values that parse but cannot be meant (turbines: turbinePlausibility.ts): wind directions in
 * radians, a site too small for its turbines at the minimum spacing. Each check returns a message
 * with a hint, or null; the readers attach the file, line and field.
 *
 * Capacity bound (Oler 1961, "An inequality in the geometry of numbers", Acta Math. 105): points
 * with mutual distances >= s inside a compact convex set K number at most
 *     (2/√3)·A(K)/s² + P(K)/(2s) + 1,
 * A the area and P the perimeter. The first term is the hexagonal packing density π/√12 ≈ 0.9069
 * applied to discs of radius s/2; the other two pay for the half-discs that stick out of the
 * boundary. It is a theorem for every convex K and every n (one point in a point-sized site: 1;
 * two points on a segment of length s: 2), so it never rejects a feasible case. Turbines of a
 * site lie in the convex hull of each of its polygons (a hole or exclusion only removes room), so
 * the bound summed over the parts' hulls is safe for concave polygons, holes and multipolygons.
 */
import type { WindResource } from '../physics/windResource.js';
import type { Boundary, Point } from '../geometry/boundary.js';

/**
 * Radians for degrees: a direction list with more than this many distinct values, none above 2π,
 * is refused. The same rule for every wind form (a rose's sectors, Weibull sectors, windIO's
 * probability table, Weibull and time series forms): a real rose spans far more than 6.28°, and
 * a list of 1 or 2 directions (a single-direction case) is left alone.
 */
const RADIAN_MAX_DISTINCT = 2;

/** Null when `directions` may be degrees; else the message (`what`: how to name the values). */
export function radianDirectionsProblem(directions: ArrayLike<number>, what = 'wind directions'): string | null {
  const distinct = new Set<number>();
  let max = -Infinity,
    min = Infinity;
  for (let i = 0; i < directions.length; i++) {
    const d = directions[i];
    distinct.add(d);
    max = Math.max(max, d);
    min = Math.min(min, d);
  }
  if (distinct.size <= RADIAN_MAX_DISTINCT || !(max <= 2 * Math.PI)) return null;
  const n = distinct.size === directions.length ? `${directions.length}` : `${distinct.size} distinct`;
  const where = min >= 0 ? 'lie within [0, 2π]' : 'are at most 2π';
  return `all ${n} ${what} ${where} (largest ${max}): degrees expected, these look like radians`;
}

/**
 * Directions as wflo means them: degrees from north in [0, 360). A value outside (−10, 370, 360
 * for north) is refused rather than wrapped: it is a slip more often than a convention, and the
 * one-line fix is named. In a rose (`distinct`) each sector appears once, also after wrapping
 * (0 and 360 are one sector, and a rose listing both counts its probability twice). Samples of a
 * time series repeat directions freely. Null when fine; else the first offending index and why.
 */
export function directionsProblem(directions: ArrayLike<number>, distinct: boolean, what = 'wind direction'): { index: number; message: string } | null {
  if (distinct) {
    const seen = new Map<number, number>();
    for (let i = 0; i < directions.length; i++) {
      const d = directions[i];
      const wrapped = ((d % 360) + 360) % 360;
      const first = seen.get(wrapped);
      if (first !== undefined) {
        const same = directions[first] === d ? `${d}° is listed twice` : `${directions[first]}° and ${d}° are the same direction`;
        return { index: i, message: `${same} (${what}s [${first}] and [${i}]): a rose lists each sector once` };
      }
      seen.set(wrapped, i);
    }
  }
  for (let i = 0; i < directions.length; i++) {
    const d = directions[i];
    if (!(d >= 0 && d < 360)) {
      const wrapped = ((d % 360) + 360) % 360;
      return {
        index: i,
        message: `${what} ${d}° is outside [0, 360): degrees from north expected${Number.isFinite(wrapped) ? ` (write ${+wrapped.toFixed(9)} for ${d})` : ''}`,
      };
    }
  }
  return null;
}

/**
 * A rose's unit slips (a series' columns are checked sample by sample, seriesFromColumns, and its
 * summary is wflo's own): directions in radians, outside [0, 360) or repeated; a speed bin above
 * MAX_PLAUSIBLE_SPEED_MS (km/h or knots); a turbulence intensity above 1 (percent), the one value
 * or a bin's (`index` is then the flat direction × speed bin).
 */
export function windPlausibility(w: WindResource): { quantity: 'directions' | 'speeds' | 'turbulence'; index?: number; message: string } | null {
  if (w.series) return null;
  const message = radianDirectionsProblem(w.directionsDeg);
  if (message !== null) return { quantity: 'directions', message };
  const bad = directionsProblem(w.directionsDeg, true);
  if (bad !== null) return { quantity: 'directions', index: bad.index, message: bad.message };
  for (let i = 0; i < w.speeds.length; i++) {
    if (w.speeds[i] > MAX_PLAUSIBLE_SPEED_MS) {
      return {
        quantity: 'speeds',
        index: i,
        message: `wind speed ${w.speeds[i]} is above ${MAX_PLAUSIBLE_SPEED_MS} m/s: m/s expected; this looks like km/h or knots`,
      };
    }
  }
  const tiMessage = (ti: number): string => `turbulence intensity ${ti} is above 1: a fraction expected (0.08, not 8 %)`;
  if (w.turbulenceIntensityByBin) {
    for (let i = 0; i < w.turbulenceIntensityByBin.length; i++) {
      if (w.turbulenceIntensityByBin[i] > 1) return { quantity: 'turbulence', index: i, message: tiMessage(w.turbulenceIntensityByBin[i]) };
    }
  } else if (w.turbulenceIntensity > 1) {
    return { quantity: 'turbulence', message: tiMessage(w.turbulenceIntensity) };
  }
  return null;
}

/** Largest minimum spacing, in rotor diameters (layouts space turbines 3–10 D; more is metres for diameters). */
export const MAX_SPACING_DIAMETERS = 50;

/** Largest Weibull scale A, m/s: the windiest sites have A ≈ 12 m/s at hub height; above this is km/h or knots. */
export const MAX_WEIBULL_A_MS = 30;

/** Null when Weibull scales may be m/s; else the first offending sector and why. */
export function weibullScaleProblem(a: ArrayLike<number>): { index: number; message: string } | null {
  for (let i = 0; i < a.length; i++) {
    if (a[i] > MAX_WEIBULL_A_MS)
      return {
        index: i,
        message: `Weibull scale ${a[i]} is above ${MAX_WEIBULL_A_MS} m/s (the windiest sites have about 12): m/s expected; this looks like km/h or knots`,
      };
  }
  return null;
}

/**
 * A minimum spacing smaller than one rotor diameter (or above 50 of them): rotors closer than D can touch (two
 * coplanar rotors D apart meet at the tips), so it is a slip (`min_spacing_m: 2` meant as
 * diameters), never a layout rule. With several models every model's own spacing is checked
 * against its own diameter (a pair keeps the larger spacing, so no pair is closer than the larger
 * rotor). Null when fine; `given` says which field the number came from.
 */
export function spacingProblem(spacingM: number, diameter: number, given: 'metres' | 'diameters', turbineName: string): string | null {
  if (spacingM > MAX_SPACING_DIAMETERS * diameter) {
    const d = +(spacingM / diameter).toPrecision(6);
    return given === 'diameters'
      ? `${d} rotor diameters is above ${MAX_SPACING_DIAMETERS}: diameters expected (layouts space turbines 3–10 D); ${d} looks like metres (min_spacing_m: ${d})`
      : `minimum spacing ${spacingM} m is ${d} rotor diameters (${diameter} m, ${turbineName}), above ${MAX_SPACING_DIAMETERS}: metres expected (layouts space turbines 3–10 D)`;
  }
  if (spacingM >= diameter) return null;
  if (given === 'diameters') {
    return `${+(spacingM / diameter).toPrecision(6)} rotor diameters is below 1: rotors closer than one diameter (${diameter} m, ${turbineName}) can touch; at least 1 (2 is wflo's default)`;
  }
  const asDiameters = spacingM > 0 && spacingM <= 20 ? `; metres expected, ${spacingM} looks like diameters (min_spacing_diameters: ${spacingM})` : '';
  return `minimum spacing ${spacingM} m is below one rotor diameter (${diameter} m, ${turbineName}): rotors that close can touch${asDiameters}`;
}

/** Above this mean wind speed (m/s) a sample is no hub-height wind: a unit slip (km/h, knots). */
export const MAX_PLAUSIBLE_SPEED_MS = 75;

/**
 * The first implausible sample of a time series: a speed above MAX_PLAUSIBLE_SPEED_MS (km/h or
 * knots for m/s) or a turbulence intensity above 1 (percent for a fraction); null if none.
 */
export function seriesSamplePlausibility(
  speeds: ArrayLike<number>,
  ti: ArrayLike<number> | null,
): { quantity: 'speed' | 'turbulence'; sample: number; message: string } | null {
  for (let t = 0; t < speeds.length; t++) {
    if (speeds[t] > MAX_PLAUSIBLE_SPEED_MS) {
      return {
        quantity: 'speed',
        sample: t,
        message: `wind speed ${speeds[t]} is above ${MAX_PLAUSIBLE_SPEED_MS} m/s: m/s expected; this looks like km/h or knots`,
      };
    }
  }
  if (ti) {
    for (let t = 0; t < ti.length; t++) {
      if (ti[t] > 1) return { quantity: 'turbulence', sample: t, message: `turbulence intensity ${ti[t]} is above 1: a fraction expected (0.08, not 8 %)` };
    }
  }
  return null;
}

/** Convex hull (Andrew's monotone chain), counter-clockwise, collinear points dropped. */
function convexHull(points: readonly Point[]): Point[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: Point[] = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

function areaAndPerimeter(ring: readonly Point[]): { area: number; perimeter: number } {
  let twiceArea = 0,
    perimeter = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i],
      b = ring[(i + 1) % ring.length];
    twiceArea += a[0] * b[1] - b[0] * a[1];
    perimeter += Math.hypot(b[0] - a[0], b[1] - a[1]);
  }
  return { area: Math.abs(twiceArea) / 2, perimeter: ring.length === 2 ? perimeter : perimeter };
}

/** Oler's bound for one convex part. */
const oler = (area: number, perimeter: number, s: number): number => ((2 / Math.sqrt(3)) * area) / (s * s) + perimeter / (2 * s) + 1;

/**
 * The most turbines that can stand in `boundary` with mutual distances >= `spacingM` (an upper
 * bound, Oler's inequality; see the file comment). Infinity when the spacing is 0.
 */
export function maxTurbinesBound(boundary: Boundary, spacingM: number): number {
  // Layouts are accepted with 1e-6 m tolerance on spacing and boundary: give the bound that slack.
  const s = spacingM - 1e-6;
  if (!(s > 0)) return Infinity;
  if (boundary.kind === 'circle') {
    const r = boundary.radius + 1e-6;
    return oler(Math.PI * r * r, 2 * Math.PI * r, s);
  }
  const parts = boundary.kind === 'polygon' ? [boundary.vertices] : boundary.polygons;
  let total = 0;
  for (const part of parts) {
    const { area, perimeter } = areaAndPerimeter(convexHull(part));
    total += oler(area, perimeter + 8e-6, s);
  }
  return total;
}

function describeBoundary(b: Boundary): string {
  if (b.kind === 'circle') return `a circle of radius ${b.radius} m`;
  if (b.kind === 'polygon') return `a polygon of ${b.vertices.length} vertices`;
  return `${b.polygons.length} polygons`;
}

/** Null when `n` turbines at `spacingM` may fit; else why they cannot. */
export function capacityProblem(boundary: Boundary, n: number, spacingM: number): string | null {
  const bound = maxTurbinesBound(boundary, spacingM);
  if (n <= bound) return null;
  return (
    `cannot place ${n} turbines at spacing ${spacingM} m in ${describeBoundary(boundary)}: at most ${Math.floor(bound)} fit ` +
    "(Oler's packing bound; enlarge the site, lower n_turbines or the minimum spacing)"
  );
}
