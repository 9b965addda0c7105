/**
 * The groups shape: `<group>/<key>` per record (default group `optimized_layouts`, any group path
 * with `--field group=PATH`, or the root: keys like `farm_9_type_4_seed_24`); each entry is a
 * layout dataset (T, 2) with the AEP as an attribute, or a group holding `layout` (or `x`, `y`)
 * and `aep` as datasets or attributes. An entry that cannot be read costs that entry only; a
 * records group HDF5 cannot list (a damaged B-tree) is a structure problem (the file is
 * unreadable unless another shape gives records). Every dataset's declared size is checked
 * before its values are read.
 */
import type { FieldName } from './shardTypes.js';
import { attrNamesOf, isDataset, isGroup, shapeText, toFloat64, scalarOf, type Entity, type H5Dataset, type H5Group } from './h5Entities.js';
import { RecordProblem, RejectedRecord, splitLayout, turbineRowsOf, type RawRecord } from './recordValues.js';
import type { ShapeReader, ShardFile } from './shardFile.js';
import { holdsRows } from './rowsShapeReader.js';
import { attributeMwhFactor, datasetMwhFactor } from './aepUnits.js';
import type { TaskKey } from './keyPattern.js';

/** Energies, converted to MWh from the units their file gives (aepUnits.ts). */
const ENERGY_FIELDS: ReadonlySet<FieldName> = new Set(['aep', 'aep_initial', 'aep_reported']);
/**
 * Fields whose value decides what the record is: an array there is refused (an AEP per turbine
 * is no farm AEP; ignoring an n_turbines array would keep padding as turbines). An array for an
 * optional detail (iterations, ...) is left out: the detail is unknown.
 */
const MUST_BE_SCALAR: ReadonlySet<FieldName> = new Set(['aep', 'aep_initial', 'n_turbines']);

function notScalar(field: FieldName, label: string, shape: number[]): RecordProblem | undefined {
  return MUST_BE_SCALAR.has(field) ? new RecordProblem(`${label} has shape ${shapeText(shape)}; a record's ${field} must be one number`) : undefined;
}

/** Scalar field of a record: a dataset in `owner` (a group), else an attribute of `owner` or of `extra`. */
function fieldScalar(shard: ShardFile, owner: H5Group | H5Dataset, members: Set<string>, field: FieldName, extra?: H5Dataset): number | undefined {
  const names = shard.options.fields[field];
  if (isGroup(owner as Entity)) {
    const name = names.find((n) => members.has(n));
    if (name) {
      const entity = (owner as H5Group).get(name);
      if (isDataset(entity)) {
        shard.checkDeclaredSize(entity, name, false);
        const shape = entity.shape ?? [];
        // More than one value is not a scalar: not read.
        if (shape.reduce((a, b) => a * b, 1) !== 1) {
          const problem = notScalar(field, name, shape);
          if (problem) throw problem;
          return undefined;
        }
        const value = scalarOf(entity.value);
        return value !== undefined && ENERGY_FIELDS.has(field) ? value * datasetMwhFactor(entity, name) : value;
      }
    }
  }
  for (const source of [owner, extra]) {
    if (!source) continue;
    const present = attrNamesOf(source);
    const name = names.find((n) => present.has(n));
    if (!name) continue;
    // An attribute's values live in its object header; one declaring more than one value is not a scalar: not read.
    const attribute = source.attrs[name];
    if (!attribute || attribute.metadata.total_size !== 1) {
      const problem = attribute && notScalar(field, `attribute ${name}`, attribute.metadata.shape ?? []);
      if (problem) throw problem;
      return undefined;
    }
    const value = scalarOf(source.get_attribute(name, false));
    return value !== undefined && ENERGY_FIELDS.has(field) ? value * attributeMwhFactor(source, name, `attribute ${name}`) : value;
  }
  return undefined;
}

/** Names of a layout's axes (h5py: `d.dims[i].label`), lower case; empty when it has none. */
function axisLabels(entity: H5Dataset): string[] {
  if (!attrNamesOf(entity).has('DIMENSION_LABELS')) return [];
  const labels = entity.get_attribute('DIMENSION_LABELS', false);
  return Array.isArray(labels) ? labels.map((l) => (typeof l === 'string' ? l.trim().toLowerCase() : '')) : [];
}

/**
 * A 2 x 2 layout (two turbines) as (T, 2) data. (T, 2) and (2, T) are both read, so such an
 * array is [[x0, y0], [x1, y1]] or [[x0, x1], [y0, y1]]: it is read only when one axis is
 * labelled `xy` (the one holding x and y); otherwise the record is refused rather than guessed.
 */
function squareLayout(entity: H5Dataset, data: Float64Array, label: string): Float64Array {
  const labels = axisLabels(entity);
  const xyAxis = labels.length === 2 && labels.filter((l) => l === 'xy').length === 1 ? labels.indexOf('xy') : -1;
  if (xyAxis === 1) return data;
  if (xyAxis === 0) return Float64Array.of(data[0], data[2], data[1], data[3]);
  throw new RecordProblem(
    `${label} has shape (2, 2): (T, 2) or (2, T) cannot be told apart; store x and y as separate datasets, or label the axis holding x and y (h5py: d.dims[1].label = 'xy')`,
  );
}

/** Whether a layout dataset is 2 x 2 (see squareLayout). */
function isSquare(entity: H5Dataset): boolean {
  const shape = entity.shape ?? [];
  return shape.length === 2 && shape[0] === 2 && shape[1] === 2;
}

/** A (T, 2) layout dataset as x and y; refuses one over --max-turbines before reading its values. */
function layoutOf(shard: ShardFile, entity: H5Dataset, declared: number | undefined, label: string): [Float64Array, Float64Array] {
  shard.checkDeclaredSize(entity, label, false);
  const shape = entity.shape ?? [];
  const rows = turbineRowsOf(shape);
  const turbines = declared !== undefined && rows !== null && declared <= rows ? declared : rows;
  if (turbines !== null && turbines > shard.gate.maxTurbines) {
    throw new RejectedRecord(`${turbines} turbines, more than --max-turbines ${shard.gate.maxTurbines}`);
  }
  const data = toFloat64(entity.value);
  if (!data) throw new RecordProblem(`${label} is not numeric (dtype ${JSON.stringify(entity.dtype)})`);
  return splitLayout(isSquare(entity) ? squareLayout(entity, data, label) : data, shape, declared, label);
}

function recordOfDataset(shard: ShardFile, taskKey: TaskKey, entry: H5Dataset): RawRecord {
  const none = new Set<string>();
  const declared = fieldScalar(shard, entry, none, 'n_turbines');
  const [x, y] = layoutOf(shard, entry, declared, 'layout');
  return {
    key: taskKey,
    x,
    y,
    aep: fieldScalar(shard, entry, none, 'aep'),
    aepInitial: fieldScalar(shard, entry, none, 'aep_initial'),
    iterations: fieldScalar(shard, entry, none, 'iterations'),
    evaluations: fieldScalar(shard, entry, none, 'evaluations'),
    wallS: fieldScalar(shard, entry, none, 'wall_s'),
    attempts: fieldScalar(shard, entry, none, 'attempts'),
    aepReported: fieldScalar(shard, entry, none, 'aep_reported'),
  };
}

function recordOfGroup(shard: ShardFile, taskKey: TaskKey, entry: H5Group): RawRecord {
  const fields = shard.options.fields;
  const members = new Set(entry.keys());
  const layoutName = shard.nameIn(members, 'layout');
  const layoutEntity = layoutName ? entry.get(layoutName) : null;
  const layoutDataset = isDataset(layoutEntity) ? layoutEntity : undefined;
  // A 2 x 2 layout is ambiguous (squareLayout); x and y stored beside it are not.
  const xyBeside = shard.nameIn(members, 'x') !== undefined && shard.nameIn(members, 'y') !== undefined;
  const readLayout = layoutDataset && !(xyBeside && isSquare(layoutDataset) && !axisLabels(layoutDataset).includes('xy'));
  const declared = fieldScalar(shard, entry, members, 'n_turbines', layoutDataset);
  let x: Float64Array;
  let y: Float64Array;
  if (layoutDataset && readLayout) {
    [x, y] = layoutOf(shard, layoutDataset, declared, layoutName!);
  } else {
    const xName = shard.nameIn(members, 'x');
    const yName = shard.nameIn(members, 'y');
    const xEntity = xName ? entry.get(xName) : null;
    const yEntity = yName ? entry.get(yName) : null;
    if (!isDataset(xEntity) || !isDataset(yEntity)) throw new RecordProblem(`no ${fields.layout.join('/')} dataset (nor x and y)`);
    shard.checkDeclaredSize(xEntity, xName!, false);
    shard.checkDeclaredSize(yEntity, yName!, false);
    // Vectors (T,) (or (T, 1), (1, T)); a wider array read flat would mix turbines up.
    for (const [name, entity] of [
      [xName!, xEntity],
      [yName!, yEntity],
    ] as const) {
      const shape = entity.shape ?? [];
      if (shape.filter((d) => d > 1).length > 1) throw new RecordProblem(`${name} has shape ${shapeText(shape)}; x and y must be vectors (T,)`);
    }
    const width = (xEntity.shape ?? []).reduce((a, b) => a * b, 1);
    if (width > shard.gate.maxTurbines) throw new RejectedRecord(`${width} turbines, more than --max-turbines ${shard.gate.maxTurbines}`);
    const xs = toFloat64(xEntity.value);
    const ys = toFloat64(yEntity.value);
    if (!xs || !ys || xs.length !== ys.length) throw new RecordProblem('x and y are not numeric arrays of equal length');
    // Layout of `stacked`: (T, 2), row t = (x_t, y_t).
    const stacked = new Float64Array(2 * xs.length);
    xs.forEach((v, t) => {
      stacked[2 * t] = v;
      stacked[2 * t + 1] = ys[t];
    });
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
    key: taskKey,
    x,
    y,
    xInitial,
    yInitial,
    aep: fieldScalar(shard, entry, members, 'aep', layoutDataset),
    aepInitial: fieldScalar(shard, entry, members, 'aep_initial', layoutDataset),
    iterations: fieldScalar(shard, entry, members, 'iterations', layoutDataset),
    evaluations: fieldScalar(shard, entry, members, 'evaluations', layoutDataset),
    wallS: fieldScalar(shard, entry, members, 'wall_s', layoutDataset),
    attempts: fieldScalar(shard, entry, members, 'attempts', layoutDataset),
    aepReported: fieldScalar(shard, entry, members, 'aep_reported', layoutDataset),
  };
}

/**
 * Read the entries `keys` of `group` (at `groupPath`) as records. At a named group every member
 * is meant to be a record, so one whose name does not match --key-pattern is reported; at the
 * root only the members that match are records (the others are the file's other contents).
 */
function readGroup(shard: ShardFile, groupPath: string, group: H5Group, keys: string[], isRoot: boolean): void {
  if (keys.length === 0) return;
  shard.shapesFound.push('groups');
  let unmatched = 0;
  let firstUnmatched = '';
  for (const key of keys) {
    const where = isRoot ? key : `${groupPath}/${key}`;
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
        if (isDataset(entry)) return recordOfDataset(shard, taskKey, entry);
        if (isGroup(entry)) return recordOfGroup(shard, taskKey, entry);
        throw new RecordProblem('neither a dataset nor a group (broken link?)');
      });
      shard.keep(raw, where);
    } catch (err) {
      if (!(err instanceof RecordProblem)) throw err;
      shard.loseRecord(where, err, taskKey);
    }
  }
  if (unmatched === keys.length) {
    shard.schemaProblems.push(`no member of ${groupPath} matches --key-pattern ${shard.options.keyPatternText} (e.g. "${firstUnmatched}")`);
  }
}

export const groupsShapeReader: ShapeReader = {
  shape: 'groups',
  read(shard, rootMembers) {
    const location = shard.recordsLocation(rootMembers);
    if (location && !location.isRoot) {
      // A group holding row datasets is the rows reader's.
      if (holdsRows(shard, location.group, location.members)) return new Set();
      readGroup(shard, location.path, location.group, [...location.members], false);
      return new Set([location.rootMember!]);
    }
    // Records at the root: the members named like --key-pattern (when --field group=/ says so,
    // or when no records group exists).
    const placeholders = new Set(shard.options.fields.placeholder);
    const keyed = [...rootMembers].filter((name) => !placeholders.has(name) && shard.parseKey(name));
    if (keyed.length > 0) readGroup(shard, '/', shard.file, keyed, true);
    return new Set(keyed);
  },
};
