/**
 * A wake model's parameters as an input file or flag gives them (`wake_params`, `--k`), checked
 * against the parameters the model reads (physics/modelParameters.ts): an unknown name (with the
 * nearest known one) or a value outside the parameter's physical range is a problem naming it.
 * Every door uses these rules: case files, campaign farms, `--k`, windIO analysis blocks and
 * PyWake reference files.
 */
import type { WakeModelName } from '../physics/farmModel.js';
import { wakeParameterNames } from '../physics/modelParameters.js';
import { wakeModelOf } from '../physics/farmModel.js';
import { parameterRangeProblem } from '../physics/wake/deficitModel.js';
import { nearestKey } from './didYouMean.js';

/** Why `value` cannot be parameter `name` of `wake` (its descriptor's range), or null (unknown names are the caller's to report). */
export function wakeParameterValueProblem(wake: WakeModelName, name: string, value: unknown): string | null {
  const spec = wakeModelOf(wake).parameters[name];
  if (!spec) return typeof value === 'number' && Number.isFinite(value) ? null : `expected a finite number, got ${JSON.stringify(value)}`;
  return parameterRangeProblem(name, spec, value);
}

/** Why `params` cannot be the parameters of `wake` (first problem, with the parameter's name), or null. */
export function wakeParamsProblem(wake: WakeModelName, params: Readonly<Record<string, number>>): { name: string; message: string } | null {
  const known = wakeParameterNames(wake);
  for (const [name, value] of Object.entries(params)) {
    if (!known.includes(name)) {
      const near = nearestKey(name, known);
      return { name, message: `unknown parameter '${name}' for ${wake}${near ? `; did you mean '${near}'?` : ''} (its parameters: ${known.join(', ')})` };
    }
    const problem = wakeParameterValueProblem(wake, name, value);
    if (problem) return { name, message: problem };
  }
  return null;
}
