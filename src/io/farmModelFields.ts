/**
 * The farm-model fields of a case file and of a campaign farm — `wake_model`, `superposition`,
 * `wake_params`, `blockage`, `ground` — as one zod shape and one resolver, so both read them the
 * same way, with the same defaults and the same one-line errors:
 * - names are checked against the model registry (physics/modelNames.ts), not a list fixed at
 *   load: a deficit model registered in wake/registry.ts is accepted here at once;
 * - a base (a built-in case, or the case a file extends) gives the defaults; its wake parameters
 *   belong to its wake model and are dropped when the file names another model;
 * - what the ground model or the engines cannot evaluate together is refused at the field.
 * The resolved model's keys (wake, superposition, params, blockage, ground; absent when unset)
 * are what a campaign's spec hash covers, so this order is part of the ledger's format.
 */
import { z } from 'zod';
import type { FarmModelSpec, SuperpositionName, BlockageModelName, GroundModelName } from '../physics/farmModel.js';
import { modelNameProblem, type ModelField } from '../physics/modelNames.js';
import { groundConflict } from '../physics/solvePlan.js';
import { wakeParamsProblem } from './wakeParams.js';
import type { FieldPath } from './sourceMap.js';
import type { FailAt } from './farmTurbines.js';

/** A model name field: a string the registry knows (the message lists the names and the nearest one). */
function modelName(field: ModelField) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const problem = modelNameProblem(field, value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional();
}

/** The fields, to spread into a schema's shape. */
export const farmModelShape = {
  wake_model: modelName('wake'),
  superposition: modelName('superposition'),
  wake_params: z.record(z.string(), z.number()).optional(), // the model's parameters by name (wake/<model>.ts declares them)
  blockage: modelName('blockage'),
  ground: modelName('ground'),
};

export interface FarmModelFields {
  wake_model?: string;
  superposition?: string;
  wake_params?: Record<string, number>;
  blockage?: string;
  ground?: string;
}

/**
 * The farm model of `fields` over `base` (built-in defaults: iea37, sum of squares). `at` is the
 * path of the mapping that holds the fields (e.g. ['farms', 2]); problems are one line at the field.
 */
export function resolveFarmModel(fields: FarmModelFields, base: FarmModelSpec | undefined, at: FieldPath, fail: FailAt): FarmModelSpec {
  const wake = fields.wake_model ?? base?.wake ?? 'iea37';
  if (fields.wake_params) {
    const problem = wakeParamsProblem(wake, fields.wake_params);
    if (problem) fail([...at, 'wake_params', problem.name], problem.message, true);
  }
  const model: FarmModelSpec = { wake, superposition: (fields.superposition as SuperpositionName | undefined) ?? base?.superposition ?? 'sos' };
  // The base's parameters belong to the base's model.
  const params = fields.wake_params ?? (wake === base?.wake ? base.params : undefined);
  if (params !== undefined) model.params = params;
  const blockage = (fields.blockage as BlockageModelName | undefined) ?? base?.blockage;
  if (blockage !== undefined) model.blockage = blockage;
  const ground = (fields.ground as GroundModelName | undefined) ?? base?.ground;
  if (ground !== undefined && ground !== 'none') model.ground = ground;
  const conflict = groundConflict(model);
  if (conflict) fail([...at, 'ground'], conflict);
  return model;
}
