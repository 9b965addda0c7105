/**
 * A wake model's parameters as an input file or flag gives them (`wake_params`, `--k`), checked
 * against the parameters the model reads (physics/modelParameters.ts): an unknown name (with the
 * nearest known one) or a value outside the parameter's physical range is a problem naming it.
 * Every door uses these rules: case files, campaign farms, `--k`, windIO analysis blocks and
 * PyWake reference files.
 */
import type { WakeModelName } from '../physics/farmModel.js';
import { wakeParameterNames } from '../physics/modelParameters.js';
import { nearestKey } from './didYouMean.js';

/**
 * The physical range of every parameter (a name means the same in every model that reads it),
 * with the published values it was set around. Lower bounds are the signs the formulas need;
 * upper bounds are where the parameter stops describing a wake (a growth rate k above 1 is a
 * wake widening faster than it travels), about 10× or more above every published value, so no
 * fitted value is refused but `k: 1e300` (an AEP of 0 at run time) is.
 */
interface Range { min: number; minOpen: boolean; max: number; what: string }
const range = (min: number, minOpen: boolean, max: number, what: string): Range => ({ min, minOpen, max, what });
export const WAKE_PARAMETER_RANGES: Readonly<Record<string, Range>> = {
  k: range(0, true, 1, 'wake growth per metre downstream; published 0.02–0.1'),
  A: range(0, true, 1, 'TurbOPark wake growth per unit turbulence; published 0.04'),
  a1: range(0, false, 10, 'k = a1·TI + a2; published 0.35–0.38'),
  a2: range(0, false, 1, 'k = a1·TI + a2; published 0–0.004'),
  ceps: range(0, true, 1, 'initial wake width ε = ceps·√β in diameters; published 0.2–0.25'),
  ctlim: range(0, true, 1, 'the largest Ct inside β'),
  cTI1: range(0, false, 10, 'TurbOPark turbulence constant; published 1.5'),
  cTI2: range(0, false, 10, 'TurbOPark turbulence constant; published 0.8'),
  deltawD: range(0, true, 10, 'Zong near-wake width in diameters; published 0.71'),
  epsCoeff: range(0, false, 5, 'Zong initial width coefficient; published 0.35'),
  lam: range(0, true, 100, 'Zong near-wake length scale; published 7.5'),
  B: range(0, true, 100, 'Zong smoothing; published 3'),
  a_s: range(0, false, 10, 'Blondel width growth per unit turbulence; published 0.17'),
  b_s: range(0, false, 1, 'Blondel width growth; published 0.005'),
  c_s: range(0, false, 2, 'Blondel initial width; published 0.2'),
  a_f: range(0, false, 100, 'Blondel super-Gaussian order amplitude; published 3.11'),
  b_f: range(-10, false, 0, 'Blondel order decay per diameter (the order must not grow downstream); published −0.68'),
  c_f: range(0, true, 100, 'Blondel far-wake order; published 2.41'),
  ceps0: range(-100, false, 100, 'Carbajo Fuertes ε = c_ε0·k + c_ε1; published −1.91'),
  ceps1: range(-10, false, 10, 'Carbajo Fuertes ε = c_ε0·k + c_ε1; published 0.34'),
};

/** Why `value` cannot be wake parameter `name`, or null (unknown names are the caller's to report). */
export function wakeParameterValueProblem(name: string, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `expected a finite number, got ${JSON.stringify(value)}`;
  const r = WAKE_PARAMETER_RANGES[name];
  if (!r) return null;
  const sign = r.min === 0 ? (r.minOpen ? 'must be > 0' : 'must be >= 0') : null;
  if (r.minOpen ? !(value > r.min) : !(value >= r.min)) {
    if (name === 'ctlim') return `must be in (0, 1], got ${value}`;
    return sign ? `${sign}, got ${value}` : `must be in [${r.min}, ${r.max}], got ${value} (${r.what})`;
  }
  if (value > r.max) {
    if (name === 'ctlim') return `must be in (0, 1], got ${value}`;
    return `must be at most ${r.max}, got ${value} (${r.what})`;
  }
  return null;
}

/** Why `params` cannot be the parameters of `wake` (first problem, with the parameter's name), or null. */
export function wakeParamsProblem(wake: WakeModelName, params: Readonly<Record<string, number>>): { name: string; message: string } | null {
  const known = wakeParameterNames(wake);
  for (const [name, value] of Object.entries(params)) {
    if (!known.includes(name)) {
      const near = nearestKey(name, known);
      return { name, message: `unknown parameter '${name}' for ${wake}${near ? `; did you mean '${near}'?` : ''} (its parameters: ${known.join(', ')})` };
    }
    const problem = wakeParameterValueProblem(name, value);
    if (problem) return { name, message: problem };
  }
  return null;
}
