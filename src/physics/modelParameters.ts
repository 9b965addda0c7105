/**
 * The parameters a wake model reads, by name (its descriptor's `parameters`: wake/deficitModel.ts).
 * `wec` (wake expansion continuation) is the optimizer's, never a model parameter of a file. Input
 * files and flags are checked against them (io/wakeParams.ts), so that a parameter the model does
 * not read (`k` of a model whose expansion comes from the turbulence) is an error, not ignored.
 */
import type { WakeModelName } from './farmModel.js';
import { wakeModelOf } from './farmModel.js';

/** The parameter names of `wake`, sorted. */
export function wakeParameterNames(wake: WakeModelName): string[] {
  return Object.keys(wakeModelOf(wake).parameters).sort();
}
