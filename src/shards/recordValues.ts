/**
 * A record's values as a shard reader finds them (RawRecord) and their conversion to wflo's
 * LayoutRecord: layouts given as (T, 2) or (2, T) with trailing NaN padding, required fields
 * checked, unknown optional ones filled (-1 / NaN / empty). A problem with one record is a
 * RecordProblem (the record is unusable, the file read goes on); RejectedRecord marks values that
 * were read but cannot be a layout (non-finite coordinates, over the limits, failing
 * verification).
 */
import { createHash } from 'node:crypto';
import { taskIdOf, type LayoutRecord } from '../io/layoutRecord.js';
import type { TaskKey } from './keyPattern.js';

export class RecordProblem extends Error {
  /** True when the HDF5 library failed (damage), false for what the values say. */
  constructor(
    message: string,
    readonly fromHdf5 = false,
  ) {
    super(message);
  }
}

/** Read fine, refused on its values: counts as invalid input (see LostRecord.rejected). */
export class RejectedRecord extends RecordProblem {}

export interface RawRecord {
  key: TaskKey;
  aep: number | undefined;
  x: Float64Array;
  y: Float64Array;
  xInitial?: Float64Array;
  yInitial?: Float64Array;
  aepInitial?: number;
  iterations?: number;
  evaluations?: number;
  wallS?: number;
  attempts?: number;
  aepReported?: number;
  /** The row's own `adopted:<file>` claim (rowSource.ts), when its file has one. */
  source?: string;
}

/** sha256 (16 hex chars) of n_turbines, aep and the layout: equal digests = identical values. */
export function digestOf(nTurbines: number, aep: number, xByTurbine: Float64Array, yByTurbine: Float64Array): string {
  // Layout of `block`: [n, aep, x_0 .. x_{n-1}, y_0 .. y_{n-1}].
  const block = new Float64Array(2 + 2 * nTurbines);
  block[0] = nTurbines;
  block[1] = aep;
  block.set(xByTurbine, 2);
  block.set(yByTurbine, 2 + nTurbines);
  return createHash('sha256').update(new Uint8Array(block.buffer)).digest('hex').slice(0, 16);
}

/** Turbine rows of a (T, 2) or (2, T) layout shape, or null for any other shape. */
export function turbineRowsOf(shape: number[]): number | null {
  if (shape.length === 2 && shape[1] === 2) return shape[0];
  if (shape.length === 2 && shape[0] === 2) return shape[1];
  return null;
}

/**
 * Split a (T, 2) or (2, T) layout into x and y, dropping trailing NaN padding. `declared` is the
 * record's n_turbines when the file stores it.
 */
export function splitLayout(data: Float64Array, shape: number[], declared: number | undefined, label: string): [Float64Array, Float64Array] {
  let turbines: number;
  let xAt: (t: number) => number;
  let yAt: (t: number) => number;
  if (shape.length === 2 && shape[1] === 2) {
    turbines = shape[0];
    xAt = (t) => data[2 * t];
    yAt = (t) => data[2 * t + 1];
  } else if (shape.length === 2 && shape[0] === 2) {
    turbines = shape[1];
    xAt = (t) => data[t];
    yAt = (t) => data[turbines + t];
  } else {
    throw new RecordProblem(`${label} has shape (${shape.join(', ')}), expected (T, 2)`);
  }
  let n = 0;
  while (n < turbines && Number.isFinite(xAt(n)) && Number.isFinite(yAt(n))) n++;
  if (declared !== undefined) {
    if (!Number.isInteger(declared) || declared < 0 || declared > turbines)
      throw new RecordProblem(`n_turbines ${declared} does not fit ${label} with ${turbines} rows`);
    if (n < declared) throw new RejectedRecord(`turbine ${n} has a non-finite position (${xAt(n)}, ${yAt(n)}) in ${label} (n_turbines ${declared})`);
    n = declared;
  } else {
    for (let t = n; t < turbines; t++) {
      if (!Number.isNaN(xAt(t)) || !Number.isNaN(yAt(t))) {
        throw new RejectedRecord(`turbine ${n} has a non-finite position (${xAt(n)}, ${yAt(n)}) in ${label} but later positions are set`);
      }
    }
  }
  const xByTurbine = new Float64Array(n);
  const yByTurbine = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    xByTurbine[t] = xAt(t);
    yByTurbine[t] = yAt(t);
  }
  return [xByTurbine, yByTurbine];
}

function intOr(value: number | undefined, fallback: number, max = 2147483647): number {
  return value !== undefined && Number.isInteger(value) && Math.abs(value) <= max ? value : fallback;
}

/**
 * Validate the required fields and fill unknown optional ones (-1 / NaN / empty). With
 * `aepOptional` (adoption with `--aep recompute`, where wflo computes the AEP itself) a record
 * without an AEP, or with NaN for one, is usable; its AEP is NaN.
 */
export function toLayoutRecord(raw: RawRecord, aepOptional = false): LayoutRecord {
  const { farmId, farmType, seed } = raw.key;
  if (!Number.isInteger(farmId) || Math.abs(farmId) > 2147483647) throw new RecordProblem(`farm_id ${farmId} is not an int32`);
  if (!Number.isInteger(farmType) || Math.abs(farmType) > 2147483647) throw new RecordProblem(`farm_type ${farmType} is not an int32`);
  if (!Number.isSafeInteger(seed)) throw new RecordProblem(`seed ${seed} is not an integer`);
  const aep = raw.aep ?? NaN;
  if (raw.aep === undefined && !aepOptional) throw new RecordProblem('no aep');
  if (!Number.isFinite(aep) && !(aepOptional && Number.isNaN(aep))) throw new RecordProblem(`aep is ${raw.aep}`);
  const n = raw.x.length;
  if (n === 0) throw new RecordProblem('layout has no turbines');
  const initialFits = raw.xInitial && raw.yInitial && raw.xInitial.length === n && raw.yInitial.length === n;
  return {
    taskId: taskIdOf(farmId, farmType, seed),
    farmId,
    farmType,
    seed,
    nTurbines: n,
    aep,
    aepInitial: raw.aepInitial !== undefined && typeof raw.aepInitial === 'number' ? raw.aepInitial : NaN,
    x: raw.x,
    y: raw.y,
    xInitial: initialFits ? raw.xInitial! : new Float64Array(0),
    yInitial: initialFits ? raw.yInitial! : new Float64Array(0),
    iterations: intOr(raw.iterations, -1),
    evaluations: intOr(raw.evaluations, -1, Number.MAX_SAFE_INTEGER),
    wallS: raw.wallS ?? NaN,
    attempts: intOr(raw.attempts, -1),
    ...(raw.aepReported !== undefined && Number.isFinite(raw.aepReported) ? { aepReported: raw.aepReported } : {}),
    ...(raw.source !== undefined ? { source: raw.source } : {}),
  };
}
