/**
 * wflo's own YAML format for turbines, wind resources, boundaries and cases, using windIO's
 * field names where windIO defines them (turbine `rotor_diameter`, `hub_height`,
 * `performance.power_curve.power_wind_speeds/power_values`, `Ct_curve.Ct_wind_speeds/Ct_values`,
 * `cutin_wind_speed`, `cutout_wind_speed`, `rated_power`; resource `wind_direction`, `wind_speed`,
 * `probability`, `sector_probability`, `weibull_a`, `weibull_k`, `turbulence_intensity`).
 * The README documents every field with an example.
 */
import { z } from 'zod';
import type { Turbine } from '../physics/turbine.js';
import { roseFromSectors, roseFromWeibull, type WindResource } from '../physics/windResource.js';
import type { Boundary, Point } from '../geometry/boundary.js';
import { InputError } from '../util/errors.js';
import { zodToInputError } from './zodIssue.js';

const finite = z.number().refine(Number.isFinite, { message: 'expected a finite number' });
const positive = finite.refine((v) => v > 0, { message: 'must be > 0' });
const nonNegative = finite.refine((v) => v >= 0, { message: 'must be >= 0' });
const numberList = z.array(finite).min(1, { message: 'expected at least one number' });
/** windIO wraps arrays as {data, dims}; accept both forms. */
const dataOf = <T extends z.ZodTypeAny>(inner: T) =>
  z.union([inner, z.object({ data: inner, dims: z.array(z.string()).optional() })]);

export const turbineSchema = z.object({
  name: z.string().default('turbine'),
  rotor_diameter: positive,
  hub_height: positive,
  performance: z.object({
    rated_power: positive,
    cutin_wind_speed: nonNegative,
    cutout_wind_speed: positive,
    rated_wind_speed: positive.optional(),
    power_curve: z.object({ power_wind_speeds: numberList, power_values: numberList }).optional(),
    Ct_curve: z.object({ Ct_wind_speeds: numberList, Ct_values: numberList }).optional(),
    Ct: positive.optional(),
  }),
});

export function turbineFromNative(doc: unknown, file: string): Turbine {
  const parsed = turbineSchema.safeParse(doc);
  if (!parsed.success) throw zodToInputError(parsed.error, file);
  const t = parsed.data;
  const perf = t.performance;
  let power: Turbine['power'];
  if (perf.power_curve) {
    power = { kind: 'table', speeds: Float64Array.from(perf.power_curve.power_wind_speeds), powerW: Float64Array.from(perf.power_curve.power_values) };
  } else if (perf.rated_wind_speed !== undefined) {
    power = { kind: 'cubic', ratedSpeed: perf.rated_wind_speed };
  } else {
    throw new InputError(`${file}: performance: give power_curve or rated_wind_speed (IEA37 cubic curve)`);
  }
  let thrust: Turbine['thrust'];
  if (perf.Ct_curve) {
    thrust = { kind: 'table', speeds: Float64Array.from(perf.Ct_curve.Ct_wind_speeds), ct: Float64Array.from(perf.Ct_curve.Ct_values) };
  } else if (perf.Ct !== undefined) {
    thrust = { kind: 'constant', ct: perf.Ct };
  } else {
    throw new InputError(`${file}: performance: give Ct_curve or a constant Ct`);
  }
  return {
    name: t.name, diameter: t.rotor_diameter, hubHeight: t.hub_height, ratedPowerW: perf.rated_power,
    cutIn: perf.cutin_wind_speed, cutOut: perf.cutout_wind_speed, power, thrust,
  };
}

export const windSchema = z.object({
  wind_direction: numberList,
  wind_speed: numberList,
  probability: dataOf(z.array(numberList)).optional(),
  sector_probability: dataOf(numberList).optional(),
  weibull_a: dataOf(numberList).optional(),
  weibull_k: dataOf(numberList).optional(),
  turbulence_intensity: dataOf(nonNegative).optional(),
});

const unwrap = <T>(v: T | { data: T; dims?: string[] } | undefined): T | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && 'data' in (v as object) ? (v as { data: T }).data : (v as T | undefined);

export function windFromNative(doc: unknown, file: string): WindResource {
  const root = (doc as Record<string, unknown>)?.wind_resource ?? (doc as Record<string, Record<string, unknown>>)?.energy_resource?.wind_resource ?? doc;
  const parsed = windSchema.safeParse(root);
  if (!parsed.success) throw zodToInputError(parsed.error, file);
  const w = parsed.data;
  const nd = w.wind_direction.length, ns = w.wind_speed.length;
  const ti = unwrap(w.turbulence_intensity) ?? 0.075;
  if (w.probability !== undefined) {
    let table = unwrap(w.probability)!;
    const dims = (w.probability as { dims?: string[] }).dims;
    if (dims && dims[0] === 'wind_speed') table = table[0].map((_, d) => table.map((row) => row[d]));
    if (table.length !== nd) throw new InputError(`${file}: probability: ${table.length} rows for ${nd} wind directions`);
    table.forEach((row, i) => {
      if (row.length !== ns) throw new InputError(`${file}: probability[${i}]: ${row.length} values for ${ns} wind speeds`);
    });
    return roseFromSectors(w.wind_direction, new Array(nd).fill(1), w.wind_speed, table, ti);
  }
  const sector = unwrap(w.sector_probability);
  const a = unwrap(w.weibull_a), k = unwrap(w.weibull_k);
  if (!sector || !a || !k) {
    throw new InputError(`${file}: give probability (directions × speeds) or sector_probability with weibull_a and weibull_k`);
  }
  for (const [name, arr] of [['sector_probability', sector], ['weibull_a', a], ['weibull_k', k]] as const) {
    if (arr.length !== nd) throw new InputError(`${file}: ${name}: ${arr.length} values for ${nd} wind directions`);
  }
  a.forEach((v, i) => { if (!(v > 0)) throw new InputError(`${file}: weibull_a[${i}]: must be > 0, got ${v}`); });
  k.forEach((v, i) => { if (!(v > 0)) throw new InputError(`${file}: weibull_k[${i}]: must be > 0, got ${v}`); });
  return roseFromWeibull(w.wind_direction, sector, a, k, w.wind_speed, ti);
}

const point = z.tuple([finite, finite]);
const xyPolygon = z.object({ x: numberList, y: numberList });
const polygon = z.union([z.array(point).min(3, { message: 'a polygon needs at least 3 vertices' }), xyPolygon]);

export const boundarySchema = z.union([
  z.object({ circle: z.object({ center: point.default([0, 0]), radius: positive }) }),
  z.object({ polygon }),
  z.object({ polygons: z.array(polygon).min(1) }),
]);

function toPoints(p: z.infer<typeof polygon>, file: string, field: string): Point[] {
  if (Array.isArray(p)) return p.map(([x, y]) => [x, y] as const);
  if (p.x.length !== p.y.length) throw new InputError(`${file}: ${field}: ${p.x.length} x but ${p.y.length} y values`);
  if (p.x.length < 3) throw new InputError(`${file}: ${field}: a polygon needs at least 3 vertices`);
  return p.x.map((x, i) => [x, p.y[i]] as const);
}

export function boundaryFromNative(doc: unknown, file: string): Boundary {
  const root = (doc as Record<string, unknown>)?.boundary ?? doc;
  const parsed = boundarySchema.safeParse(root);
  if (!parsed.success) {
    throw new InputError(`${file}: boundary: expected {circle: {center, radius}}, {polygon: [[x, y], ...]} or {polygons: [...]}`);
  }
  const b = parsed.data;
  if ('circle' in b) return { kind: 'circle', center: [b.circle.center[0], b.circle.center[1]], radius: b.circle.radius };
  if ('polygon' in b) return { kind: 'polygon', vertices: toPoints(b.polygon, file, 'polygon') };
  const polygons = b.polygons.map((p, i) => toPoints(p, file, `polygons[${i}]`));
  return polygons.length === 1 ? { kind: 'polygon', vertices: polygons[0] } : { kind: 'multipolygon', polygons };
}
