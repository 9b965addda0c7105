/** Test helper: deterministic LayoutRecords (createRng) for writer/reader tests. */
import { createRng } from '../../../src/util/rng.js';
import { taskIdOf, type LayoutRecord } from '../../../src/io/layoutRecord.js';

export interface RecordSpec {
  farmId: number;
  farmType: number;
  seed: number;
  nTurbines: number;
  withInitial?: boolean;
}

/** One record whose values are drawn from an rng seeded by its key (same key -> same values). */
export function makeRecord(spec: RecordSpec): LayoutRecord {
  const rng = createRng(spec.farmId * 1_000_003 + spec.farmType * 10_007 + spec.seed);
  const n = spec.nTurbines;
  const xByTurbine = Float64Array.from({ length: n }, () => rng.uniform(-1300, 1300));
  const yByTurbine = Float64Array.from({ length: n }, () => rng.uniform(-1300, 1300));
  const withInitial = spec.withInitial ?? true;
  return {
    taskId: taskIdOf(spec.farmId, spec.farmType, spec.seed),
    farmId: spec.farmId,
    farmType: spec.farmType,
    seed: spec.seed,
    nTurbines: n,
    aep: rng.uniform(300_000, 500_000),
    aepInitial: withInitial ? rng.uniform(200_000, 300_000) : NaN,
    x: xByTurbine,
    y: yByTurbine,
    xInitial: withInitial ? Float64Array.from({ length: n }, () => rng.uniform(-1300, 1300)) : new Float64Array(0),
    yInitial: withInitial ? Float64Array.from({ length: n }, () => rng.uniform(-1300, 1300)) : new Float64Array(0),
    iterations: withInitial ? rng.int(500) : -1,
    evaluations: withInitial ? 1000 + rng.int(100000) : -1,
    wallS: withInitial ? rng.uniform(0.1, 100) : NaN,
    attempts: withInitial ? 1 + rng.int(3) : -1,
  };
}

/** Records for every (farm, type, seed) of the ranges, sorted; n_turbines varies by type. */
export function makeGridRecords(farms: number, types: number, seeds: number, turbinesOfType: (t: number) => number, seedOffset = 0): LayoutRecord[] {
  const out: LayoutRecord[] = [];
  for (let f = 0; f < farms; f++) {
    for (let t = 0; t < types; t++) {
      for (let s = 0; s < seeds; s++) {
        out.push(makeRecord({ farmId: f, farmType: t, seed: s + seedOffset, nTurbines: turbinesOfType(t), withInitial: (f + s) % 3 !== 0 }));
      }
    }
  }
  return out;
}

/** Split into batches of `size`. */
export function batchesOf<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
