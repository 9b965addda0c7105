/**
 * Writes wflo's HDF5 output (`layouts.h5`, schema in layoutsSchema.ts) atomically and with
 * bounded memory: records arrive in sorted batches and are appended in row slices of a few MiB,
 * so a merge of thousands of shards never holds all records at once.
 *
 * Steps: take `<path>.lock` (single writer) -> remove temp files of dead writers -> write to a
 * temp name in the same folder -> flush + close -> fsync -> reopen and verify (row count,
 * attributes, a sha256 of every column compared with what was written) -> rename into place ->
 * fsync the folder. On any failure (including ENOSPC) the temp file is removed, an existing
 * output is left untouched, and a one-line RuntimeFailure is thrown.
 *
 * Dimensions: Tmax (the layout's turbine axis) must be known before the first row, so pass
 * `meta.maxTurbines` when `records` is a stream. When `records` is an array of batches it is
 * scanned once for Tmax and N. `meta.nRows` (optional for streams) sizes the chunks so small
 * files stay small, and is checked against the rows actually written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError, RuntimeFailure, WfloError } from '../../util/errors.js';
import { VERSION } from '../../version.js';
import { compareRecords, taskIdOf, type LayoutRecord } from '../layoutRecord.js';
import { acquireWriterLock } from './writerLock.js';
import { commitTemp, discardTemp, fsyncFile, removeStaleTemps, tempPathFor } from './atomicReplace.js';
import { closeQuietly, hdf5Call, hdf5ErrorReason, loadH5, openH5Sync, type H5File, type H5Module } from './h5wasmRuntime.js';
import {
  CABLE_NONE,
  columnsWith,
  FARMS_GROUP,
  h5DtypeOf,
  LAYOUTS_FORMAT_NAME,
  LAYOUTS_FORMAT_VERSION,
  METRICS_GROUP,
  metricNameOf,
  ROOT_ATTRIBUTES,
  rowRanges,
  shapeOf,
  TYPES_GROUP,
  type ColumnSpec,
} from './layoutsSchema.js';
import { ColumnDigests, RowSlice } from './rowSlice.js';
import { writeDefinitionGroups, type DefinitionSet } from './definitionGroups.js';
import { verifyLayoutsFile } from './layoutsVerify.js';
import { appendTaskScale, createDimensionScales } from './dimensionScales.js';
import { fileStamp } from '../../util/fileStamp.js';

/** What the file says about itself (root attributes and definition groups). */
export interface LayoutsFileMeta {
  campaignName: string;
  campaignHash: string;
  /** Tasks the campaign expects; -1 when unknown (e.g. a shard merge without a grid). */
  nExpected: number;
  /** True when every expected task is in the file. */
  complete: boolean;
  /** Tmax: the largest n_turbines of any record. Required when `records` is a stream. */
  maxTurbines?: number;
  /** Exact number of rows, when known: sizes the chunks and is checked. */
  nRows?: number;
  /** `/farms/<id>` definitions (JSON-able; see definitionGroups.ts for the mapping). */
  farms?: DefinitionSet;
  /** `/types/<id>` definitions. */
  types?: DefinitionSet;
  /** Creation time stamped into `created` (default: now). */
  created?: Date;
  /** Which command wrote the file, e.g. "wflo run" or "wflo shards merge". */
  source?: string;
  /** Extra root attributes (names must not clash with the standard ones). */
  attributes?: Record<string, string | number>;
  /** Names of the /metrics/<name> columns (every metric any record carries). */
  metricNames?: readonly string[];
}

export interface WriteLayoutsOptions {
  /** Replace an existing file at `path` (default true). When false an existing file is an InputError. */
  overwrite?: boolean;
  /** Rows appended per HDF5 write (default: a few MiB worth). Mainly for tests and tuning. */
  rowsPerSlice?: number;
}

export interface WriteLayoutsResult {
  rows: number;
  bytes: number;
  /** The written file's stamp (util/fileStamp.ts), taken under the writer lock right after the rename. */
  stamp: string | null;
}

export type LayoutBatches = AsyncIterable<LayoutRecord[]> | Iterable<LayoutRecord[]>;

/** Target size of one chunk of `/layout` (small files stay small, big ones get few chunks). */
const CHUNK_BYTES = 256 * 1024;
/** Rows appended per write: several chunks at once, a few MiB of buffers. */
const SLICE_BYTES = 2 * 1024 * 1024;

interface Dimensions {
  maxTurbines: number;
  nRows?: number;
}

function resolveDimensions(records: LayoutBatches, meta: LayoutsFileMeta): Dimensions {
  if (meta.maxTurbines !== undefined) {
    if (!Number.isSafeInteger(meta.maxTurbines) || meta.maxTurbines < 0) {
      throw new RuntimeFailure(`writeLayoutsFile: meta.maxTurbines must be an integer >= 0, got ${meta.maxTurbines}`);
    }
    return { maxTurbines: meta.maxTurbines, nRows: meta.nRows };
  }
  if (!Array.isArray(records)) {
    throw new RuntimeFailure('writeLayoutsFile: meta.maxTurbines is required when records is a stream');
  }
  let maxTurbines = 0;
  let nRows = 0;
  for (const batch of records as LayoutRecord[][]) {
    for (const r of batch) maxTurbines = Math.max(maxTurbines, r.nTurbines);
    nRows += batch.length;
  }
  if (meta.nRows !== undefined && meta.nRows !== nRows) {
    throw new RuntimeFailure(`writeLayoutsFile: meta.nRows is ${meta.nRows} but the records hold ${nRows} rows`);
  }
  return { maxTurbines, nRows };
}

function chunkRowsFor(tmax: number, nRows: number | undefined): number {
  const byBytes = Math.max(8, Math.min(4096, Math.floor(CHUNK_BYTES / (tmax * 16))));
  return nRows !== undefined ? Math.max(1, Math.min(byBytes, nRows)) : byBytes;
}

function isInt32(v: number): boolean {
  return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;
}

/** One-line reason a record cannot be written, or null. */
function recordProblem(r: LayoutRecord, tmax: number, previous: LayoutRecord | undefined, metricNames: ReadonlySet<string>): string | null {
  if (!isInt32(r.farmId)) return `farmId must be an int32, got ${r.farmId}`;
  if (!isInt32(r.farmType)) return `farmType must be an int32, got ${r.farmType}`;
  if (!Number.isSafeInteger(r.seed)) return `seed must be a safe integer, got ${r.seed}`;
  const expectedId = taskIdOf(r.farmId, r.farmType, r.seed);
  if (r.taskId !== expectedId) return `taskId is "${r.taskId}", expected "${expectedId}"`;
  if (!Number.isInteger(r.nTurbines) || r.nTurbines < 0 || r.nTurbines > tmax) {
    return `nTurbines must be an integer in [0, ${tmax}] (meta.maxTurbines), got ${r.nTurbines}`;
  }
  if (r.x.length !== r.nTurbines || r.y.length !== r.nTurbines) {
    return `x/y have ${r.x.length}/${r.y.length} entries, expected nTurbines = ${r.nTurbines}`;
  }
  if (r.xInitial.length !== r.yInitial.length || (r.xInitial.length !== 0 && r.xInitial.length !== r.nTurbines)) {
    return `xInitial/yInitial have ${r.xInitial.length}/${r.yInitial.length} entries, expected 0 or ${r.nTurbines}`;
  }
  if (!Number.isFinite(r.aep)) return `aep must be finite, got ${r.aep}`;
  if (r.turbineTypes !== undefined && (r.turbineTypes.length !== r.nTurbines || !r.turbineTypes.every((t) => isInt32(t) && t >= 0))) {
    return `turbineTypes must hold nTurbines = ${r.nTurbines} model indices >= 0`;
  }
  if ((r.cableTo === undefined) !== (r.cableType === undefined)) return 'cableTo and cableType come together';
  if (r.cableTo && r.cableType) {
    if (r.cableTo.length !== r.nTurbines || r.cableType.length !== r.nTurbines)
      return `cableTo/cableType have ${r.cableTo.length}/${r.cableType.length} entries, expected nTurbines = ${r.nTurbines}`;
    if (!r.cableType.every((t) => isInt32(t) && t >= 0)) return 'cableType must hold cable type indices >= 0';
    if (!r.cableTo.every((t) => isInt32(t) && t !== CABLE_NONE && t < r.nTurbines))
      return `cableTo must hold turbine indices < ${r.nTurbines} or substation codes -1-s`;
  }
  if (r.metrics) for (const name of Object.keys(r.metrics)) if (!metricNames.has(name)) return `metric ${name} is not among meta.metricNames`;
  if (!isInt32(r.iterations)) return `iterations must be an int32 (-1 when unknown), got ${r.iterations}`;
  if (!Number.isSafeInteger(r.evaluations)) return `evaluations must be a safe integer (-1 when unknown), got ${r.evaluations}`;
  if (!isInt32(r.attempts)) return `attempts must be an int32 (-1 when unknown), got ${r.attempts}`;
  if (typeof r.aepInitial !== 'number' || typeof r.wallS !== 'number') return 'aepInitial and wallS must be numbers (NaN when unknown)';
  if (previous) {
    const order = compareRecords(previous, r);
    if (order === 0) return `duplicate task ${r.taskId}`;
    if (order > 0) return `records are not sorted by (farm_id, farm_type, seed): ${r.taskId} after ${previous.taskId}`;
  }
  return null;
}

/** A zero-length array of the column's own type (h5wasm converts data to the dtype's array type). */
function emptyDataOf(spec: ColumnSpec): string[] | Int32Array | BigInt64Array | Float64Array {
  switch (spec.kind) {
    case 'text':
      return [];
    case 'int32':
    case 'per-turbine':
      return new Int32Array(0);
    case 'int64':
      return new BigInt64Array(0);
    default:
      return new Float64Array(0);
  }
}

/** HDF5 part of the write: create the file, append every slice, stamp attributes, close. */
class SliceAppender {
  private rowsWritten = 0;
  readonly digests: ColumnDigests;

  constructor(
    private readonly file: H5File,
    private readonly tmax: number,
    chunkRows: number,
    private readonly columns: readonly ColumnSpec[],
  ) {
    this.digests = new ColumnDigests(columns);
    hdf5Call(() => {
      if (columns.some((spec) => metricNameOf(spec) !== null)) file.create_group(METRICS_GROUP);
      for (const spec of columns) {
        const dataset = file.create_dataset({
          name: spec.name,
          data: emptyDataOf(spec),
          shape: shapeOf(spec, 0, tmax) as number[],
          maxshape: shapeOf(spec, null, tmax),
          chunks: shapeOf(spec, chunkRows, tmax) as number[],
          dtype: h5DtypeOf(spec),
        });
        if (spec.units) dataset.create_attribute('units', spec.units);
        dataset.create_attribute('description', spec.description);
      }
      createDimensionScales(file, tmax, chunkRows, columns); // named dimensions for netCDF-4 readers (xarray)
    });
  }

  get rows(): number {
    return this.rowsWritten;
  }

  append(slice: RowSlice): void {
    if (slice.length === 0) return;
    const start = this.rowsWritten;
    const end = start + slice.length;
    hdf5Call(() => {
      for (const spec of this.columns) {
        const dataset = this.file.get(spec.name) as ReturnType<H5File['create_dataset']>;
        dataset.resize(shapeOf(spec, end, this.tmax) as number[]);
        const data = slice.column(spec);
        dataset.write_slice(rowRanges(spec, start, end), data);
        this.digests.update(spec, data);
        if (spec.name === 'task_id') appendTaskScale(this.file, start, end, data as string[]);
      }
    });
    this.rowsWritten = end;
  }
}

function writeRootAttributes(file: H5File, meta: LayoutsFileMeta, rows: number, tmax: number): void {
  const A = ROOT_ATTRIBUTES;
  hdf5Call(() => {
    file.create_attribute(A.format, LAYOUTS_FORMAT_NAME);
    file.create_attribute(A.formatVersion, LAYOUTS_FORMAT_VERSION, null, '<q');
    file.create_attribute(A.campaignName, meta.campaignName);
    file.create_attribute(A.campaignHash, meta.campaignHash);
    file.create_attribute(A.wfloVersion, VERSION);
    file.create_attribute(A.created, (meta.created ?? new Date()).toISOString());
    file.create_attribute(A.nExpected, meta.nExpected, null, '<q');
    file.create_attribute(A.nDone, rows, null, '<q');
    file.create_attribute(A.complete, meta.complete ? 1 : 0, null, '<b');
    file.create_attribute(A.maxTurbines, tmax, null, '<q');
    file.create_attribute(A.source, meta.source ?? 'wflo');
    const standard = new Set<string>(Object.values(A));
    for (const [name, value] of Object.entries(meta.attributes ?? {})) {
      if (standard.has(name)) throw new Error(`extra attribute "${name}" clashes with a standard attribute`);
      if (typeof value === 'number') file.create_attribute(name, value, null, Number.isSafeInteger(value) ? '<q' : '<d');
      else file.create_attribute(name, String(value));
    }
    writeDefinitionGroups(file.create_group(FARMS_GROUP), meta.farms);
    writeDefinitionGroups(file.create_group(TYPES_GROUP), meta.types);
  });
}

async function writeContent(h5: H5Module, tempPath: string, records: LayoutBatches, meta: LayoutsFileMeta, dims: Dimensions, rowsPerSlice: number | undefined) {
  const tmax = Math.max(1, dims.maxTurbines);
  let chunkRows = chunkRowsFor(tmax, dims.nRows);
  let sliceRows = Math.max(chunkRows, Math.floor(SLICE_BYTES / (tmax * 16) / chunkRows) * chunkRows);
  if (rowsPerSlice !== undefined) {
    sliceRows = Math.max(1, Math.floor(rowsPerSlice));
    chunkRows = Math.min(chunkRows, sliceRows);
  }
  const file = openH5Sync(h5, tempPath, 'w');
  let closed = false;
  try {
    const metricNames = [...(meta.metricNames ?? [])].sort();
    const appender = new SliceAppender(file, tmax, chunkRows, columnsWith(metricNames));
    const slice = new RowSlice(sliceRows, tmax, metricNames);
    const metricSet = new Set(metricNames);
    let previous: LayoutRecord | undefined;
    let index = 0;
    for await (const batch of records) {
      for (const record of batch) {
        const problem = recordProblem(record, dims.maxTurbines, previous, metricSet);
        if (problem) throw new RuntimeFailure(`record ${index} (${record.taskId}): ${problem}`);
        slice.push(record);
        previous = record;
        index++;
        if (slice.full) {
          appender.append(slice);
          slice.reset();
        }
      }
    }
    appender.append(slice);
    const rows = appender.rows;
    if (dims.nRows !== undefined && rows !== dims.nRows) {
      throw new RuntimeFailure(`meta.nRows is ${dims.nRows} but ${rows} rows were written`);
    }
    writeRootAttributes(file, meta, rows, tmax);
    hdf5Call(() => file.flush());
    closed = true;
    const status = hdf5Call(() => file.close());
    if (typeof status === 'number' && status < 0) throw new Error('HDF5 close failed');
    return { rows, tmax, digests: appender.digests.finish() };
  } finally {
    if (!closed) closeQuietly(file);
  }
}

function failureReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOSPC') return `no space left on device (ENOSPC): ${e.message}`;
  if (typeof e?.code === 'string' && e.message) return e.message;
  return hdf5ErrorReason(err);
}

/**
 * Write `records` (batches sorted by (farmId, farmType, seed)) to `path` atomically.
 * Returns the rows written, the final file size in bytes and the file's stamp.
 */
export async function writeLayoutsFile(
  filePath: string,
  records: LayoutBatches,
  meta: LayoutsFileMeta,
  options: WriteLayoutsOptions = {},
): Promise<WriteLayoutsResult> {
  const target = path.resolve(filePath);
  const dims = resolveDimensions(records, meta);
  const folder = path.dirname(target);
  if (!fs.existsSync(folder)) throw new RuntimeFailure(`cannot write ${filePath}: folder ${folder} does not exist`);
  if (options.overwrite === false && fs.existsSync(target)) {
    throw new InputError(`${filePath} already exists; refusing to replace it`);
  }
  const lock = acquireWriterLock(target);
  let tempPath: string | undefined;
  try {
    removeStaleTemps(target);
    tempPath = tempPathFor(target);
    const h5 = await loadH5();
    const written = await writeContent(h5, tempPath, records, meta, dims, options.rowsPerSlice);
    fsyncFile(tempPath);
    const report = await verifyLayoutsFile(tempPath, {
      rows: written.rows,
      maxTurbines: written.tmax,
      digests: written.digests,
      campaignHash: meta.campaignHash,
    });
    if (!report.ok) throw new RuntimeFailure(`cannot write ${filePath}: verification of the temp file failed: ${report.problems[0]}`);
    commitTemp(tempPath, target);
    tempPath = undefined;
    return { rows: written.rows, bytes: fs.statSync(target).size, stamp: fileStamp(target) };
  } catch (err) {
    if (tempPath) discardTemp(tempPath);
    if (err instanceof WfloError) {
      if (err.message.startsWith(`cannot write ${filePath}`)) throw err;
      throw new (err.constructor as new (m: string) => WfloError)(`cannot write ${filePath}: ${err.message}`);
    }
    throw new RuntimeFailure(`cannot write ${filePath}: ${failureReason(err)}`);
  } finally {
    lock.release();
  }
}
