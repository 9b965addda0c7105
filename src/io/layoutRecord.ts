/**
 * One row of wflo's HDF5 output (`layouts.h5`): a finished (farm, type, seed) optimization.
 * The same shape is produced by `wflo run` (from the ledger) and `wflo shards merge` (from
 * other pipelines' worker files, where fields they lack are NaN / -1 / empty).
 */
export interface LayoutRecord {
  /** `farm_<f>_type_<t>_seed_<s>` */
  taskId: string;
  farmId: number;
  farmType: number;
  seed: number;
  nTurbines: number;
  /** Optimized AEP, MWh. */
  aep: number;
  /** AEP of the initial layout, MWh (NaN when unknown). */
  aepInitial: number;
  /** Optimized layout, metres; length nTurbines each. */
  x: Float64Array;
  y: Float64Array;
  /** Initial layout (empty arrays when unknown). */
  xInitial: Float64Array;
  yInitial: Float64Array;
  iterations: number;
  evaluations: number;
  wallS: number;
  attempts: number;
  /** Spec hash of the task the row was computed for ("" or absent when unknown). */
  specHash?: string;
  /** Where the row came from: "computed", "adopted:<file>", "recovered:<file>", "shard:<folder>". */
  source?: string;
  /**
   * The AEP the producer reported when it is not wflo's number for the campaign's model (a user's
   * program, an adopted file); NaN or absent otherwise. `aep` is always wflo's.
   */
  aepReported?: number;
  /** Named scalars a user's program asked to keep (LCOE, cable length, …). */
  metrics?: Readonly<Record<string, number>>;
  /**
   * Each turbine's model, an index into its farm type's models (length nTurbines); absent means
   * every turbine is model 0 (a farm type of one model).
   */
  turbineTypes?: Int32Array;
  /**
   * A farm with economics: each turbine's cable toward its substation (the collection network the
   * gate routed for this layout): the index of the next turbine, or −1 − s for substation s
   * (length nTurbines); absent for a row without economics.
   */
  cableTo?: Int32Array;
  /** The cable type of each turbine's edge: an index into the farm's `economics.cables` (length nTurbines, with cableTo). */
  cableType?: Int32Array;
}

/** The task id of (farm, type, seed). */
export function taskIdOf(farmId: number, farmType: number, seed: number): string {
  return `farm_${farmId}_type_${farmType}_seed_${seed}`;
}

/** Parse `farm_<f>_type_<t>_seed_<s>`; null when the key has another shape. */
export function parseTaskId(key: string): { farmId: number; farmType: number; seed: number } | null {
  const m = /^farm_(-?\d+)_type_(-?\d+)_seed_(-?\d+)$/.exec(key);
  if (!m) return null;
  return { farmId: Number(m[1]), farmType: Number(m[2]), seed: Number(m[3]) };
}

/** Sort order of the output file: (farm_id, farm_type, seed). */
export function compareRecords(a: Pick<LayoutRecord, 'farmId' | 'farmType' | 'seed'>, b: Pick<LayoutRecord, 'farmId' | 'farmType' | 'seed'>): number {
  return a.farmId - b.farmId || a.farmType - b.farmType || a.seed - b.seed;
}
