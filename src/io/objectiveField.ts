/**
 * The `objective:` field of case files and campaign farm types, and `wflo optimize --objective`:
 * aep (default) | lcoe | npv. A cost objective needs the case's economics (`economics:`, read by
 * io/costFields.ts into Case.economics); without them it is one input error naming the field.
 */
import { z } from 'zod';
import type { ObjectiveName } from '../cost/economicModel.js';
import type { Case } from '../case/case.js';
import { InputError } from '../util/errors.js';
import { nearestKey } from '../util/nearestName.js';

export const OBJECTIVE_NAMES: readonly ObjectiveName[] = ['aep', 'lcoe', 'npv'];

export const objectiveSchema = z.enum(['aep', 'lcoe', 'npv']);

/** The problem with objective `name` for a case (null: none): an unknown name, or a cost objective without economics. */
export function objectiveProblem(name: string, hasEconomics: boolean): string | null {
  if (!(OBJECTIVE_NAMES as readonly string[]).includes(name)) {
    const near = nearestKey(name, OBJECTIVE_NAMES);
    return `unknown objective '${name}'${near ? `; did you mean '${near}'?` : ''} (known: ${OBJECTIVE_NAMES.join(', ')})`;
  }
  if (name !== 'aep' && !hasEconomics)
    return `'${name}' needs the farm's economics (an \`economics:\` block: cost model, water depth, substations, cables); without them only aep can be optimized`;
  return null;
}

/** The case with objective `name` (`--objective`), or one InputError naming the flag and the case. */
export function withObjective(c: Case, name: string | undefined, where: string): Case {
  if (name === undefined) return c;
  const problem = objectiveProblem(name, c.economics !== undefined);
  if (problem) throw new InputError(`${where}: --objective: ${problem}`);
  return { ...c, objective: name as ObjectiveName };
}
