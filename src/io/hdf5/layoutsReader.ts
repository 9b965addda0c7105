/**
 * Reads wflo's HDF5 output (`layouts.h5`) back: the root attributes, the definitions and the
 * rows, in slices so a large file never has to fit in memory (or in the 2 GiB wasm heap).
 * A file that is not an HDF5 file or not in the "wflo-layouts" format is an InputError naming
 * the file and what was expected, and so is a column declaring more rows than the file's bytes
 * can hold (declaredSize.ts). Meant for wflo's own files: untrusted HDF5 files from other
 * pipelines go through shards/ (probed in a child process, h5wasm issue #46).
 */
import fs from 'node:fs';
import { InputError } from '../../util/errors.js';
import { declaredSizeProblem } from './declaredSize.js';
import type { LayoutRecord } from '../layoutRecord.js';
import { requireRegularFile } from '../boundedRead.js';
import { closeQuietly, hdf5Call, hdf5ErrorReason, loadH5, openH5Sync, type H5File } from './h5wasmRuntime.js';
import {
  columnsWith,
  FARMS_GROUP,
  h5DtypeOf,
  METRICS_GROUP,
  READABLE_FORMAT_VERSIONS,
  LAYOUTS_FORMAT_NAME,
  ROOT_ATTRIBUTES,
  rowRanges,
  TYPES_GROUP,
  type ColumnSpec,
} from './layoutsSchema.js';
import { RowSlice, type ColumnData } from './rowSlice.js';
import { readDefinitionGroups } from './definitionGroups.js';

type H5Dataset = ReturnType<H5File['create_dataset']>;
type H5Group = ReturnType<H5File['create_group']>;

/** Root attributes of a layouts file, decoded. */
export interface LayoutsFileInfo {
  format: string;
  formatVersion: number;
  campaignName: string;
  campaignHash: string;
  wfloVersion: string;
  created: string;
  nExpected: number;
  nDone: number;
  complete: boolean;
  maxTurbines: number;
  source: string;
  /** Number of rows (length of every column). */
  rows: number;
  /** Every root attribute as read (bigints converted to numbers), including extra ones. */
  attributes: Record<string, unknown>;
  /** Names of the /metrics/<name> columns, sorted. */
  metricNames: string[];
  /** Every column of the file (the schema's, then the metrics). */
  columns: ColumnSpec[];
}

/** Rows per read so one layout column slice stays near 2 MiB, whatever Tmax is. */
export function rowsPerSliceFor(maxTurbines: number): number {
  return Math.max(1, Math.min(4096, Math.floor((2 * 1024 * 1024) / (Math.max(1, maxTurbines) * 16))));
}

function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number | bigint>, (v) => (typeof v === 'bigint' ? Number(v) : v));
  return value;
}

/**
 * Check the structure of an open layouts file (attributes, datasets, dtypes, shapes).
 * Returns the decoded info when the structure is usable, and every problem found.
 */
export function inspectLayoutsStructure(file: H5File): { info?: LayoutsFileInfo; problems: string[] } {
  const problems: string[] = [];
  const attributes: Record<string, unknown> = {};
  for (const [name, attr] of Object.entries(file.attrs)) attributes[name] = plainValue(attr.value);
  const A = ROOT_ATTRIBUTES;
  const str = (name: string): string => {
    const v = attributes[name];
    if (typeof v !== 'string') problems.push(`root attribute ${name} is ${v === undefined ? 'missing' : typeof v}, expected a string`);
    return typeof v === 'string' ? v : '';
  };
  const num = (name: string): number => {
    const v = attributes[name];
    if (typeof v !== 'number') problems.push(`root attribute ${name} is ${v === undefined ? 'missing' : typeof v}, expected a number`);
    return typeof v === 'number' ? v : NaN;
  };
  const format = str(A.format);
  if (format && format !== LAYOUTS_FORMAT_NAME) {
    return { problems: [`root attribute format is "${format}", expected "${LAYOUTS_FORMAT_NAME}"`] };
  }
  if (attributes[A.format] === undefined) return { problems };
  const formatVersion = num(A.formatVersion);
  if (!READABLE_FORMAT_VERSIONS.includes(formatVersion))
    problems.push(`format_version is ${formatVersion}, this wflo reads ${READABLE_FORMAT_VERSIONS.join(' and ')}`);
  const maxTurbines = num(A.maxTurbines);
  const info: LayoutsFileInfo = {
    format,
    formatVersion,
    campaignName: str(A.campaignName),
    campaignHash: str(A.campaignHash),
    wfloVersion: str(A.wfloVersion),
    created: str(A.created),
    nExpected: num(A.nExpected),
    nDone: num(A.nDone),
    complete: num(A.complete) === 1,
    maxTurbines,
    source: typeof attributes[A.source] === 'string' ? (attributes[A.source] as string) : '',
    rows: -1,
    attributes,
    metricNames: [],
    columns: [],
  };
  const metrics = file.get(METRICS_GROUP) as H5Group | null;
  if (metrics && 'keys' in metrics) info.metricNames = metrics.keys().sort();
  info.columns = columnsWith(info.metricNames);
  // A column claiming rows its file cannot hold (a forged or preallocated size) is never read.
  let fileBytes = Infinity;
  try {
    fileBytes = fs.statSync(file.filename).size;
  } catch {
    /* not on disk: nothing to compare with */
  }
  for (const spec of info.columns) {
    const entity = file.get(spec.name) as H5Dataset | null;
    if ((spec.since ?? 1) > formatVersion && !entity) continue;
    if (!entity || !('shape' in entity)) {
      problems.push(`dataset /${spec.name} is missing`);
      continue;
    }
    const implausible = declaredSizeProblem({ name: `/${spec.name}`, shape: entity.shape ?? [], itemBytes: entity.metadata.size }, fileBytes);
    if (implausible) {
      problems.push(implausible);
      continue;
    }
    const dtype = entity.dtype;
    if (dtype !== h5DtypeOf(spec)) problems.push(`dataset /${spec.name} has dtype ${JSON.stringify(dtype)}, expected ${h5DtypeOf(spec)}`);
    const shape = entity.shape ?? [];
    const expectedRank = spec.kind === 'xy' ? 3 : spec.kind === 'per-turbine' ? 2 : 1;
    if (shape.length !== expectedRank) {
      problems.push(`dataset /${spec.name} has shape [${shape}], expected rank ${expectedRank}`);
      continue;
    }
    if (spec.kind === 'xy' && (shape[1] !== maxTurbines || shape[2] !== 2)) {
      problems.push(`dataset /${spec.name} has shape [${shape}], expected [N, ${maxTurbines}, 2]`);
    }
    if (spec.kind === 'per-turbine' && shape[1] !== maxTurbines) problems.push(`dataset /${spec.name} has shape [${shape}], expected [N, ${maxTurbines}]`);
    if (info.rows === -1) info.rows = shape[0];
    else if (shape[0] !== info.rows) problems.push(`dataset /${spec.name} has ${shape[0]} rows, /farm_id has ${info.rows}`);
  }
  if (info.rows >= 0 && info.nDone !== info.rows) problems.push(`attribute n_done is ${info.nDone} but the datasets hold ${info.rows} rows`);
  for (const group of [FARMS_GROUP, TYPES_GROUP]) {
    const g = file.get(group);
    if (!g || !('keys' in g)) problems.push(`group /${group} is missing`);
  }
  return { info, problems };
}

/** An open layouts file. Close it when done (h5wasm handles are not garbage-collected). */
export class LayoutsFileReader {
  private constructor(
    private readonly file: H5File,
    readonly path: string,
    readonly info: LayoutsFileInfo,
  ) {}

  /** Open and check the structure; InputError (one line) when the file is not a usable layouts file. */
  static async open(path: string): Promise<LayoutsFileReader> {
    // h5wasm opens the file itself: a directory, device or FIFO is refused by type first.
    requireRegularFile(path, { what: 'HDF5 file', expected: 'an HDF5 layouts file' });
    const h5 = await loadH5();
    let file: H5File;
    try {
      file = openH5Sync(h5, path, 'r');
    } catch (err) {
      throw new InputError(`${path}: cannot open as HDF5 (${hdf5ErrorReason(err)})`);
    }
    try {
      const { info, problems } = hdf5Call(() => inspectLayoutsStructure(file));
      if (!info || problems.length > 0) throw new InputError(`${path}: not a wflo layouts file: ${problems[0]}`);
      return new LayoutsFileReader(file, path, info);
    } catch (err) {
      closeQuietly(file);
      if (err instanceof InputError) throw err;
      throw new InputError(`${path}: cannot read (${hdf5ErrorReason(err)})`);
    }
  }

  get rows(): number {
    return this.info.rows;
  }

  /** Rows [start, end) as column buffers. */
  readSlice(start: number, end: number): RowSlice {
    const length = Math.max(0, end - start);
    const columns = new Map<string, ColumnData>();
    if (length > 0) {
      hdf5Call(() => {
        for (const spec of this.info.columns) {
          const dataset = this.file.get(spec.name) as H5Dataset | null;
          if (!dataset) continue; // a column newer than the file's format version
          columns.set(spec.name, dataset.slice(rowRanges(spec, start, end)) as ColumnData);
        }
      });
    }
    return RowSlice.fromColumns(columns, length, this.info.maxTurbines, this.info.metricNames);
  }

  /**
   * Task ids and spec hashes of every row, `rowsPerBatch` at a time, reading only those two
   * columns (spec hashes are "" in format-1 files, which have none).
   */
  *keys(rowsPerBatch = 65536): Generator<{ taskId: string[]; specHash: string[] }> {
    const hasSpecHash = hdf5Call(() => this.file.get('spec_hash') !== null);
    for (let start = 0; start < this.rows; start += rowsPerBatch) {
      const end = Math.min(this.rows, start + rowsPerBatch);
      yield hdf5Call(() => {
        const taskId = (this.file.get('task_id') as H5Dataset).slice([[start, end]]) as string[];
        const specHash = hasSpecHash ? ((this.file.get('spec_hash') as H5Dataset).slice([[start, end]]) as string[]) : new Array<string>(end - start).fill('');
        return { taskId: Array.from(taskId), specHash: Array.from(specHash) };
      });
    }
  }

  /** Rows [start, end) as records. */
  readRecords(start: number, end: number): LayoutRecord[] {
    const slice = this.readSlice(start, end);
    const out: LayoutRecord[] = [];
    for (let row = 0; row < slice.length; row++) out.push(slice.record(row));
    return out;
  }

  /** All rows, `rowsPerBatch` at a time (default: about 2 MiB of layout per batch). */
  *batches(rowsPerBatch = rowsPerSliceFor(this.info.maxTurbines)): Generator<LayoutRecord[]> {
    for (let start = 0; start < this.rows; start += rowsPerBatch) {
      yield this.readRecords(start, Math.min(this.rows, start + rowsPerBatch));
    }
  }

  /** The `/farms/<id>` and `/types/<id>` definitions (from their `json` attributes). */
  definitions(): { farms: Record<string, unknown>; types: Record<string, unknown> } {
    return hdf5Call(() => ({
      farms: readDefinitionGroups(this.file.get(FARMS_GROUP) as H5Group | null),
      types: readDefinitionGroups(this.file.get(TYPES_GROUP) as H5Group | null),
    }));
  }

  close(): void {
    closeQuietly(this.file);
  }
}

/** Stream a layouts file's rows in batches (bounded memory). */
export async function* streamLayoutsFile(path: string, rowsPerBatch?: number): AsyncGenerator<LayoutRecord[]> {
  const reader = await LayoutsFileReader.open(path);
  try {
    yield* reader.batches(rowsPerBatch ?? rowsPerSliceFor(reader.info.maxTurbines));
  } finally {
    reader.close();
  }
}

/** Read a whole layouts file (tests and small files). */
export async function readLayoutsFile(path: string): Promise<{
  info: LayoutsFileInfo;
  records: LayoutRecord[];
  farms: Record<string, unknown>;
  types: Record<string, unknown>;
}> {
  const reader = await LayoutsFileReader.open(path);
  try {
    const records: LayoutRecord[] = [];
    for (const batch of reader.batches()) records.push(...batch);
    return { info: reader.info, records, ...reader.definitions() };
  } finally {
    reader.close();
  }
}
