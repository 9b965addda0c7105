/**
 * The campaign file's schema (zod). Every mapping is strict (unknown keys name the nearest known
 * one); inline turbine/wind/boundary mappings are checked by io/'s readers. Field names follow wflo's case files (src/io/caseFile.ts):
 *
 *   name: demo                      # campaign name, stamped into the ledger and layouts.h5
 *   output: ../out/demo             # output folder, relative to this file (`--out` overrides)
 *   farms:                          # a farm = site boundary + wind resource (+ wake model)
 *     - id: 0
 *       case: iea37-cs1-16          # built-in case: its boundary, wind and wake model
 *       # or a case file (case: farm.yaml): the settings the two share have one owner (campaign/settingsOwner.ts)
 *     - id: 1
 *       boundary: sites/a.yaml      # a file, or {circle: …} / {polygon: …} / {polygons: …}
 *       wind: iea37-cs3             # built-in wind name, a file (YAML or a time-series .csv), or a mapping
 *       wake_model: bastankhah2014  # optional: iea37 | bastankhah2014 | jensen | niayifar2016 | turbopark2022 | zong2020 | blondel2020 | carbajofuertes2018
 *       blockage: selfsimilarity2020  # optional: induction (blockage) solved with the wakes
 *       ground: mirror              # optional: the ground as a mirror (image turbines below it)
 *       neighbours: [{x: -3000, y: 0, turbine: iea37-3.35mw}, {file: old.yaml}]   # fixed turbines of other farms (io/farmTurbines.ts)
 *       directions: {spread: 20}    # how the wind's directions are treated (default bins; io/directionsField.ts)
 *       economics: {...}            # cost-model inputs (prices, depth or bathymetry, substations, cables; io/costFields.ts)
 *       site: {speedup: …, ti: …, shear: …}   # a site that is not uniform, or {file: site.nc} (io/siteFields.ts; docs/site.md)
 *   farm_types:                     # a farm type = turbine model + number of turbines
 *     - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}
 *     - {id: 1, turbines: [{turbine: iea37-3.35mw, n: 10}, {turbine: v80, n: 6}]}   # several models, fixed counts
 *     - {id: 2, n_turbines: 16, turbine_choice: [iea37-3.35mw, v80]}                 # the optimizer chooses the models
 *     - {id: 3, turbine: iea37-3.35mw, n_turbines: 16, objective: lcoe}              # aep (default) | lcoe | npv (needs the farms' economics)
 *   seeds: {start: 0, count: 60}    # or a list: [1, 2, 3]
 *   optimizer: {method: noop}       # method + its settings (snake_case; camelCase accepted);
 *                                   # method: command runs your own program (campaign/commandOptimizer.ts)
 *   workers: 2                      # default: one per core (`--workers` overrides)
 *   timeout_s: 600                  # per task; the worker is killed when it runs over
 *   attempts: 3                     # tries per task before it is recorded as failed
 *   backoff: {initial_s: 1, factor: 2, max_s: 60}
 *   max_failures: 20                # stop dispatching after this many failed tasks in one run
 *   export: {every_results: 100, every_s: 60}
 *   only: [farm_0_type_0_seed_3]    # optional: run just these tasks (written by `wflo missing`)
 */
import { z } from 'zod';
import { farmModelShape } from '../io/farmModelFields.js';
import { strict } from '../io/zodIssue.js';
import { objectiveSchema } from '../io/objectiveField.js';
import { paramsSchema } from './paramsSchema.js';
import { economicsSchema } from '../io/costFields.js';
import { neighboursSchema, turbineChoiceSchema, turbineCountsSchema } from '../io/farmTurbines.js';

const nameOrMapping = z.union([z.string().min(1), z.record(z.string(), z.unknown())], {
  error: 'expected a built-in name, a file path or a mapping',
});

const id = z.int().min(0, { error: 'must be an integer >= 0' });

export const farmSchema = strict({
  id,
  label: z.string().optional(),
  case: z.string().min(1).optional(),
  boundary: nameOrMapping.optional(),
  wind: nameOrMapping.optional(),
  ...farmModelShape,
  params: paramsSchema.optional(), // for a `method: command` optimizer's program
  neighbours: neighboursSchema.optional(), // fixed turbines of other farms (io/farmTurbines.ts)
  directions: z.unknown().optional(), // bins | {spread: N} | {gaussian: …} | {refine_deg: S}: io/directionsField.ts reads it
  economics: economicsSchema.optional(), // cost-model inputs: io/costFields.ts
  site: z.unknown().optional(), // a site that is not uniform: io/siteFields.ts reads it (campaign/farmSite.ts)
});

// One of `turbine` (+ n_turbines), `turbines` (models with counts) or `turbine_choice` (+ n_turbines):
// io/farmTurbines.ts checks the combination and names the field.
export const farmTypeSchema = strict({
  id,
  label: z.string().optional(),
  turbine: nameOrMapping.optional(),
  turbines: turbineCountsSchema.optional(),
  turbine_choice: turbineChoiceSchema.optional(),
  n_turbines: z.int().min(1, { error: 'must be an integer >= 1' }).optional(),
  min_spacing_diameters: z.number().min(0).optional(),
  min_spacing_m: z.number().min(0).optional(),
  params: paramsSchema.optional(), // for a `method: command` optimizer's program
  objective: objectiveSchema.optional(), // aep (default) | lcoe | npv: io/objectiveField.ts
});

export const seedRangeSchema = strict({
  start: z.int().min(0, { error: 'must be an integer >= 0' }),
  count: z.int().min(1, { error: 'must be an integer >= 1' }),
});

export const seedsSchema = z.union(
  [z.array(z.int().min(0, { error: 'seeds must be integers >= 0' })).min(1, { error: 'must contain at least one seed' }), seedRangeSchema],
  { error: 'expected a list of seeds or {start, count}' },
);

export const backoffSchema = strict({
  initial_s: z.number().min(0).default(1),
  factor: z.number().min(1).default(2),
  max_s: z.number().min(0).default(60),
});

export const exportSchema = strict({
  every_results: z.int().min(1, { error: 'must be an integer >= 1' }).default(100),
  every_s: z.number().positive().default(60),
});

export const optimizerSchema = z.looseObject({ method: z.string().min(1) });

export const campaignSchema = strict({
  name: z.string().min(1).max(200),
  output: z.string().min(1).optional(),
  farms: z.array(farmSchema).min(1, { error: 'must list at least one farm' }),
  farm_types: z.array(farmTypeSchema).min(1, { error: 'must list at least one farm type' }),
  seeds: seedsSchema,
  optimizer: optimizerSchema,
  workers: z.int().min(1, { error: 'must be an integer >= 1' }).optional(),
  timeout_s: z.number().positive().default(3600),
  attempts: z.int().min(1, { error: 'must be an integer >= 1' }).default(3),
  backoff: backoffSchema.default({ initial_s: 1, factor: 2, max_s: 60 }),
  max_failures: z.int().min(1, { error: 'must be an integer >= 1' }).optional(),
  export: exportSchema.default({ every_results: 100, every_s: 60 }),
  only: z.array(z.string()).optional(),
});

export type CampaignDocument = z.infer<typeof campaignSchema>;
