/**
 * A combination of a farm and its model that no solver computes (solvePlan.ts), as an input error
 * (exit 2, one line): `<field> '<value>': message`.
 */
import { InputError } from '../util/errors.js';
import type { FarmModelSpec } from './farmModel.js';
import type { FarmConflict } from './solvePlanTypes.js';

export class FarmConflictError extends InputError {
  readonly conflict: FarmConflict;
  constructor(conflict: FarmConflict, model: FarmModelSpec) {
    const f = conflict.field;
    const value =
      f === 'ground'
        ? model.ground
        : f === 'blockage'
          ? model.blockage
          : f === 'site'
            ? model.site?.source
            : f === 'rotorAverage'
              ? (model.rotorAverage ?? 'default')
              : model.superposition;
    super(`${f} '${value}': ${conflict.message}`);
    this.conflict = conflict;
  }
}
