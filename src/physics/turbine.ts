/**
 * Wind turbine: rotor size, hub height, power and thrust-coefficient curves.
 *
 * Two power-curve shapes are supported:
 * - `cubic`: the IEA37 case-study curve, P = P_rated·((V−V_in)/(V_r−V_in))³ for V_in ≤ V < V_r,
 *   P_rated for V_r ≤ V < V_out, 0 otherwise (IEA Wind Task 37 case studies, iea37-aepcalc.py).
 * - `table`: tabulated (speed, power) pairs, linearly interpolated, 0 outside [cut-in, cut-out).
 * Thrust: a constant Ct (IEA37 uses 8/9) or a tabulated (speed, Ct) curve, linearly interpolated
 * and clamped at the table ends (`outside: 'zero'` makes it 0 outside the table instead, PyWake's
 * convention for tabulated turbines).
 * Power exactly at the cut-out speed is 0 (IEA37 convention: P = 0 for V >= V_out) unless
 * `cutOutInclusive` is set, then the table value at V_out applies (PyWake's tabulated turbines).
 */
/**
 * The cut-out of a turbine without one (a table whose values are held beyond its last speed, as
 * PyWake's tabulated turbines without ws_cutout): the largest double, so that the turbine stays a
 * plain finite record in every file and message it travels in (JSON has no Infinity).
 */
export const NO_CUT_OUT = Number.MAX_VALUE;

export type PowerCurve = { kind: 'cubic'; ratedSpeed: number } | { kind: 'table'; speeds: Float64Array; powerW: Float64Array };

export type ThrustCurve = { kind: 'constant'; ct: number } | { kind: 'table'; speeds: Float64Array; ct: Float64Array; outside?: 'clamp' | 'zero' };

export interface Turbine {
  name: string;
  /** Rotor diameter in metres. */
  diameter: number;
  /** Hub height in metres. */
  hubHeight: number;
  /** Rated electrical power in watts. */
  ratedPowerW: number;
  cutIn: number;
  cutOut: number;
  power: PowerCurve;
  thrust: ThrustCurve;
  /** Power at exactly the cut-out speed: false (default) gives 0, true the curve's value. */
  cutOutInclusive?: boolean;
}

function operating(t: Turbine, v: number): boolean {
  return v >= t.cutIn && (v < t.cutOut || (v === t.cutOut && t.cutOutInclusive === true));
}

/** Electrical power in watts at hub-height speed `v` (m/s). */
export function powerAt(t: Turbine, v: number): number {
  if (!operating(t, v)) return 0;
  const pc = t.power;
  if (pc.kind === 'cubic') {
    if (v >= pc.ratedSpeed) return t.ratedPowerW;
    const r = (v - t.cutIn) / (pc.ratedSpeed - t.cutIn);
    return t.ratedPowerW * r * r * r;
  }
  return interpolate(pc.speeds, pc.powerW, v);
}

/** dP/dV in W per (m/s) at `v` (0 at the kinks' right side and outside the operating range). */
export function powerSlopeAt(t: Turbine, v: number): number {
  if (!operating(t, v)) return 0;
  const pc = t.power;
  if (pc.kind === 'cubic') {
    if (v >= pc.ratedSpeed) return 0;
    const span = pc.ratedSpeed - t.cutIn;
    const r = (v - t.cutIn) / span;
    return (3 * t.ratedPowerW * r * r) / span;
  }
  return interpolateSlope(pc.speeds, pc.powerW, v);
}

/** Thrust coefficient at free-stream speed `v`. */
export function thrustCoefficientAt(t: Turbine, v: number): number {
  const tc = t.thrust;
  if (tc.kind === 'constant') return tc.ct;
  if (tc.outside === 'zero' && !(v >= tc.speeds[0] && v <= tc.speeds[tc.speeds.length - 1])) return 0;
  return interpolate(tc.speeds, tc.ct, v);
}

/** dCt/dV at `v` (0 for a constant Ct and outside the table; the right-hand slope at a table point). */
export function thrustSlopeAt(t: Turbine, v: number): number {
  const tc = t.thrust;
  if (tc.kind === 'constant') return 0;
  return interpolateSlope(tc.speeds, tc.ct, v);
}

/** Linear interpolation in a sorted table, clamped to the end values. */
export function interpolate(xs: Float64Array, ys: Float64Array, x: number): number {
  const n = xs.length;
  if (x <= xs[0]) return ys[0];
  if (x >= xs[n - 1]) return ys[n - 1];
  const lo = segment(xs, x),
    hi = lo + 1;
  const f = (x - xs[lo]) / (xs[hi] - xs[lo]);
  return ys[lo] + f * (ys[hi] - ys[lo]);
}

/**
 * The table segment holding x (xs[lo] ≤ x < xs[lo + 1], for xs[0] < x < xs[n − 1]): a guess from
 * even spacing, corrected by stepping (one step or none for evenly spaced tables).
 */
function segment(xs: Float64Array, x: number): number {
  const n = xs.length;
  let lo = Math.floor(((x - xs[0]) / (xs[n - 1] - xs[0])) * (n - 1));
  if (!(lo >= 0)) lo = 0;
  if (lo > n - 2) lo = n - 2;
  while (lo > 0 && xs[lo] > x) lo--;
  while (lo < n - 2 && xs[lo + 1] <= x) lo++;
  return lo;
}

function interpolateSlope(xs: Float64Array, ys: Float64Array, x: number): number {
  const n = xs.length;
  if (x < xs[0] || x >= xs[n - 1]) return 0;
  const lo = segment(xs, x),
    hi = lo + 1;
  return (ys[hi] - ys[lo]) / (xs[hi] - xs[lo]);
}

/** Check a turbine's numbers; returns the first problem as "field: what is wrong", or null. */
export function turbineProblem(t: Turbine): string | null {
  if (!(t.diameter > 0)) return `rotor diameter must be > 0, got ${t.diameter}`;
  if (!(t.hubHeight > 0)) return `hub height must be > 0, got ${t.hubHeight}`;
  if (!(t.ratedPowerW > 0)) return `rated power must be > 0, got ${t.ratedPowerW}`;
  if (!(t.cutIn >= 0)) return `cut-in speed must be >= 0, got ${t.cutIn}`;
  if (!(t.cutOut > t.cutIn)) return `cut-out speed (${t.cutOut}) must exceed cut-in (${t.cutIn})`;
  const pc = t.power;
  if (pc.kind === 'cubic' && !(pc.ratedSpeed > t.cutIn && pc.ratedSpeed <= t.cutOut)) {
    return `rated speed (${pc.ratedSpeed}) must lie in (cut-in, cut-out]`;
  }
  for (const [name, c] of [
    ['power curve', pc],
    ['thrust curve', t.thrust],
  ] as const) {
    if (c.kind !== 'table') continue;
    const ys = 'powerW' in c ? c.powerW : c.ct;
    if (c.speeds.length !== ys.length) return `${name}: ${c.speeds.length} speeds but ${ys.length} values`;
    if (c.speeds.length < 2) return `${name}: needs at least 2 points`;
    for (let i = 0; i < c.speeds.length; i++) {
      if (!Number.isFinite(c.speeds[i]) || !Number.isFinite(ys[i])) return `${name}: non-finite value at index ${i}`;
      if (i > 0 && !(c.speeds[i] > c.speeds[i - 1])) return `${name}: speeds must increase (index ${i})`;
    }
  }
  if (t.thrust.kind === 'constant' && !(t.thrust.ct > 0 && t.thrust.ct < 1)) {
    return `thrust coefficient must be in (0, 1), got ${t.thrust.ct}`;
  }
  return null;
}
