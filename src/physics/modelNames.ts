/**
 * The names a farm model's fields accept — the wake deficit models of the registry
 * (wake/registry.ts, built-in and registered), the superposition rules, the blockage and ground
 * models — and the one-line problem for anything else, with the nearest name when one is close.
 * Every input door (case files, campaign farms, `wflo aep` flags, queue payloads) asks here, so a
 * model added to the registry is accepted everywhere at once.
 */
import { deficitModel, deficitModelNames } from './wake/registry.js';
import { BLOCKAGE_MODEL_NAMES, GROUND_MODEL_NAMES, SUPERPOSITION_NAMES } from './farmModel.js';
import { nearestKey } from '../util/nearestName.js';

export type ModelField = 'wake' | 'superposition' | 'blockage' | 'ground';

/** The names a field accepts, in the order the docs list them. */
export function modelNames(field: ModelField): string[] {
  if (field === 'wake') return deficitModelNames();
  if (field === 'superposition') return [...SUPERPOSITION_NAMES];
  if (field === 'blockage') return [...BLOCKAGE_MODEL_NAMES];
  return [...GROUND_MODEL_NAMES];
}

/** Why `value` is not a name the field accepts, or null: `expected one of: …; got 'x'` (and the nearest name). */
export function modelNameProblem(field: ModelField, value: unknown): string | null {
  if (field === 'wake' ? typeof value === 'string' && deficitModel(value) !== undefined : modelNames(field).includes(value as string)) return null;
  const known = modelNames(field);
  const near = typeof value === 'string' ? nearestKey(value, known) : null;
  return `expected one of: ${known.join(', ')}; got ${typeof value === 'string' ? `'${value}'` : JSON.stringify(value)}${near ? ` (did you mean '${near}'?)` : ''}`;
}
