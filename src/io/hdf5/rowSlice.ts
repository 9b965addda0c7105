/**
 * A slice of consecutive output rows held as one typed array per column: the unit the writer
 * appends and the reader/verifier read back. Converts between LayoutRecord objects and the
 * column buffers, and feeds each column's bytes to a running digest so the writer can prove
 * that what it reads back after closing equals what it wrote.
 */
import { createHash, type Hash } from 'node:crypto';
import type { LayoutRecord } from '../layoutRecord.js';
import { CABLE_NONE, columnsWith, metricNameOf, SOURCE_WIDTH, type ColumnSpec } from './layoutsSchema.js';

export type ColumnData = Int32Array | BigInt64Array | Float64Array | string[];

export class RowSlice {
  length = 0;
  readonly farmId: Int32Array;
  readonly farmType: Int32Array;
  readonly seed: BigInt64Array;
  readonly taskId: string[];
  readonly specHash: string[];
  readonly source: string[];
  readonly nTurbines: Int32Array;
  readonly aep: Float64Array;
  readonly aepInitial: Float64Array;
  /** [row][turbine][x|y], NaN-padded. */
  readonly layout: Float64Array;
  readonly initialLayout: Float64Array;
  readonly iterations: Int32Array;
  readonly evaluations: BigInt64Array;
  readonly wallS: Float64Array;
  readonly attempts: Int32Array;
  readonly aepReported: Float64Array;
  /** [row][turbine] model index, -1 past n_turbines. */
  readonly turbineType: Int32Array;
  /** [row][turbine] next node toward the substation (−1−s: substation s), CABLE_NONE where there is no cable. */
  readonly cableTo: Int32Array;
  /** [row][turbine] cable type index, -1 where there is no cable. */
  readonly cableType: Int32Array;
  /** One column per metric name (NaN where a row has none). */
  readonly metrics: Map<string, Float64Array>;
  /** The columns this slice holds, in file order. */
  readonly columns: readonly ColumnSpec[];

  constructor(
    readonly capacity: number,
    readonly maxTurbines: number,
    metricNames: readonly string[] = [],
  ) {
    this.columns = columnsWith(metricNames);
    this.aepReported = new Float64Array(capacity).fill(NaN);
    this.metrics = new Map([...metricNames].map((name) => [name, new Float64Array(capacity).fill(NaN)]));
    this.farmId = new Int32Array(capacity);
    this.farmType = new Int32Array(capacity);
    this.seed = new BigInt64Array(capacity);
    this.taskId = new Array<string>(capacity).fill('');
    this.specHash = new Array<string>(capacity).fill('');
    this.source = new Array<string>(capacity).fill('');
    this.nTurbines = new Int32Array(capacity);
    this.aep = new Float64Array(capacity);
    this.aepInitial = new Float64Array(capacity);
    this.layout = new Float64Array(capacity * maxTurbines * 2).fill(NaN);
    this.initialLayout = new Float64Array(capacity * maxTurbines * 2).fill(NaN);
    this.iterations = new Int32Array(capacity);
    this.evaluations = new BigInt64Array(capacity);
    this.wallS = new Float64Array(capacity);
    this.attempts = new Int32Array(capacity);
    this.turbineType = new Int32Array(capacity * maxTurbines).fill(-1);
    this.cableTo = new Int32Array(capacity * maxTurbines).fill(CABLE_NONE);
    this.cableType = new Int32Array(capacity * maxTurbines).fill(-1);
  }

  get full(): boolean {
    return this.length === this.capacity;
  }

  /** Start a new slice (layouts back to NaN so padding never leaks from the previous slice). */
  reset(): void {
    this.layout.fill(NaN, 0, this.length * this.maxTurbines * 2);
    this.initialLayout.fill(NaN, 0, this.length * this.maxTurbines * 2);
    this.aepReported.fill(NaN, 0, this.length);
    this.turbineType.fill(-1, 0, this.length * this.maxTurbines);
    this.cableTo.fill(CABLE_NONE, 0, this.length * this.maxTurbines);
    this.cableType.fill(-1, 0, this.length * this.maxTurbines);
    for (const m of this.metrics.values()) m.fill(NaN, 0, this.length);
    this.length = 0;
  }

  /** Append a record; the caller has validated it (see validateRecord in layoutsWriter). */
  push(record: LayoutRecord): void {
    const row = this.length++;
    this.farmId[row] = record.farmId;
    this.farmType[row] = record.farmType;
    this.seed[row] = BigInt(record.seed);
    this.taskId[row] = record.taskId;
    this.specHash[row] = record.specHash ?? '';
    const source = record.source ?? '';
    this.source[row] = source.length < SOURCE_WIDTH ? source : source.slice(source.length - (SOURCE_WIDTH - 1));
    this.nTurbines[row] = record.nTurbines;
    this.aep[row] = record.aep;
    this.aepInitial[row] = record.aepInitial;
    interleave(this.layout, row * this.maxTurbines * 2, record.x, record.y);
    interleave(this.initialLayout, row * this.maxTurbines * 2, record.xInitial, record.yInitial);
    this.iterations[row] = record.iterations;
    this.evaluations[row] = BigInt(record.evaluations);
    this.wallS[row] = record.wallS;
    this.attempts[row] = record.attempts;
    this.aepReported[row] = record.aepReported ?? NaN;
    const types = this.turbineType.subarray(row * this.maxTurbines, row * this.maxTurbines + record.nTurbines);
    if (record.turbineTypes) types.set(record.turbineTypes);
    else types.fill(0);
    if (record.cableTo && record.cableType) {
      this.cableTo.set(record.cableTo, row * this.maxTurbines);
      this.cableType.set(record.cableType, row * this.maxTurbines);
    }
    if (record.metrics) for (const [name, column] of this.metrics) column[row] = record.metrics[name] ?? NaN;
  }

  /** The filled part of one column, ready for `write_slice`. */
  column(spec: ColumnSpec): ColumnData {
    const n = this.length;
    switch (spec.name) {
      case 'farm_id':
        return this.farmId.subarray(0, n);
      case 'farm_type':
        return this.farmType.subarray(0, n);
      case 'seed':
        return this.seed.subarray(0, n);
      case 'task_id':
        return this.taskId.slice(0, n);
      case 'n_turbines':
        return this.nTurbines.subarray(0, n);
      case 'aep':
        return this.aep.subarray(0, n);
      case 'aep_initial':
        return this.aepInitial.subarray(0, n);
      case 'layout':
        return this.layout.subarray(0, n * this.maxTurbines * 2);
      case 'initial_layout':
        return this.initialLayout.subarray(0, n * this.maxTurbines * 2);
      case 'iterations':
        return this.iterations.subarray(0, n);
      case 'evaluations':
        return this.evaluations.subarray(0, n);
      case 'wall_s':
        return this.wallS.subarray(0, n);
      case 'attempts':
        return this.attempts.subarray(0, n);
      case 'spec_hash':
        return this.specHash.slice(0, n);
      case 'source':
        return this.source.slice(0, n);
      case 'aep_reported':
        return this.aepReported.subarray(0, n);
      case 'turbine_type':
        return this.turbineType.subarray(0, n * this.maxTurbines);
      case 'cable_to':
        return this.cableTo.subarray(0, n * this.maxTurbines);
      case 'cable_type':
        return this.cableType.subarray(0, n * this.maxTurbines);
      default: {
        const metric = metricNameOf(spec);
        const column = metric !== null ? this.metrics.get(metric) : undefined;
        if (!column) throw new Error(`unknown column ${spec.name}`);
        return column.subarray(0, n);
      }
    }
  }

  /** Load rows read from a file (one array per column, all of `length` rows). */
  static fromColumns(columns: Map<string, ColumnData>, length: number, maxTurbines: number, metricNames: readonly string[] = []): RowSlice {
    const slice = new RowSlice(length, maxTurbines, metricNames);
    slice.length = length;
    for (const spec of slice.columns) {
      const data = columns.get(spec.name);
      if (!data) continue;
      const target = slice.column(spec);
      if (Array.isArray(target)) {
        const strings = spec.name === 'task_id' ? slice.taskId : spec.name === 'spec_hash' ? slice.specHash : slice.source;
        for (let i = 0; i < length; i++) strings[i] = (data as string[])[i];
      } else {
        (target as Float64Array).set(data as Float64Array);
      }
    }
    return slice;
  }

  /** Row `row` as a LayoutRecord (layouts cut to n_turbines). */
  record(row: number): LayoutRecord {
    const nTurbines = this.nTurbines[row];
    const base = row * this.maxTurbines * 2;
    const [x, y] = deinterleave(this.layout, base, Math.min(nTurbines, this.maxTurbines));
    const [xInitial, yInitial] = initialOf(this.initialLayout, base, Math.min(nTurbines, this.maxTurbines));
    return {
      taskId: this.taskId[row],
      farmId: this.farmId[row],
      farmType: this.farmType[row],
      seed: Number(this.seed[row]),
      nTurbines,
      aep: this.aep[row],
      aepInitial: this.aepInitial[row],
      x,
      y,
      xInitial,
      yInitial,
      iterations: this.iterations[row],
      evaluations: Number(this.evaluations[row]),
      wallS: this.wallS[row],
      attempts: this.attempts[row],
      // Absent rather than "" when unknown, so a record without them reads back as written.
      ...(this.specHash[row] ? { specHash: this.specHash[row] } : {}),
      ...(this.source[row] ? { source: this.source[row] } : {}),
      ...(Number.isNaN(this.aepReported[row]) ? {} : { aepReported: this.aepReported[row] }),
      ...this.turbineTypesOf(row, Math.min(nTurbines, this.maxTurbines)),
      ...this.cablesOf(row, Math.min(nTurbines, this.maxTurbines)),
      ...this.metricsOf(row),
    };
  }

  /** A row's models, absent when every turbine is model 0 (one model, or a file without the column). */
  private turbineTypesOf(row: number, n: number): { turbineTypes?: Int32Array } {
    const types = this.turbineType.subarray(row * this.maxTurbines, row * this.maxTurbines + n);
    return types.some((t) => t !== 0 && t !== -1) ? { turbineTypes: Int32Array.from(types) } : {};
  }

  /** A row's cables, absent when it has none (no economics, or a file older than the columns): every type -1. */
  private cablesOf(row: number, n: number): { cableTo?: Int32Array; cableType?: Int32Array } {
    const base = row * this.maxTurbines;
    const type = this.cableType.subarray(base, base + n);
    if (n === 0 || type.every((t) => t === -1)) return {};
    return { cableTo: this.cableTo.slice(base, base + n), cableType: Int32Array.from(type) };
  }

  private metricsOf(row: number): { metrics?: Record<string, number> } {
    let out: Record<string, number> | undefined;
    for (const [name, column] of this.metrics) if (!Number.isNaN(column[row])) (out ??= {})[name] = column[row];
    return out ? { metrics: out } : {};
  }
}

function interleave(target: Float64Array, base: number, xs: ArrayLike<number>, ys: ArrayLike<number>): void {
  for (let t = 0; t < xs.length; t++) {
    target[base + 2 * t] = xs[t];
    target[base + 2 * t + 1] = ys[t];
  }
}

function deinterleave(source: Float64Array, base: number, n: number): [Float64Array, Float64Array] {
  const xByTurbine = new Float64Array(n);
  const yByTurbine = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    xByTurbine[t] = source[base + 2 * t];
    yByTurbine[t] = source[base + 2 * t + 1];
  }
  return [xByTurbine, yByTurbine];
}

/** Initial layout of a row: empty arrays when the row holds none (all NaN). */
function initialOf(source: Float64Array, base: number, n: number): [Float64Array, Float64Array] {
  let known = 0;
  for (let t = 0; t < n; t++) if (!Number.isNaN(source[base + 2 * t])) known = t + 1;
  return known === 0 ? [new Float64Array(0), new Float64Array(0)] : deinterleave(source, base, known);
}

/** Running sha256 per column over exactly the values written (or read back). */
export class ColumnDigests {
  private readonly hashes = new Map<string, Hash>();

  constructor(columns: readonly ColumnSpec[] = columnsWith([])) {
    for (const spec of columns) this.hashes.set(spec.name, createHash('sha256'));
  }

  update(spec: ColumnSpec, data: ColumnData): void {
    const hash = this.hashes.get(spec.name)!;
    if (Array.isArray(data)) {
      for (const s of data) hash.update(s + '\0');
    } else {
      hash.update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    }
  }

  /** Final hex digests (consumes the hashes). */
  finish(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, hash] of this.hashes) out[name] = hash.digest('hex');
    return out;
  }
}
