/**
 * A campaign after loading: every farm and farm type resolved to numbers (turbine, wind,
 * boundary), seeds expanded, defaults filled in. Everything a worker needs to run a task is in
 * `FarmSpec` and `FarmTypeSpec`, which are plain structured-clonable data (typed arrays included)
 * so they can be sent to worker processes unchanged.
 */
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import type { FarmModelSpec } from '../physics/farmModel.js';
import type { Boundary } from '../geometry/boundary.js';
import type { CaseNeighbours } from '../case/case.js';
import type { FarmModels } from '../io/farmTurbines.js';
import type { Params } from './paramsSchema.js';
import type { DirectionTreatment } from '../physics/directionTreatment.js';
import type { EconomicsSpec } from '../io/costFields.js';
import type { ObjectiveName } from '../cost/economicModel.js';
import type { CaseFileOwners } from './settingsOwnerTypes.js';

/**
 * The wind resource as the campaign wrote it (what a command task's program is told besides the
 * resolved bins): a built-in name, a file (path relative to the program's working directory), an
 * inline mapping, or the built-in case / case file it came with.
 */
export type WindAsWritten =
  | { kind: 'builtin'; name: string }
  | { kind: 'file'; path: string }
  | { kind: 'inline'; mapping: Record<string, unknown> }
  | { kind: 'case'; case: string };

/** Optimizer method and settings as written in the campaign (shape of optimize/'s settings). */
export interface OptimizerSettings {
  method: string;
  [setting: string]: unknown;
}

export interface FarmSpec {
  id: number;
  label: string;
  boundary: Boundary;
  wind: WindResource;
  model: FarmModelSpec;
  /** `params:` for a command optimizer's program (part of the hash when given). */
  params?: Params;
  /** Only for command optimizers (not hashed: the resolved `wind` is). */
  windAsWritten?: WindAsWritten;
  /** Fixed turbines of neighbouring farms (part of the hash when given). */
  neighbours?: CaseNeighbours;
  /**
   * How the wind's directions are treated (`directions:`; absent: its bins as listed). `wind` is
   * the wind as listed; every AEP of the farm's tasks is on farmWind(f) (farmWind.ts). Part of the
   * hash when given.
   */
  directions?: DirectionTreatment;
  /** Cost-model inputs (`economics:`, io/costFields.ts), plain data; part of the hash when given (not the bathymetry file's path). */
  economics?: EconomicsSpec;
  /** Content hash of boundary + wind + model (+ params, neighbours, directions, economics): changes exactly when the farm's results can. */
  hash: string;
}

export interface FarmTypeSpec {
  id: number;
  label: string;
  /** The turbine model (with several, the first listed). */
  turbine: Turbine;
  nTurbines: number;
  /** Minimum spacing, metres (with several models, the largest of theirs). */
  minSpacingM: number;
  /** Several turbine models: each one's spacing and fixed counts, or counts null when the optimizer chooses. */
  models?: FarmModels;
  /** `params:` for a command optimizer's program (part of the hash when given). */
  params?: Params;
  /** What the optimizer minimizes or maximizes (absent: aep); lcoe and npv need the farm's economics. Part of the hash when given. */
  objective?: ObjectiveName;
  /** Content hash of turbine numbers + count + spacing (+ params, objective). */
  hash: string;
}

export interface RetryPolicy {
  attempts: number;
  backoffInitialS: number;
  backoffFactor: number;
  backoffMaxS: number;
}

export interface Campaign {
  name: string;
  /** Absolute path of the campaign file, and its text (kept in the ledger for `wflo missing`). */
  file: string;
  sourceText: string;
  /** Absolute output folder, or null when neither the file nor `--out` gives one. */
  outputDir: string | null;
  farms: FarmSpec[];
  farmTypes: FarmTypeSpec[];
  seeds: number[];
  optimizer: OptimizerSettings;
  optimizerHash: string;
  /** null: one per core. */
  workers: number | null;
  timeoutS: number;
  retry: RetryPolicy;
  /** null: no limit. */
  maxFailures: number | null;
  exportEveryResults: number;
  exportEveryS: number;
  /** Task ids to restrict the run to (null: the whole grid). */
  only: string[] | null;
  /** Per farm built on a case file: who owns each setting the two share (settingsOwner.ts; absent: no such farm). */
  settingOwners?: CaseFileOwners[];
}

/** Delay before retry number `failedAttempts` (1 = after the first failure), in seconds. */
export function backoffDelayS(policy: RetryPolicy, failedAttempts: number): number {
  const delay = policy.backoffInitialS * Math.pow(policy.backoffFactor, Math.max(0, failedAttempts - 1));
  return Math.min(policy.backoffMaxS, delay);
}
