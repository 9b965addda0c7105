/**
 * Readers for the IEA Wind Task 37 case-study YAML files as published (cs1-2 and cs3-4 shapes):
 * turbine, wind rose, boundary and layout files. The two case-study generations nest their
 * values differently (`rotor.properties.radius.default` vs `rotor.diameter.default`, `xc`/`yc`
 * lists vs `[x, y]` pairs, one speed vs a per-direction speed table), so fields are looked up by
 * name rather than by one fixed path.
 */
import type { Turbine } from '../physics/turbine.js';
import { roseFromSectors, type WindResource } from '../physics/windResource.js';
import type { Boundary, Point } from '../geometry/boundary.js';
import { InputError } from '../util/errors.js';
import { dig, findKey, collectRefs } from './yamlFile.js';
import { requireNumber, requireNumberArray, requireMatrix } from './numbers.js';

export function isIea37Document(doc: unknown): boolean {
  return doc !== null && typeof doc === 'object' && 'definitions' in (doc as object);
}

function defaultOf(doc: unknown, key: string): unknown {
  const node = findKey(dig(doc, 'definitions'), key);
  if (node !== null && typeof node === 'object' && 'default' in (node as object)) return (node as { default: unknown }).default;
  return undefined;
}

export function iea37Turbine(doc: unknown, file: string): Turbine {
  const defs = dig(doc, 'definitions');
  if (findKey(defs, 'cut_in_wind_speed') === undefined) {
    throw new InputError(`${file}: not an IEA37 turbine file (no definitions.operating_mode.cut_in_wind_speed)`);
  }
  const cutIn = requireNumber(defaultOf(doc, 'cut_in_wind_speed'), file, 'cut_in_wind_speed.default', { nonNegative: true });
  const cutOut = requireNumber(defaultOf(doc, 'cut_out_wind_speed'), file, 'cut_out_wind_speed.default', { positive: true });
  const rated = requireNumber(defaultOf(doc, 'rated_wind_speed'), file, 'rated_wind_speed.default', { positive: true });
  const diameterDefault = defaultOf(doc, 'diameter');
  const diameter =
    diameterDefault !== undefined
      ? requireNumber(diameterDefault, file, 'rotor.diameter.default', { positive: true })
      : 2 * requireNumber(defaultOf(doc, 'radius'), file, 'rotor.radius.default', { positive: true });
  const hubHeight = requireNumber(defaultOf(doc, 'height'), file, 'hub.height.default', { positive: true });
  const ratedNode =
    (findKey(defs, 'rated_power') as { maximum?: unknown } | undefined)?.maximum !== undefined ? findKey(defs, 'rated_power') : findKey(defs, 'power');
  const ratedPowerW = requireNumber(dig(ratedNode, 'maximum'), file, 'rated_power.maximum', { positive: true });
  const idNode = findKey(defs, 'id');
  const id = typeof idNode === 'string' ? idNode : (dig(idNode, 'description') ?? defaultOf(doc, 'wind_turbine_id'));
  return {
    name: typeof id === 'string' || typeof id === 'number' ? `IEA37 ${id}` : file,
    diameter,
    hubHeight,
    ratedPowerW,
    cutIn,
    cutOut,
    power: { kind: 'cubic', ratedSpeed: rated },
    // The case studies fix Ct = 8/9 for the simplified Gaussian wake (iea37-wakemodel.pdf).
    thrust: { kind: 'constant', ct: 8 / 9 },
  };
}

export function iea37WindRose(doc: unknown, file: string): WindResource {
  const inflow = findKey(dig(doc, 'definitions'), 'wind_inflow');
  const props = dig(inflow, 'properties') ?? inflow;
  const direction = dig(props, 'direction');
  if (direction === undefined) throw new InputError(`${file}: not an IEA37 wind rose (no definitions.wind_inflow.properties.direction)`);
  const dirs = requireNumberArray(dig(direction, 'bins'), file, 'direction.bins');
  const freqRaw = dig(direction, 'frequency') ?? dig(props, 'probability', 'default');
  const freq = requireNumberArray(freqRaw, file, dig(direction, 'frequency') !== undefined ? 'direction.frequency' : 'probability.default');
  if (freq.length !== dirs.length) {
    throw new InputError(`${file}: direction frequencies: ${freq.length} values for ${dirs.length} direction bins`);
  }
  const speed = dig(props, 'speed');
  const tiNode = dig(props, 'ti') ?? dig(props, 'turbulence_intensity') ?? dig(props, 'turbulence_intenstiy');
  const ti = dig(tiNode, 'default') !== undefined ? requireNumber(dig(tiNode, 'default'), file, 'ti.default') : 0.075;
  if (dig(speed, 'bins') !== undefined) {
    const speeds = requireNumberArray(dig(speed, 'bins'), file, 'speed.bins');
    const table = requireMatrix(dig(speed, 'frequency'), file, 'speed.frequency');
    if (table.length !== dirs.length) {
      throw new InputError(`${file}: speed.frequency has ${table.length} rows for ${dirs.length} directions`);
    }
    table.forEach((row, i) => {
      if (row.length !== speeds.length) throw new InputError(`${file}: speed.frequency[${i}] has ${row.length} values for ${speeds.length} speed bins`);
    });
    return roseFromSectors(dirs, freq, speeds, table, ti);
  }
  const u = requireNumber(dig(speed, 'default'), file, 'speed.default', { positive: true });
  return roseFromSectors(dirs, freq, [u], null, ti);
}

export function iea37Boundary(doc: unknown, file: string): Boundary {
  const boundaries = dig(doc, 'boundaries');
  if (boundaries === null || typeof boundaries !== 'object') throw new InputError(`${file}: no 'boundaries' mapping`);
  const polygons: Point[][] = Object.entries(boundaries as Record<string, unknown>).map(([name, pts]) =>
    requireMatrix(pts, file, `boundaries.${name}`).map((p, i) => {
      if (p.length !== 2) throw new InputError(`${file}: boundaries.${name}[${i}]: expected [x, y]`);
      return [p[0], p[1]] as const;
    }),
  );
  if (polygons.length === 0) throw new InputError(`${file}: 'boundaries' is empty`);
  return polygons.length === 1 ? { kind: 'polygon', vertices: polygons[0] } : { kind: 'multipolygon', polygons };
}

export interface Iea37LayoutFile {
  x: Float64Array;
  y: Float64Array;
  /** Referenced YAML files (relative to the layout file), in document order. */
  refs: string[];
  referenceAepMwh?: number;
  referenceBinnedMwh?: number[];
}

export function iea37Layout(doc: unknown, file: string): Iea37LayoutFile {
  const items = dig(doc, 'definitions', 'position', 'items');
  let x: number[], y: number[];
  if (Array.isArray(items)) {
    const pts = requireMatrix(items, file, 'definitions.position.items');
    pts.forEach((p, i) => {
      if (p.length !== 2) throw new InputError(`${file}: definitions.position.items[${i}]: expected [x, y]`);
    });
    x = pts.map((p) => p[0]);
    y = pts.map((p) => p[1]);
  } else if (items && typeof items === 'object') {
    x = requireNumberArray(dig(items, 'xc'), file, 'definitions.position.items.xc');
    y = requireNumberArray(dig(items, 'yc'), file, 'definitions.position.items.yc');
    if (x.length !== y.length) throw new InputError(`${file}: definitions.position.items: ${x.length} xc but ${y.length} yc values`);
  } else {
    throw new InputError(`${file}: definitions.position.items: expected turbine coordinates`);
  }
  if (x.length === 0) throw new InputError(`${file}: definitions.position.items: no turbines`);
  const refs = collectRefs(doc).filter((r) => !r.startsWith('#') && /\.ya?ml$/i.test(r));
  const aep = findKey(dig(doc, 'definitions'), 'annual_energy_production');
  const def = dig(aep, 'default');
  const binned = dig(aep, 'binned');
  return {
    x: Float64Array.from(x),
    y: Float64Array.from(y),
    refs,
    referenceAepMwh: typeof def === 'number' ? def : undefined,
    referenceBinnedMwh: Array.isArray(binned) ? (binned as number[]) : undefined,
  };
}

/** What kind of IEA37 file this is, from its content. */
export function iea37Kind(doc: unknown): 'turbine' | 'wind' | 'boundary' | 'layout' | null {
  if (dig(doc, 'boundaries') !== undefined) return 'boundary';
  const defs = dig(doc, 'definitions');
  if (defs === undefined) return null;
  if (dig(defs, 'position') !== undefined) return 'layout';
  if (findKey(defs, 'wind_inflow') !== undefined) return 'wind';
  if (findKey(defs, 'cut_in_wind_speed') !== undefined) return 'turbine';
  return null;
}
