/**
 * wflo's own YAML format for wind resources and boundaries (turbines: nativeTurbine.ts), using
 * windIO's field names where windIO defines them (resource `wind_direction`, `wind_speed`,
 * `probability`, `sector_probability`, `weibull_a`, `weibull_k`, `turbulence_intensity`).
 * Every mapping is strict: an unknown key is an error naming the nearest known one. docs/inputs.md
 * documents every field.
 */
import { z } from 'zod';
import { roseFromSectors, roseFromWeibull, type WindResource } from '../physics/windResource.js';
import type { Boundary, ExclusionZone, Point } from '../geometry/boundary.js';
import { zodToInputError, strict } from './zodIssue.js';
import { errorAt, rejectDuplicateKeys, type FieldPath } from './sourceMap.js';
import { unknownKeyMessage, nearestKey } from './didYouMean.js';
import path from 'node:path';
import { readTimeSeriesCsv } from './timeSeriesCsv.js';
import { outsideFolderProblem } from './fileDoor.js';
import { seriesFromColumns, type SeriesColumns } from './timeSeriesColumns.js';
import { weibullScaleProblem } from './plausibility.js';

export const finite = z.number({ error: 'expected a number' }).refine(Number.isFinite, { message: 'expected a finite number' });
export const positive = finite.refine((v) => v > 0, { message: 'must be > 0' });
export const nonNegative = finite.refine((v) => v >= 0, { message: 'must be >= 0' });
const probabilityValue = finite.refine((v) => v >= 0, { message: 'must be >= 0 (a probability or frequency cannot be negative)' });
export const numberList = z.array(finite).min(1, { message: 'expected at least one number' });
const probabilityList = z.array(probabilityValue).min(1, { message: 'expected at least one number' });
/** windIO wraps arrays as {data, dims}; accept both forms. */
const dataOf = <T extends z.ZodTypeAny>(inner: T) => z.union([inner, strict({ data: inner, dims: z.array(z.string()).optional() })]);

/** Inline time-series columns (timeSeriesColumns.ts checks lengths and values). */
const seriesSchema = strict({
  time: z.array(z.union([z.string(), finite])).optional(),
  wind_direction: z.array(z.unknown()),
  wind_speed: z.array(z.unknown()),
  turbulence_intensity: z.array(z.unknown()).optional(),
  weight: z.array(z.unknown()).optional(),
  frequency: z.array(z.unknown()).optional(),
});

export const windSchema = strict({
  name: z.string().optional(),
  wind_direction: numberList.optional(),
  wind_speed: numberList.optional(),
  probability: dataOf(z.array(probabilityList)).optional(),
  sector_probability: dataOf(probabilityList).optional(),
  weibull_a: dataOf(numberList).optional(),
  weibull_k: dataOf(numberList).optional(),
  /** One value, or one per (direction, speed) bin (a table shaped like `probability`). */
  turbulence_intensity: z.union([dataOf(nonNegative), dataOf(z.array(z.array(nonNegative).min(1)))]).optional(),
  /** A time series: a CSV file (relative to this file) or the columns inline. */
  time_series: z.union([z.string().min(1), seriesSchema]).optional(),
});

const unwrap = <T>(v: T | { data: T; dims?: string[] } | undefined): T | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && 'data' in (v as object) ? (v as { data: T }).data : (v as T | undefined);

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A key that is no field but close to a wrapper's name (`wind_resourse:`) gets that did-you-mean. */
function misspeltWrapper(doc: Record<string, unknown>, fields: readonly string[], wrappers: readonly string[], file: string): void {
  for (const key of Object.keys(doc)) {
    if (fields.includes(key)) continue;
    if (nearestKey(key, wrappers) !== null && nearestKey(key, fields) === null) throw errorAt(doc, [key], unknownKeyMessage(key, wrappers), file, true);
  }
}

/** The wind-resource mapping of a document (bare, under `wind_resource:`, or under `energy_resource.wind_resource`), checked for stray keys around it. */
export function windRoot(doc: unknown, file: string): { root: unknown; path: FieldPath } {
  if (!isMapping(doc)) return { root: doc, path: [] };
  for (const wrapper of ['wind_resource', 'energy_resource'] as const) {
    if (!(wrapper in doc)) continue;
    for (const key of Object.keys(doc)) {
      if (key !== wrapper && key !== 'name') throw errorAt(doc, [key], unknownKeyMessage(key, ['name', wrapper]), file, true);
    }
    if (wrapper === 'wind_resource') return { root: doc.wind_resource, path: ['wind_resource'] };
    const er = doc.energy_resource;
    if (!isMapping(er) || !('wind_resource' in er)) throw errorAt(doc, ['energy_resource'], 'expected a mapping with wind_resource', file);
    for (const key of Object.keys(er)) {
      if (key !== 'wind_resource' && key !== 'name') throw errorAt(er, [key], unknownKeyMessage(key, ['name', 'wind_resource']), file, true);
    }
    return { root: er.wind_resource, path: ['energy_resource', 'wind_resource'] };
  }
  misspeltWrapper(doc, Object.keys(windSchema.shape), ['wind_resource', 'energy_resource'], file);
  return { root: doc, path: [] };
}

/**
 * A native wind document → WindResource: a rose (probability table or Weibull sectors, with one
 * turbulence intensity or one per bin) or a time series (`time_series`: a CSV file, relative to
 * `baseDir`, or inline columns). Strict at every depth.
 */
export function windFromNative(doc: unknown, file: string, baseDir: string = path.dirname(file)): WindResource {
  const { root } = windRoot(doc, file);
  rejectDuplicateKeys(doc);
  const parsed = windSchema.safeParse(root);
  if (!parsed.success) throw zodToInputError(parsed.error, file, root);
  const w = parsed.data;
  const fail = (path: FieldPath, message: string): never => {
    throw errorAt(root, path, message, file);
  };
  if (w.time_series !== undefined) return seriesFromNative(w, baseDir, fail);
  if (!w.wind_direction) return fail([], 'missing wind_direction (or give a time_series)');
  if (!w.wind_speed) return fail([], 'missing wind_speed (or give a time_series)');
  const nd = w.wind_direction.length,
    ns = w.wind_speed.length;
  const tiValue = unwrap(w.turbulence_intensity);
  const tiTable = Array.isArray(tiValue) ? tiValue : null;
  const ti = typeof tiValue === 'number' ? tiValue : 0.075;
  const withTiTable = (rose: WindResource): WindResource => {
    if (!tiTable) return rose;
    const dims = (w.turbulence_intensity as { dims?: string[] }).dims;
    const at: FieldPath = dims !== undefined ? ['turbulence_intensity', 'data'] : ['turbulence_intensity'];
    const byBin = binTable(tiTable, dims, nd, ns, (p, m) => fail([...at, ...p], m));
    let mean = 0;
    for (let i = 0; i < byBin.length; i++) mean += rose.probability[i] * byBin[i];
    return { ...rose, turbulenceIntensity: mean, turbulenceIntensityByBin: byBin };
  };
  if (w.probability !== undefined) {
    for (const other of ['sector_probability', 'weibull_a', 'weibull_k'] as const) {
      if (w[other] !== undefined) fail([other], 'give probability or sector_probability with weibull_a and weibull_k, not both');
    }
    let table = unwrap(w.probability)!;
    const dims = (w.probability as { dims?: string[] }).dims;
    const transposed = dims !== undefined && dims[0] === 'wind_speed';
    if (transposed) {
      if (table.length !== ns) fail(['probability'], `${table.length} rows for ${ns} wind speeds (dims: [wind_speed, wind_direction])`);
      table.forEach((row, i) => {
        if (row.length !== nd) fail(['probability', i], `${row.length} values for ${nd} wind directions`);
      });
      table = table[0].map((_, d) => table.map((row) => row[d]));
    }
    if (table.length !== nd) fail(['probability'], `${table.length} rows for ${nd} wind directions`);
    table.forEach((row, i) => {
      if (row.length !== ns) fail(['probability', i], `${row.length} values for ${ns} wind speeds`);
    });
    return withTiTable(roseFromSectors(w.wind_direction, new Array(nd).fill(1), w.wind_speed, table, ti));
  }
  const sector = unwrap(w.sector_probability);
  const a = unwrap(w.weibull_a),
    k = unwrap(w.weibull_k);
  if (!sector || !a || !k) {
    const missing = !sector ? 'sector_probability' : !a ? 'weibull_a' : 'weibull_k';
    fail([], `give probability (directions × speeds) or sector_probability with weibull_a and weibull_k (${missing} is missing)`);
  }
  for (const [name, arr] of [
    ['sector_probability', sector!],
    ['weibull_a', a!],
    ['weibull_k', k!],
  ] as const) {
    if (arr.length !== nd) fail([name], `${arr.length} values for ${nd} wind directions`);
  }
  a!.forEach((v, i) => {
    if (!(v > 0)) fail(['weibull_a', i], `must be > 0, got ${v}`);
  });
  const scale = weibullScaleProblem(a!);
  if (scale) fail((w.weibull_a as { dims?: unknown }).dims !== undefined ? ['weibull_a', 'data', scale.index] : ['weibull_a', scale.index], scale.message);
  k!.forEach((v, i) => {
    if (!(v > 0)) fail(['weibull_k', i], `must be > 0, got ${v}`);
  });
  return withTiTable(roseFromWeibull(w.wind_direction, sector!, a!, k!, w.wind_speed, ti));
}

/** A (direction × speed) table, or (speed × direction) with dims [wind_speed, wind_direction], flat by direction. */
function binTable(rows: number[][], dims: string[] | undefined, nd: number, ns: number, fail: (path: FieldPath, message: string) => never): Float64Array {
  const speedFirst = dims !== undefined && dims[0] === 'wind_speed';
  const outer = speedFirst ? ns : nd,
    inner = speedFirst ? nd : ns;
  if (rows.length !== outer)
    fail([], `${rows.length} rows for ${outer} ${speedFirst ? 'wind speeds' : 'wind directions'}${speedFirst ? ' (dims: [wind_speed, wind_direction])' : ''}`);
  const out = new Float64Array(nd * ns);
  rows.forEach((row, a) => {
    if (row.length !== inner) fail([a], `${row.length} values for ${inner} ${speedFirst ? 'wind directions' : 'wind speeds'}`);
    row.forEach((v, b) => {
      out[(speedFirst ? b : a) * ns + (speedFirst ? a : b)] = v;
    });
  });
  return out;
}

type WindDocument = z.infer<typeof windSchema>;

function seriesFromNative(w: WindDocument, baseDir: string, fail: (path: FieldPath, message: string) => never): WindResource {
  for (const other of ['wind_direction', 'wind_speed', 'probability', 'sector_probability', 'weibull_a', 'weibull_k'] as const) {
    if (w[other] !== undefined) fail([other], 'a time_series gives its own directions and speeds: remove this field (or the time_series)');
  }
  const tiValue = unwrap(w.turbulence_intensity);
  if (Array.isArray(tiValue))
    fail(['turbulence_intensity'], 'one value expected beside a time_series (per-sample values go in its turbulence_intensity column)');
  const defaultTi = typeof tiValue === 'number' ? tiValue : 0.075;
  const ts = w.time_series!;
  if (typeof ts === 'string') {
    const outside = outsideFolderProblem(path.resolve(baseDir, ts), baseDir);
    if (outside) fail(['time_series'], outside);
    return readTimeSeriesCsv(path.resolve(baseDir, ts), defaultTi);
  }
  return seriesFromColumns(
    ts as unknown as SeriesColumns,
    (column, sample, message) => fail(sample === null ? ['time_series', column] : ['time_series', column, sample], message),
    defaultTi,
  );
}

const point = z.tuple([finite, finite], { error: 'expected a point [x, y]' });
const xyPolygon = strict({ x: numberList, y: numberList });
const polygon = z.union([z.array(point).min(3, { message: 'a polygon needs at least 3 vertices' }), xyPolygon]);

export const boundarySchema = strict({
  circle: strict({ center: point.default([0, 0]), radius: positive }).optional(),
  polygon: polygon.optional(),
  polygons: z.array(polygon).min(1, { message: 'expected at least one polygon' }).optional(),
  /** Holes of a single polygon (a turbine must lie outside each). */
  holes: z.array(polygon).optional(),
  /** Named areas a turbine may not enter. */
  exclusions: z.array(strict({ name: z.string().min(1), polygon })).optional(),
});

/** The boundary kinds a boundary mapping must name exactly one of. */
export const BOUNDARY_KINDS = ['circle', 'polygon', 'polygons'] as const;

function toPoints(p: z.infer<typeof polygon>, root: unknown, path: FieldPath, file: string): Point[] {
  if (Array.isArray(p)) return p.map(([x, y]) => [x, y] as const);
  if (p.x.length !== p.y.length) throw errorAt(root, path, `${p.x.length} x but ${p.y.length} y values`, file);
  if (p.x.length < 3) throw errorAt(root, path, 'a polygon needs at least 3 vertices', file);
  return p.x.map((x, i) => [x, p.y[i]] as const);
}

/** The boundary mapping of a document (bare or under `boundary:`). */
export function boundaryRoot(doc: unknown, file: string): unknown {
  if (isMapping(doc) && !('boundary' in doc)) misspeltWrapper(doc, Object.keys(boundarySchema.shape), ['boundary'], file);
  if (!isMapping(doc) || !('boundary' in doc)) return doc;
  for (const key of Object.keys(doc)) {
    if (key !== 'boundary' && key !== 'name') throw errorAt(doc, [key], unknownKeyMessage(key, ['name', 'boundary']), file, true);
  }
  return doc.boundary;
}

/**
 * A native boundary: `{circle: {center, radius}}`, `{polygon: …}` or `{polygons: [...]}`, each
 * with optional `exclusions: [{name, polygon}]`; a single polygon may have `holes: [polygon, …]`
 * (named `hole 1`, `hole 2`, … in Boundary.exclusions).
 */
export function boundaryFromNative(doc: unknown, file: string): Boundary {
  const root = boundaryRoot(doc, file);
  rejectDuplicateKeys(doc);
  if (!isMapping(root)) {
    throw errorAt(root, [], 'expected {circle: {center, radius}}, {polygon: [[x, y], ...]} or {polygons: [...]}', file);
  }
  const parsed = boundarySchema.safeParse(root);
  if (!parsed.success) throw zodToInputError(parsed.error, file, root);
  const b = parsed.data;
  const kinds = BOUNDARY_KINDS.filter((k) => b[k] !== undefined);
  if (kinds.length === 0) throw errorAt(root, [], 'expected one of circle, polygon or polygons', file);
  if (kinds.length > 1) throw errorAt(root, [kinds[1]], `give one of circle, polygon or polygons, not ${kinds.join(' and ')}`, file, true);
  if (b.holes !== undefined && !b.polygon) {
    throw errorAt(root, ['holes'], 'holes belong to a single polygon; for a circle or several polygons use exclusions: [{name, polygon}]', file, true);
  }
  let boundary: Boundary;
  if (b.circle) boundary = { kind: 'circle', center: [b.circle.center[0], b.circle.center[1]], radius: b.circle.radius };
  else if (b.polygon) boundary = { kind: 'polygon', vertices: toPoints(b.polygon, root, ['polygon'], file) };
  else {
    const polygons = b.polygons!.map((p, i) => toPoints(p, root, ['polygons', i], file));
    boundary = polygons.length === 1 ? { kind: 'polygon', vertices: polygons[0] } : { kind: 'multipolygon', polygons };
  }
  const exclusions: ExclusionZone[] = [];
  (b.holes ?? []).forEach((h, i) => exclusions.push({ name: `hole ${i + 1}`, vertices: toPoints(h, root, ['holes', i], file) }));
  (b.exclusions ?? []).forEach((e, i) => exclusions.push({ name: e.name, vertices: toPoints(e.polygon, root, ['exclusions', i, 'polygon'], file) }));
  if (exclusions.length > 0) boundary.exclusions = exclusions;
  return boundary;
}

/** Path of exclusion `index` of a native boundary document (for locating its errors). */
export function exclusionPath(doc: unknown, index: number): FieldPath {
  const root = isMapping(doc) && 'boundary' in doc ? doc.boundary : doc;
  const holes = isMapping(root) && Array.isArray(root.holes) ? root.holes.length : 0;
  const prefix: FieldPath = root === doc ? [] : ['boundary'];
  return index < holes ? [...prefix, 'holes', index] : [...prefix, 'exclusions', index - holes, 'polygon'];
}
