/**
 * Reads one foreign worker file with HDF5 (h5wasm) and turns what it holds into records, in
 * either shape pipelines write:
 *   groups: `<group>/<key>` per record (default group `optimized_layouts`, keys like
 *           `farm_9_type_4_seed_24`); each entry is a layout dataset (T, 2) with the AEP as an
 *           attribute, or a group holding `layout` (or `x`, `y`) and `aep` as datasets/attributes;
 *   rows:   equal-length datasets `farm_id`, `farm_type`, `seed` (or a `task_id`/`key` string
 *           column), `aep`, `layout` (N, T, 2) (or `x`, `y` (N, T)); wflo's own output is one.
 * Every record is checked on its own, so one broken entry costs that entry only (salvage); the
 * file's class follows from what was found. Runs inside a probe child process (probeWorker.ts):
 * opening an untrusted file can break the wasm instance (h5wasm issue #46).
 */
import { createHash } from 'node:crypto';
import { closeQuietly, hdf5Call, hdf5ErrorReason, openH5Sync, type H5File, type H5Module } from '../io/hdf5/h5wasmRuntime.js';
import { taskIdOf, type LayoutRecord } from '../io/layoutRecord.js';
import { keyMatcher, type TaskKey } from './keyPattern.js';
import type { SpillWriter } from './spillStore.js';
import type { FieldName, FoundRecord, LostRecord, ProbeResult, ShardReadOptions, ShardShape } from './shardTypes.js';

type H5Group = ReturnType<H5File['create_group']>;
type H5Dataset = ReturnType<H5File['create_dataset']>;
type Entity = ReturnType<H5Group['get']>;

/** Rows read per slice in the rows shape (bounded memory for big worker files)... */
const ROWS_PER_SLICE = 1024;
/** ...and at most about this many bytes of layout per slice, whatever T is. */
const SLICE_BYTES = 2 * 1024 * 1024;
/** Detail strings list at most this many examples. */
const EXAMPLES = 3;

class RecordProblem extends Error {}

function isDataset(e: Entity | undefined): e is H5Dataset {
  return !!e && (e as { type?: string }).type === 'Dataset';
}

function isGroup(e: Entity | undefined): e is H5Group {
  return !!e && (e as { type?: string }).type === 'Group';
}

/** A number from an HDF5 value: scalar, bigint or 1-element array; undefined otherwise. */
function scalarOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if ((ArrayBuffer.isView(value) || Array.isArray(value)) && (value as ArrayLike<unknown>).length === 1) {
    return scalarOf((value as ArrayLike<unknown>)[0]);
  }
  return undefined;
}

function toFloat64(value: unknown): Float64Array | undefined {
  if (value instanceof Float64Array) return value;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Float64Array.from(value as unknown as ArrayLike<number | bigint>, Number);
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'number' || typeof v === 'bigint')) return Float64Array.from(value, Number);
  return undefined;
}

function digestOf(nTurbines: number, aep: number, xByTurbine: Float64Array, yByTurbine: Float64Array): string {
  const block = new Float64Array(2 + 2 * nTurbines);
  block[0] = nTurbines;
  block[1] = aep;
  block.set(xByTurbine, 2);
  block.set(yByTurbine, 2 + nTurbines);
  return createHash('sha256').update(new Uint8Array(block.buffer)).digest('hex').slice(0, 16);
}

/**
 * Split a (T, 2) or (2, T) layout into x and y, dropping trailing NaN padding. `declared` is the
 * record's n_turbines when the file stores it.
 */
function splitLayout(data: Float64Array, shape: number[], declared: number | undefined, label: string): [Float64Array, Float64Array] {
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
    if (!Number.isInteger(declared) || declared < 0 || declared > turbines) throw new RecordProblem(`n_turbines ${declared} does not fit ${label} with ${turbines} rows`);
    if (n < declared) throw new RecordProblem(`${label} position ${n} is not finite (n_turbines ${declared})`);
    n = declared;
  } else {
    for (let t = n; t < turbines; t++) {
      if (!Number.isNaN(xAt(t)) || !Number.isNaN(yAt(t))) throw new RecordProblem(`${label} position ${n} is not finite but later positions are set`);
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

interface RawRecord {
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
}

/** Validate the required fields and fill unknown optional ones (-1 / NaN / empty). */
function toLayoutRecord(raw: RawRecord): LayoutRecord {
  const { farmId, farmType, seed } = raw.key;
  if (!Number.isInteger(farmId) || Math.abs(farmId) > 2147483647) throw new RecordProblem(`farm_id ${farmId} is not an int32`);
  if (!Number.isInteger(farmType) || Math.abs(farmType) > 2147483647) throw new RecordProblem(`farm_type ${farmType} is not an int32`);
  if (!Number.isSafeInteger(seed)) throw new RecordProblem(`seed ${seed} is not an integer`);
  if (raw.aep === undefined) throw new RecordProblem('no aep');
  if (!Number.isFinite(raw.aep)) throw new RecordProblem(`aep is ${raw.aep}`);
  const n = raw.x.length;
  if (n === 0) throw new RecordProblem('layout has no turbines');
  const initialFits = raw.xInitial && raw.yInitial && raw.xInitial.length === n && raw.yInitial.length === n;
  return {
    taskId: taskIdOf(farmId, farmType, seed),
    farmId,
    farmType,
    seed,
    nTurbines: n,
    aep: raw.aep,
    aepInitial: raw.aepInitial !== undefined && typeof raw.aepInitial === 'number' ? raw.aepInitial : NaN,
    x: raw.x,
    y: raw.y,
    xInitial: initialFits ? raw.xInitial! : new Float64Array(0),
    yInitial: initialFits ? raw.yInitial! : new Float64Array(0),
    iterations: intOr(raw.iterations, -1),
    evaluations: intOr(raw.evaluations, -1, Number.MAX_SAFE_INTEGER),
    wallS: raw.wallS ?? NaN,
    attempts: intOr(raw.attempts, -1),
  };
}

/** State of one file being read. */
class ShardFile {
  readonly records: FoundRecord[] = [];
  readonly lost: LostRecord[] = [];
  /** File-level reasons a shape could not be read (become the schema_mismatch detail). */
  readonly schemaProblems: string[] = [];
  /** Objects that are neither records nor placeholders (for the detail). */
  readonly unrecognized: string[] = [];
  readonly shapesFound: ShardShape[] = [];
  hdf5Errors = false;
  private readonly matchKey: (key: string) => TaskKey | null;

  constructor(readonly file: H5File, readonly options: ShardReadOptions, private readonly spill: SpillWriter | null) {
    this.matchKey = keyMatcher(options.keyRegex);
  }

  /** Run HDF5 calls for one record or object; an HDF5 error becomes a RecordProblem. */
  call<T>(fn: () => T): T {
    try {
      return hdf5Call(fn);
    } catch (err) {
      if (err instanceof RecordProblem) throw err;
      this.hdf5Errors = true;
      throw new RecordProblem(`HDF5 cannot read it: ${hdf5ErrorReason(err)}`);
    }
  }

  /** First candidate name of `field` present in `group`'s members. */
  nameIn(members: Set<string>, field: FieldName): string | undefined {
    return this.options.fields[field].find((name) => members.has(name));
  }

  keep(raw: RawRecord, where: string): void {
    const record = toLayoutRecord(raw);
    const found: FoundRecord = {
      farmId: record.farmId,
      farmType: record.farmType,
      seed: record.seed,
      aep: record.aep,
      nTurbines: record.nTurbines,
      digest: digestOf(record.nTurbines, record.aep, record.x, record.y),
      where,
    };
    if (this.spill) found.spill = { file: -1, ...this.spill.append(record) };
    this.records.push(found);
  }

  loseRecord(where: string, reason: string, key?: TaskKey | null): void {
    this.lost.push({ where, reason, ...(key ? { taskId: taskIdOf(key.farmId, key.farmType, key.seed) } : {}) });
  }

  parseKey(key: string): TaskKey | null {
    return this.matchKey(key);
  }
}

/** Attribute names per object, fetched once (each h5wasm call costs ~0.1 ms). */
const attributeNames = new WeakMap<object, Set<string>>();

function attrNamesOf(owner: H5Group | H5Dataset): Set<string> {
  let names = attributeNames.get(owner);
  if (!names) {
    names = new Set(Object.keys(owner.attrs));
    attributeNames.set(owner, names);
  }
  return names;
}

/** Scalar field of a record: a dataset in `owner` (a group), else an attribute of `owner` or of `extra`. */
function fieldScalar(shard: ShardFile, owner: H5Group | H5Dataset, members: Set<string>, field: FieldName, extra?: H5Dataset): number | undefined {
  const names = shard.options.fields[field];
  if (isGroup(owner as Entity)) {
    const name = names.find((n) => members.has(n));
    if (name) {
      const entity = (owner as H5Group).get(name);
      if (isDataset(entity)) return scalarOf(entity.value);
    }
  }
  for (const source of [owner, extra]) {
    if (!source) continue;
    const present = attrNamesOf(source);
    const name = names.find((n) => present.has(n));
    if (name) return scalarOf(source.get_attribute(name, false));
  }
  return undefined;
}

function layoutOf(shard: ShardFile, entity: H5Dataset, declared: number | undefined, label: string): [Float64Array, Float64Array] {
  const data = toFloat64(entity.value);
  if (!data) throw new RecordProblem(`${label} is not numeric (dtype ${JSON.stringify(entity.dtype)})`);
  return splitLayout(data, entity.shape ?? [], declared, label);
}

/** Groups shape: one entry per record under the records group. */
function readGroupsShape(shard: ShardFile, groupName: string, group: H5Group): void {
  const keys = shard.call(() => group.keys());
  if (keys.length === 0) return;
  shard.shapesFound.push('groups');
  let unmatched = 0;
  let firstUnmatched = '';
  const fields = shard.options.fields;
  for (const key of keys) {
    const where = `${groupName}/${key}`;
    const taskKey = shard.parseKey(key);
    if (!taskKey) {
      unmatched++;
      firstUnmatched ||= key;
      shard.loseRecord(where, `key does not match --key-pattern ${shard.options.keyPatternText}`);
      continue;
    }
    try {
      const raw = shard.call((): RawRecord => {
        const entry = group.get(key);
        if (isDataset(entry)) {
          const declared = fieldScalar(shard, entry, new Set(), 'n_turbines');
          const [x, y] = layoutOf(shard, entry, declared, 'layout');
          return {
            key: taskKey, x, y,
            aep: fieldScalar(shard, entry, new Set(), 'aep'),
            aepInitial: fieldScalar(shard, entry, new Set(), 'aep_initial'),
            iterations: fieldScalar(shard, entry, new Set(), 'iterations'),
            evaluations: fieldScalar(shard, entry, new Set(), 'evaluations'),
            wallS: fieldScalar(shard, entry, new Set(), 'wall_s'),
            attempts: fieldScalar(shard, entry, new Set(), 'attempts'),
          };
        } else if (isGroup(entry)) {
          const members = new Set(entry.keys());
          const layoutName = shard.nameIn(members, 'layout');
          const layoutEntity = layoutName ? entry.get(layoutName) : null;
          const layoutDataset = isDataset(layoutEntity) ? layoutEntity : undefined;
          const declared = fieldScalar(shard, entry, members, 'n_turbines', layoutDataset);
          let x: Float64Array;
          let y: Float64Array;
          if (layoutDataset) {
            [x, y] = layoutOf(shard, layoutDataset, declared, layoutName!);
          } else {
            const xName = shard.nameIn(members, 'x');
            const yName = shard.nameIn(members, 'y');
            const xEntity = xName ? entry.get(xName) : null;
            const yEntity = yName ? entry.get(yName) : null;
            if (!isDataset(xEntity) || !isDataset(yEntity)) throw new RecordProblem(`no ${fields.layout.join('/')} dataset (nor x and y)`);
            const xs = toFloat64(xEntity.value);
            const ys = toFloat64(yEntity.value);
            if (!xs || !ys || xs.length !== ys.length) throw new RecordProblem('x and y are not numeric arrays of equal length');
            const stacked = new Float64Array(2 * xs.length);
            xs.forEach((v, t) => { stacked[2 * t] = v; stacked[2 * t + 1] = ys[t]; });
            [x, y] = splitLayout(stacked, [xs.length, 2], declared, 'x/y');
          }
          let xInitial: Float64Array | undefined;
          let yInitial: Float64Array | undefined;
          const initialName = shard.nameIn(members, 'initial_layout');
          const initialEntity = initialName ? entry.get(initialName) : null;
          if (isDataset(initialEntity)) {
            try {
              [xInitial, yInitial] = layoutOf(shard, initialEntity, undefined, initialName!);
            } catch {
              /* an unusable initial layout is dropped, the record is kept */
            }
          }
          return {
            key: taskKey, x, y, xInitial, yInitial,
            aep: fieldScalar(shard, entry, members, 'aep', layoutDataset),
            aepInitial: fieldScalar(shard, entry, members, 'aep_initial', layoutDataset),
            iterations: fieldScalar(shard, entry, members, 'iterations', layoutDataset),
            evaluations: fieldScalar(shard, entry, members, 'evaluations', layoutDataset),
            wallS: fieldScalar(shard, entry, members, 'wall_s', layoutDataset),
            attempts: fieldScalar(shard, entry, members, 'attempts', layoutDataset),
          };
        }
        throw new RecordProblem('neither a dataset nor a group (broken link?)');
      });
      shard.keep(raw, where);
    } catch (err) {
      if (!(err instanceof RecordProblem)) throw err;
      shard.loseRecord(where, err.message, taskKey);
    }
  }
  if (unmatched === keys.length) {
    shard.schemaProblems.push(`no member of ${groupName} matches --key-pattern ${shard.options.keyPatternText} (e.g. "${firstUnmatched}")`);
  }
}

interface RowColumns {
  farm_id?: string;
  farm_type?: string;
  seed?: string;
  key?: string;
  aep?: string;
  layout?: string;
  x?: string;
  y?: string;
  n_turbines?: string;
  aep_initial?: string;
  initial_layout?: string;
  iterations?: string;
  evaluations?: string;
  wall_s?: string;
  attempts?: string;
}

const ROW_FIELDS: (keyof RowColumns)[] = ['farm_id', 'farm_type', 'seed', 'key', 'aep', 'layout', 'x', 'y', 'n_turbines', 'aep_initial', 'initial_layout', 'iterations', 'evaluations', 'wall_s', 'attempts'];

/** Which root datasets make up the rows shape (undefined when the file has none of its key columns). */
function rowColumnsOf(shard: ShardFile, datasets: Set<string>): RowColumns | undefined {
  const columns: RowColumns = {};
  for (const field of ROW_FIELDS) columns[field] = shard.nameIn(datasets, field);
  const hasIds = columns.farm_id || columns.farm_type || columns.seed;
  if (!hasIds && !(columns.key && (columns.aep || columns.layout))) return undefined;
  return columns;
}

/** Rows shape: equal-length column datasets at the root, read in slices. */
function readRowsShape(shard: ShardFile, columns: RowColumns): void {
  const fields = shard.options.fields;
  const missing: string[] = [];
  if (!columns.key && !(columns.farm_id && columns.farm_type && columns.seed)) {
    for (const f of ['farm_id', 'farm_type', 'seed'] as const) if (!columns[f]) missing.push(fields[f].join('|'));
  }
  if (!columns.aep) missing.push(fields.aep.join('|'));
  if (!columns.layout && !(columns.x && columns.y)) missing.push(`${fields.layout.join('|')} (or x and y)`);
  const present = ROW_FIELDS.map((f) => columns[f]).filter((n): n is string => !!n);
  if (missing.length > 0) {
    shard.schemaProblems.push(`row datasets ${present.join(', ')} present but ${missing.join(', ')} missing`);
    return;
  }
  const dataset = (name: string) => shard.call(() => shard.file.get(name)) as H5Dataset;
  const lengths = new Map<string, number>();
  for (const name of new Set(present)) {
    const shape = shard.call(() => dataset(name).shape) ?? [];
    lengths.set(name, shape.length === 0 ? 1 : shape[0]);
  }
  const distinct = new Set(lengths.values());
  if (distinct.size > 1) {
    shard.schemaProblems.push(`row datasets have unequal lengths: ${[...lengths].map(([n, l]) => `${n} ${l}`).join(', ')}`);
    return;
  }
  const rows = [...distinct][0] ?? 0;
  const layoutName = columns.layout;
  if (layoutName) {
    const shape = shard.call(() => dataset(layoutName).shape) ?? [];
    if (shape.length !== 3 || shape[2] !== 2) {
      shard.schemaProblems.push(`${layoutName} has shape (${shape.join(', ')}), expected (N, T, 2)`);
      return;
    }
  }
  if (rows === 0) return;
  shard.shapesFound.push('rows');
  const widthOf = (name: string | undefined) => (name ? (shard.call(() => dataset(name).shape) ?? [])[1] ?? 1 : 1);
  const turbinesPerRow = Math.max(widthOf(columns.layout ?? columns.x), widthOf(columns.initial_layout));
  const rowsPerSlice = Math.max(1, Math.min(ROWS_PER_SLICE, Math.floor(SLICE_BYTES / (turbinesPerRow * 16))));
  const matchKey = (key: string) => shard.parseKey(key);
  for (let start = 0; start < rows; start += rowsPerSlice) {
    const end = Math.min(rows, start + rowsPerSlice);
    let slice: Map<string, { data: unknown; shape: number[] }>;
    try {
      slice = shard.call(() => {
        const out = new Map<string, { data: unknown; shape: number[] }>();
        for (const name of new Set(present)) {
          const ds = dataset(name);
          const shape = ds.shape ?? [];
          const ranges = shape.map((_, i) => (i === 0 ? [start, end] : [])) as [number, number][];
          out.set(name, { data: ds.slice(ranges), shape });
        }
        return out;
      });
    } catch (err) {
      for (let row = start; row < end; row++) shard.loseRecord(`row ${row}`, (err as Error).message);
      continue;
    }
    const column = (field: keyof RowColumns) => (columns[field] ? slice.get(columns[field]!) : undefined);
    const numberAt = (field: keyof RowColumns, i: number): number | undefined => {
      const c = column(field);
      if (!c) return undefined;
      const v = (c.data as ArrayLike<number | bigint>)[i];
      return v === undefined ? undefined : Number(v);
    };
    for (let i = 0; i < end - start; i++) {
      const row = start + i;
      const where = `row ${row}`;
      let key: TaskKey | null = null;
      try {
        if (columns.farm_id && columns.farm_type && columns.seed) {
          key = { farmId: numberAt('farm_id', i)!, farmType: numberAt('farm_type', i)!, seed: numberAt('seed', i)! };
        } else {
          const text = (column('key')!.data as unknown[])[i];
          key = typeof text === 'string' ? matchKey(text) : null;
          if (!key) throw new RecordProblem(`key ${JSON.stringify(text)} does not match --key-pattern ${shard.options.keyPatternText}`);
        }
        const declared = numberAt('n_turbines', i);
        let x: Float64Array;
        let y: Float64Array;
        if (layoutName) {
          const { data, shape } = column('layout')!;
          const perRow = shape[1] * 2;
          const rowData = toFloat64((data as Float64Array).subarray(i * perRow, (i + 1) * perRow));
          if (!rowData) throw new RecordProblem(`${layoutName} is not numeric`);
          [x, y] = splitLayout(rowData, [shape[1], 2], declared, layoutName);
        } else {
          const xs = column('x')!;
          const ys = column('y')!;
          const width = xs.shape[1] ?? 1;
          if (ys.shape[1] !== xs.shape[1]) throw new RecordProblem('x and y have different widths');
          const stacked = new Float64Array(2 * width);
          for (let t = 0; t < width; t++) {
            stacked[2 * t] = Number((xs.data as ArrayLike<number>)[i * width + t]);
            stacked[2 * t + 1] = Number((ys.data as ArrayLike<number>)[i * width + t]);
          }
          [x, y] = splitLayout(stacked, [width, 2], declared, 'x/y');
        }
        let xInitial: Float64Array | undefined;
        let yInitial: Float64Array | undefined;
        const initial = column('initial_layout');
        if (initial && initial.shape.length === 3 && initial.shape[2] === 2) {
          const perRow = initial.shape[1] * 2;
          const rowData = toFloat64((initial.data as Float64Array).subarray(i * perRow, (i + 1) * perRow));
          try {
            if (rowData) [xInitial, yInitial] = splitLayout(rowData, [initial.shape[1], 2], undefined, 'initial_layout');
          } catch {
            /* unusable initial layout: dropped, record kept */
          }
        }
        shard.keep({
          key, x, y, xInitial, yInitial,
          aep: numberAt('aep', i),
          aepInitial: numberAt('aep_initial', i),
          iterations: numberAt('iterations', i),
          evaluations: numberAt('evaluations', i),
          wallS: numberAt('wall_s', i),
          attempts: numberAt('attempts', i),
        }, where);
      } catch (err) {
        if (!(err instanceof RecordProblem)) throw err;
        shard.loseRecord(where, err.message, key && [key.farmId, key.farmType, key.seed].every(Number.isSafeInteger) ? key : null);
      }
    }
  }
}

function summarizeLost(lost: LostRecord[]): string {
  const examples = lost.slice(0, EXAMPLES).map((l) => `${l.taskId ?? l.where}: ${l.reason}`).join('; ');
  return `${lost.length} record${lost.length === 1 ? '' : 's'} unusable (${examples}${lost.length > EXAMPLES ? '; ...' : ''})`;
}

/** Describe a root member for details: `init (dataset (1,))`, `results (group, 3 members)`. */
function describeMember(file: H5File, name: string): string {
  try {
    const entity = hdf5Call(() => file.get(name));
    if (isDataset(entity)) return `${name} (dataset ${JSON.stringify(entity.shape ?? [])})`;
    if (isGroup(entity)) return `${name} (group, ${hdf5Call(() => entity.keys()).length} members)`;
    return `${name} (${(entity as { type?: string } | null)?.type ?? 'broken link'})`;
  } catch {
    return `${name} (unreadable)`;
  }
}

/**
 * Read `path`; records go to `spill` when given (merge), only their index otherwise (check).
 * Never throws for a bad file: problems are in the result.
 */
export function readShard(h5: H5Module, path: string, options: ShardReadOptions, spill: SpillWriter | null): ProbeResult {
  let file: H5File;
  try {
    file = openH5Sync(h5, path, 'r');
  } catch (err) {
    let reason = hdf5ErrorReason(err);
    if (/already open for write|file close degree|consistency flags/i.test(reason)) reason += ' (the writer crashed with the file open; h5clear -s on a copy may recover it)';
    return { class: 'unreadable', shapes: [], detail: `HDF5 cannot open it: ${reason}`, records: [], lost: [], hdf5Errors: true };
  }
  const shard = new ShardFile(file, options, spill);
  try {
    let rootMembers: string[];
    try {
      rootMembers = shard.call(() => file.keys());
    } catch (err) {
      return { class: 'unreadable', shapes: [], detail: `HDF5 cannot list its root group: ${(err as Error).message}`, records: [], lost: [], hdf5Errors: true };
    }
    const members = new Set(rootMembers);
    const placeholders = new Set(options.fields.placeholder);
    const recognized = new Set<string>();
    if (options.shapes.includes('groups')) {
      const groupName = shard.nameIn(members, 'group');
      if (groupName) {
        recognized.add(groupName);
        try {
          const entity = shard.call(() => file.get(groupName));
          if (isGroup(entity)) readGroupsShape(shard, groupName, entity);
          else shard.schemaProblems.push(`${groupName} is not a group`);
        } catch (err) {
          shard.schemaProblems.push(`${groupName}: ${(err as Error).message}`);
        }
      }
    }
    if (options.shapes.includes('rows')) {
      const rowNames = new Set(ROW_FIELDS.flatMap((f) => options.fields[f]));
      const datasets = new Set(rootMembers.filter((name) => {
        if (!rowNames.has(name)) return false;
        try {
          return isDataset(shard.call(() => file.get(name)));
        } catch {
          return false;
        }
      }));
      const columns = rowColumnsOf(shard, datasets);
      if (columns) {
        for (const field of ROW_FIELDS) if (columns[field]) recognized.add(columns[field]!);
        try {
          readRowsShape(shard, columns);
        } catch (err) {
          shard.schemaProblems.push(`row datasets: ${(err as Error).message}`);
        }
      }
    }
    for (const name of rootMembers) {
      if (!recognized.has(name) && !placeholders.has(name)) shard.unrecognized.push(name);
    }
    return classify(shard, rootMembers);
  } finally {
    closeQuietly(file);
  }
}

function classify(shard: ShardFile, rootMembers: string[]): ProbeResult {
  const base = { shapes: shard.shapesFound, records: shard.records, lost: shard.lost, hdf5Errors: shard.hdf5Errors };
  const n = shard.records.length;
  if (n > 0) {
    const parts = [`${n} record${n === 1 ? '' : 's'} (${shard.shapesFound.join(' + ')} shape)`];
    if (shard.lost.length > 0) parts.push(summarizeLost(shard.lost));
    if (shard.schemaProblems.length > 0) parts.push(shard.schemaProblems.join('; '));
    return { class: 'valid', detail: parts.join('; '), ...base };
  }
  if (shard.schemaProblems.length > 0) return { class: 'schema_mismatch', detail: shard.schemaProblems.join('; '), ...base };
  if (shard.lost.length > 0) return { class: 'schema_mismatch', detail: `no usable record: ${summarizeLost(shard.lost)}`, ...base };
  const listed = rootMembers.slice(0, 6).map((name) => describeMember(shard.file, name)).join(', ');
  if (shard.unrecognized.length > 0) {
    return {
      class: 'schema_mismatch',
      detail: `no records in either shape; root holds ${listed}${rootMembers.length > 6 ? ', ...' : ''} (map names with --field or --key-pattern)`,
      ...base,
    };
  }
  return { class: 'placeholder_only', detail: rootMembers.length > 0 ? `no records; root holds only ${listed}` : 'no records; the file is an empty HDF5 file', ...base };
}
