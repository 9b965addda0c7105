/**
 * The rows shape: equal-length datasets at the root (or in the group named by `--field
 * group=PATH`), `farm_id`, `farm_type`, `seed` (or a `task_id`/`key` string column), `aep`,
 * `layout` (N, T, 2) (or `x`, `y` (N, T)); wflo's own output is one. Every column's declared
 * size is checked first (declaredSize.ts: a file claiming 10^12 rows is refused unread); then
 * rows are read in slices (bounded memory for big worker files, whatever T is); a row that
 * cannot be used costs that row only.
 */
import { isDataset, shapeText, toFloat64, type H5Dataset, type H5Group } from './h5Entities.js';
import { RecordProblem, splitLayout } from './recordValues.js';
import { AepUnitProblem, datasetMwhFactor } from './aepUnits.js';
import { ImplausibleSize, type ShapeReader, type ShardFile } from './shardFile.js';
import type { TaskKey } from './keyPattern.js';
import { claimedSource } from './rowSource.js';

/** Rows read per slice... */
const ROWS_PER_SLICE = 1024;
/** ...and at most about this many bytes of layout per slice, whatever T is. */
const SLICE_BYTES = 2 * 1024 * 1024;

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
  aep_reported?: string;
  source?: string;
}

const ROW_FIELDS: (keyof RowColumns)[] = [
  'farm_id',
  'farm_type',
  'seed',
  'key',
  'aep',
  'layout',
  'x',
  'y',
  'n_turbines',
  'aep_initial',
  'initial_layout',
  'iterations',
  'evaluations',
  'wall_s',
  'attempts',
  'aep_reported',
  'source',
];

/**
 * Columns read as one value per row (`data[i]`). One with more values per row (a seed stored as
 * (N, 2), a per-turbine AEP (N, T)) would be read by flat index: other rows' values, records
 * under the wrong task. They must be (N,) or (N, 1): the file is refused otherwise.
 */
const PER_ROW_FIELDS: (keyof RowColumns)[] = ['farm_id', 'farm_type', 'seed', 'key', 'aep', 'n_turbines'];
/** Optional per-row values: one of another shape is left out (its values unknown), with a note. */
const OPTIONAL_PER_ROW_FIELDS: (keyof RowColumns)[] = ['aep_initial', 'iterations', 'evaluations', 'wall_s', 'attempts', 'aep_reported', 'source'];

/** Whether a column of this shape holds one value per row: (N,) or (N, 1) (a scalar is one row). */
function onePerRow(shape: number[]): boolean {
  return shape.length <= 1 || (shape.length === 2 && shape[1] === 1);
}

function perRowShapeProblem(path: string, shape: number[]): string {
  return `${path} has shape ${shapeText(shape)}; a per-record column must be (N,) or (N, 1)`;
}

/** The members of `group` that are datasets named like a row column. */
function rowDatasetsIn(shard: ShardFile, group: H5Group, members: Set<string>): Set<string> {
  const rowNames = new Set(ROW_FIELDS.flatMap((f) => shard.options.fields[f]));
  return new Set([...members].filter((name) => rowNames.has(name) && isDataset(shard.structure(name, () => group.get(name)) ?? undefined)));
}

/** Whether `group` holds the rows shape's columns. */
export function holdsRows(shard: ShardFile, group: H5Group, members: Set<string>): boolean {
  return shard.options.shapes.includes('rows') && rowColumnsOf(shard, rowDatasetsIn(shard, group, members)) !== undefined;
}

/** Which datasets make up the rows shape (undefined when there are none of its key columns). */
function rowColumnsOf(shard: ShardFile, datasets: Set<string>): RowColumns | undefined {
  const columns: RowColumns = {};
  for (const field of ROW_FIELDS) columns[field] = shard.nameIn(datasets, field);
  const hasIds = columns.farm_id || columns.farm_type || columns.seed;
  if (!hasIds && !(columns.key && (columns.aep || columns.layout))) return undefined;
  return columns;
}

type Slice = Map<string, { data: unknown; shape: number[] }>;

/**
 * The columns to read, after their shapes (metadata only): null, with a schema problem, when a
 * per-row column holds more than one value per row (PER_ROW_FIELDS) or x/y have more than two
 * dimensions; an optional column of another shape is left out, with a note.
 */
function columnsOfRowShape(shard: ShardFile, columns: RowColumns, shapeOf: (name: string) => number[], prefix: string): RowColumns | null {
  for (const field of PER_ROW_FIELDS) {
    const name = columns[field];
    if (name && !onePerRow(shapeOf(name))) {
      shard.schemaProblems.push(perRowShapeProblem(prefix + name, shapeOf(name)));
      return null;
    }
  }
  for (const name of [columns.x, columns.y]) {
    if (name && shapeOf(name).length > 2) {
      shard.schemaProblems.push(`${prefix}${name} has shape ${shapeText(shapeOf(name))}, expected (N, T)`);
      return null;
    }
  }
  const kept = { ...columns };
  for (const field of OPTIONAL_PER_ROW_FIELDS) {
    const name = columns[field];
    if (name && !onePerRow(shapeOf(name))) {
      shard.schemaProblems.push(`${perRowShapeProblem(prefix + name, shapeOf(name))}: not read`);
      kept[field] = undefined;
    }
  }
  return kept;
}

function readRows(shard: ShardFile, group: H5Group, at: string, columns: RowColumns): void {
  const fields = shard.options.fields;
  const missing: string[] = [];
  if (!columns.key && !(columns.farm_id && columns.farm_type && columns.seed)) {
    for (const f of ['farm_id', 'farm_type', 'seed'] as const) if (!columns[f]) missing.push(fields[f].join('|'));
  }
  if (!columns.aep && !shard.options.aepOptional) missing.push(fields.aep.join('|'));
  if (!columns.layout && !(columns.x && columns.y)) missing.push(`${fields.layout.join('|')} (or x and y)`);
  const present = ROW_FIELDS.map((f) => columns[f]).filter((n): n is string => !!n);
  const prefix = at === '/' ? '' : `${at}/`;
  if (missing.length > 0) {
    shard.schemaProblems.push(`row datasets ${present.map((n) => prefix + n).join(', ')} present but ${missing.join(', ')} missing`);
    return;
  }
  const dataset = (name: string) => shard.call(() => group.get(name)) as H5Dataset;
  const lengths = new Map<string, number>();
  for (const name of new Set(present)) {
    // Before anything is read: a column claiming more rows than the file can hold is refused.
    shard.checkDeclaredSize(dataset(name), prefix + name, true);
    const shape = shard.call(() => dataset(name).shape) ?? [];
    lengths.set(name, shape.length === 0 ? 1 : shape[0]);
  }
  const distinct = new Set(lengths.values());
  if (distinct.size > 1) {
    shard.schemaProblems.push(`row datasets have unequal lengths: ${[...lengths].map(([n, l]) => `${prefix}${n} ${l}`).join(', ')}`);
    return;
  }
  const rows = [...distinct][0] ?? 0;
  const shapeOf = (name: string) => shard.call(() => dataset(name).shape) ?? [];
  const checked = columnsOfRowShape(shard, columns, shapeOf, prefix);
  if (!checked) return;
  columns = checked;
  const toRead = new Set(ROW_FIELDS.map((f) => columns[f]).filter((n): n is string => !!n));
  // The AEP columns' units (a `units` attribute), converted to MWh.
  const mwhFactors = new Map<string, number>();
  try {
    for (const field of ['aep', 'aep_initial', 'aep_reported'] as const) {
      const name = columns[field];
      if (name)
        mwhFactors.set(
          field,
          shard.call(() => datasetMwhFactor(dataset(name), prefix + name)),
        );
    }
  } catch (err) {
    if (!(err instanceof AepUnitProblem)) throw err;
    shard.schemaProblems.push(err.message);
    return;
  }
  const layoutName = columns.layout;
  if (layoutName) {
    const shape = shard.call(() => dataset(layoutName).shape) ?? [];
    if (shape.length !== 3 || shape[2] !== 2) {
      shard.schemaProblems.push(`${prefix}${layoutName} has shape (${shape.join(', ')}), expected (N, T, 2)`);
      return;
    }
  }
  if (rows === 0) return;
  shard.shapesFound.push('rows');
  const widthOf = (name: string | undefined) => (name ? ((shard.call(() => dataset(name).shape) ?? [])[1] ?? 1) : 1);
  const turbinesPerRow = Math.max(widthOf(columns.layout ?? columns.x), widthOf(columns.initial_layout));
  const rowsPerSlice = Math.max(1, Math.min(ROWS_PER_SLICE, Math.floor(SLICE_BYTES / (turbinesPerRow * 16))));
  for (let start = 0; start < rows; start += rowsPerSlice) {
    const end = Math.min(rows, start + rowsPerSlice);
    let slice: Slice;
    try {
      slice = shard.call(() => {
        const out: Slice = new Map();
        for (const name of toRead) {
          const ds = dataset(name);
          const shape = ds.shape ?? [];
          const ranges = shape.map((_, i) => (i === 0 ? [start, end] : [])) as [number, number][];
          out.set(name, { data: ds.slice(ranges), shape });
        }
        return out;
      });
    } catch (err) {
      for (let row = start; row < end; row++) shard.loseRecord(`${prefix}row ${row}`, (err as Error).message);
      continue;
    }
    for (let i = 0; i < end - start; i++) readRow(shard, columns, slice, i, start + i, prefix, mwhFactors);
  }
}

function readRow(shard: ShardFile, columns: RowColumns, slice: Slice, i: number, row: number, prefix: string, mwhFactors: Map<string, number>): void {
  const column = (field: keyof RowColumns) => (columns[field] ? slice.get(columns[field]!) : undefined);
  const numberAt = (field: keyof RowColumns): number | undefined => {
    const c = column(field);
    if (!c) return undefined;
    const v = (c.data as ArrayLike<number | bigint>)[i];
    return v === undefined ? undefined : Number(v);
  };
  const mwhAt = (field: 'aep' | 'aep_initial' | 'aep_reported'): number | undefined => {
    const v = numberAt(field);
    return v === undefined ? undefined : v * (mwhFactors.get(field) ?? 1);
  };
  const where = `${prefix}row ${row}`;
  const layoutName = columns.layout;
  let key: TaskKey | null = null;
  try {
    if (columns.farm_id && columns.farm_type && columns.seed) {
      key = { farmId: numberAt('farm_id')!, farmType: numberAt('farm_type')!, seed: numberAt('seed')! };
      if (columns.key) checkKeyAgrees(shard, columns, (column('key')!.data as unknown[])[i], key);
    } else {
      const text = (column('key')!.data as unknown[])[i];
      key = typeof text === 'string' ? shard.parseKey(text) : null;
      if (!key) throw new RecordProblem(`key ${JSON.stringify(text)} does not match --key-pattern ${shard.options.keyPatternText}`);
    }
    const declared = numberAt('n_turbines');
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
      // Layout of `stacked`: (T, 2), row t = (x_t, y_t).
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
    shard.keep(
      {
        key,
        x,
        y,
        xInitial,
        yInitial,
        aep: mwhAt('aep'),
        aepInitial: mwhAt('aep_initial'),
        iterations: numberAt('iterations'),
        evaluations: numberAt('evaluations'),
        wallS: numberAt('wall_s'),
        attempts: numberAt('attempts'),
        aepReported: mwhAt('aep_reported'),
        source: columns.source ? claimedSource((column('source')!.data as unknown[])[i]) : undefined,
      },
      where,
    );
  } catch (err) {
    if (!(err instanceof RecordProblem)) throw err;
    shard.loseRecord(where, err, key && [key.farmId, key.farmType, key.seed].every(Number.isSafeInteger) ? key : null);
  }
}

/**
 * A row naming its task twice (a `task_id` column beside farm_id/farm_type/seed) must name one
 * task: when the two disagree, which one is right cannot be told, and the row is unusable. A key
 * that does not match --key-pattern (another kind of key: a hash, a run name) says nothing of the
 * task and is left alone.
 */
function checkKeyAgrees(shard: ShardFile, columns: RowColumns, text: unknown, key: TaskKey): void {
  const named = typeof text === 'string' ? shard.parseKey(text) : null;
  if (!named || (named.farmId === key.farmId && named.farmType === key.farmType && named.seed === key.seed)) return;
  throw new RecordProblem(
    `${columns.key} ${text as string} but ${columns.farm_id}/${columns.farm_type}/${columns.seed} say ${key.farmId}/${key.farmType}/${key.seed}`,
  );
}

/** Read the rows shape in `group` (at `at`); returns the member names it recognized. */
function readRowsIn(shard: ShardFile, group: H5Group, at: string, members: Set<string>): Set<string> {
  const columns = rowColumnsOf(shard, rowDatasetsIn(shard, group, members));
  if (!columns) return new Set();
  const recognized = new Set(ROW_FIELDS.map((f) => columns[f]).filter((n): n is string => !!n));
  try {
    readRows(shard, group, at, columns);
  } catch (err) {
    // HDF5 failing on a column's metadata is damage, and so is a size the file cannot hold (unreadable), not another schema.
    const damage = err instanceof ImplausibleSize || (err instanceof RecordProblem && err.fromHdf5);
    (damage ? shard.structureProblems : shard.schemaProblems).push(err instanceof ImplausibleSize ? err.message : `row datasets: ${(err as Error).message}`);
  }
  return recognized;
}

export const rowsShapeReader: ShapeReader = {
  shape: 'rows',
  read(shard, rootMembers) {
    const recognized = readRowsIn(shard, shard.file, '/', rootMembers);
    const location = shard.recordsLocation(rootMembers);
    if (location && !location.isRoot && holdsRows(shard, location.group, location.members)) {
      if (readRowsIn(shard, location.group, location.path, location.members).size > 0) recognized.add(location.rootMember!);
    }
    return recognized;
  },
};
