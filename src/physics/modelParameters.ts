/**
 * The parameters a wake model reads, by name: those of its waked-engine form (wake/localRegistry.ts)
 * and of its free-stream form where it has one (wake/registry.ts). `wec` (wake expansion
 * continuation) is the optimizer's, never a model parameter of a file. Input files and flags are
 * checked against them, so that a parameter the model does not read (`k` of a model whose
 * expansion comes from the turbulence) is an error, not ignored.
 */
import type { WakeModelName } from './farmModel.js';
import { LOCAL_WAKE_MODELS } from './wake/localRegistry.js';
import { WAKE_MODELS } from './wake/registry.js';

/**
 * Signs the physics needs (a name means the same in every model that reads it): growth rates,
 * widths and continuation factors > 0; the turbulence slopes and offsets ≥ 0; Ct caps in (0, 1].
 * Parameters that may be negative (Carbajo Fuertes' c_ε0, Blondel's b_f) are only finite.
 */
const POSITIVE = new Set(['k', 'A', 'ceps', 'deltawD', 'lam', 'B']);
const NON_NEGATIVE = new Set(['a1', 'a2', 'cTI1', 'cTI2', 'epsCoeff', 'a_s', 'b_s', 'c_s']);

export function wakeParameterNames(wake: WakeModelName): string[] {
  const names = new Set<string>();
  for (const source of [LOCAL_WAKE_MODELS[wake]?.defaults, WAKE_MODELS[wake]?.defaults]) {
    for (const name of Object.keys(source ?? {})) if (name !== 'wec') names.add(name);
  }
  return [...names].sort();
}

/** Why `params` cannot be the parameters of `wake` (first problem, with the parameter's name), or null. */
export function wakeParamsProblem(wake: WakeModelName, params: Readonly<Record<string, number>>): { name: string; message: string } | null {
  const known = wakeParameterNames(wake);
  for (const [name, value] of Object.entries(params)) {
    if (!known.includes(name)) return { name, message: `unknown parameter '${name}' for ${wake} (its parameters: ${known.join(', ')})` };
    if (typeof value !== 'number' || !Number.isFinite(value)) return { name, message: `expected a finite number, got ${JSON.stringify(value)}` };
    if (POSITIVE.has(name) && !(value > 0)) return { name, message: `must be > 0, got ${value}` };
    if (NON_NEGATIVE.has(name) && !(value >= 0)) return { name, message: `must be >= 0, got ${value}` };
    if (name === 'ctlim' && !(value > 0 && value <= 1)) return { name, message: `must be in (0, 1], got ${value}` };
  }
  return null;
}
