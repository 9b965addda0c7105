/**
 * A wake model's parameters as an input file or flag gives them (`wake_params`, `--k`), checked
 * against the parameters the model reads (physics/modelParameters.ts): an unknown name (with the
 * nearest known one) or a value of the wrong sign is a problem naming the parameter.
 */
import type { WakeModelName } from '../physics/farmModel.js';
import { wakeParameterNames } from '../physics/modelParameters.js';
import { nearestKey } from './didYouMean.js';

/**
 * Signs the physics needs (a name means the same in every model that reads it): growth rates,
 * widths and continuation factors > 0; the turbulence slopes and offsets ≥ 0; Ct caps in (0, 1].
 * Parameters that may be negative (Carbajo Fuertes' c_ε0, Blondel's b_f) are only finite.
 */
const POSITIVE = new Set(['k', 'A', 'ceps', 'deltawD', 'lam', 'B']);
const NON_NEGATIVE = new Set(['a1', 'a2', 'cTI1', 'cTI2', 'epsCoeff', 'a_s', 'b_s', 'c_s']);

/** Why `params` cannot be the parameters of `wake` (first problem, with the parameter's name), or null. */
export function wakeParamsProblem(wake: WakeModelName, params: Readonly<Record<string, number>>): { name: string; message: string } | null {
  const known = wakeParameterNames(wake);
  for (const [name, value] of Object.entries(params)) {
    if (!known.includes(name)) {
      const near = nearestKey(name, known);
      return { name, message: `unknown parameter '${name}' for ${wake}${near ? `; did you mean '${near}'?` : ''} (its parameters: ${known.join(', ')})` };
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) return { name, message: `expected a finite number, got ${JSON.stringify(value)}` };
    if (POSITIVE.has(name) && !(value > 0)) return { name, message: `must be > 0, got ${value}` };
    if (NON_NEGATIVE.has(name) && !(value >= 0)) return { name, message: `must be >= 0, got ${value}` };
    if (name === 'ctlim' && !(value > 0 && value <= 1)) return { name, message: `must be in (0, 1], got ${value}` };
  }
  return null;
}
