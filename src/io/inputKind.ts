/**
 * `wflo validate FILE` for the files io/ reads: which kind of input a YAML document is (campaign,
 * case, turbine, wind, boundary, layout; IEA37 or native shape), detected from its keys, and the
 * full check of that kind with a one-line summary of what was read. A document whose keys match
 * no kind well is reported with the kind it resembles most, so a misspelt key still gets its
 * did-you-mean from that kind's reader.
 */
import path from 'node:path';
import { InputError } from '../util/errors.js';
import { NO_CUT_OUT, type Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import { caseListedWind } from '../optimize/caseDirections.js';
import { directionsDocument, directionsFlag } from './directionsField.js';
import type { Boundary } from '../geometry/boundary.js';
import { readYamlFile } from './yamlFile.js';
import { iea37Kind } from './iea37Format.js';
import { readTurbineFile, windFromDocument, boundaryFromDocument } from './readers.js';
import { caseFromDocument, caseFromIea37Layout, loadCase, readLayoutFile, CASE_FIELDS } from './caseFile.js';
import { caseArgument } from './caseArgument.js';
import { nearestKey } from './didYouMean.js';
import { maxTurbinesBound } from './plausibility.js';
import { isCsvPath, readTimeSeriesCsv } from './timeSeriesCsv.js';
import { curveHeader, isCurveCsv, readCurveCsv } from './curveCsv.js';
import type { Case } from '../case/case.js';
import { windioBoundary, windioCase, windioKind, windioLayout, windioWind } from './windio/windioPlant.js'; // windIO plant files (src/io/windio/)
import { caseFromReferenceDocument, isReferenceCaseDocument } from './referenceCase.js'; // wake-model reference cases

export const INPUT_KINDS = ['campaign', 'case', 'turbine', 'wind', 'boundary', 'layout'] as const;
export type InputKind = (typeof INPUT_KINDS)[number];

/** Top-level keys of each kind's native shape (campaign keys from campaign/campaignSchema.ts, kept in step). */
const KEYS: Record<InputKind, readonly string[]> = {
  campaign: ['name', 'output', 'farms', 'farm_types', 'seeds', 'optimizer', 'workers', 'timeout_s', 'attempts', 'backoff', 'max_failures', 'export', 'only'],
  case: CASE_FIELDS,
  turbine: ['name', 'rotor_diameter', 'hub_height', 'performance'],
  wind: [
    'name',
    'wind_resource',
    'energy_resource',
    'wind_direction',
    'wind_speed',
    'probability',
    'sector_probability',
    'weibull_a',
    'weibull_k',
    'turbulence_intensity',
    'time_series',
  ],
  boundary: ['name', 'boundary', 'circle', 'polygon', 'polygons', 'holes', 'exclusions'],
  layout: ['x', 'y', 'coordinates', 'layout'],
};
/** Keys that only one kind has: one of them decides. */
const DECISIVE: [string, InputKind][] = [
  ['farms', 'campaign'],
  ['farm_types', 'campaign'],
  ['seeds', 'campaign'],
  ['optimizer', 'campaign'],
  ['base', 'case'],
  ['n_turbines', 'case'],
  ['turbine', 'case'],
  ['wind', 'case'],
  ['wake_model', 'case'],
  ['rotor_diameter', 'turbine'],
  ['hub_height', 'turbine'],
  ['performance', 'turbine'],
  ['wind_direction', 'wind'],
  ['wind_resource', 'wind'],
  ['energy_resource', 'wind'],
  ['time_series', 'wind'],
  ['circle', 'boundary'],
  ['polygon', 'boundary'],
  ['polygons', 'boundary'],
  ['x', 'layout'],
  ['coordinates', 'layout'],
];

/** The kind of a parsed document; null when it has nothing recognisable. */
export function detectInputKind(doc: unknown): InputKind | null {
  const iea = iea37Kind(doc);
  if (iea) return iea;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return null;
  const keys = Object.keys(doc);
  for (const [key, kind] of DECISIVE) if (keys.includes(key)) return kind;
  // `boundary:` alone is a boundary file; with other case keys it is a case.
  if (keys.includes('boundary')) return keys.every((k) => k === 'boundary' || k === 'name') ? 'boundary' : 'case';
  if (keys.includes('layout')) return keys.every((k) => k === 'layout' || k === 'name') ? 'layout' : 'case';
  // Nothing exact: the kind most keys are near to (misspellings).
  let best: InputKind | null = null,
    bestScore = 0;
  for (const kind of INPUT_KINDS) {
    const score = keys.filter((k) => k !== 'name' && nearestKey(k, KEYS[kind]) !== null).length;
    if (score > bestScore) {
      best = kind;
      bestScore = score;
    }
  }
  return best;
}

export interface ValidatedInput {
  kind: Exclude<InputKind, 'campaign'>;
  /** One line saying what was read. */
  summary: string;
  details: Record<string, unknown>;
}

export const describeTurbine = (t: Turbine): Record<string, unknown> => ({
  name: t.name,
  rotor_diameter_m: t.diameter,
  hub_height_m: t.hubHeight,
  rated_power_w: t.ratedPowerW,
  // A table held beyond its ends (beyond_table: hold) has no cut-out: null, not the largest double.
  cutin_wind_speed: t.cutIn,
  cutout_wind_speed: t.cutOut === NO_CUT_OUT ? null : t.cutOut,
  power:
    t.power.kind === 'cubic'
      ? `IEA37 cubic, rated at ${t.power.ratedSpeed} m/s`
      : `table of ${t.power.speeds.length} points${t.cutOut === NO_CUT_OUT ? ', end values held beyond it' : ''}`,
  thrust: t.thrust.kind === 'constant' ? `constant Ct ${+t.thrust.ct.toFixed(6)}` : `table of ${t.thrust.speeds.length} points`,
});

/** `16 directions × 1 speeds`, or `time series of 300 samples`. */
export const windShape = (w: WindResource): string =>
  w.series ? `time series of ${w.series.speeds.length} samples` : `${w.directionsDeg.length} directions × ${w.speeds.length} speeds`;

const range = (v: ArrayLike<number>): [number, number] => {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < v.length; i++) {
    lo = Math.min(lo, v[i]);
    hi = Math.max(hi, v[i]);
  }
  return [lo, hi];
};

export const describeWind = (w: WindResource): Record<string, unknown> => {
  const s = w.series;
  if (s) {
    let meanSpeed = 0;
    for (let t = 0; t < s.speeds.length; t++) meanSpeed += s.weights[t] * s.speeds[t];
    return {
      samples: s.speeds.length,
      speed_range: range(s.speeds),
      mean_speed: +meanSpeed.toFixed(4),
      turbulence_intensity: +w.turbulenceIntensity.toFixed(6),
      ...(s.turbulenceIntensity ? { turbulence_intensity_range: range(s.turbulenceIntensity) } : {}),
      summary_rose: `${w.directionsDeg.length} directions × ${w.speeds.length} speeds (1° × 0.5 m/s bins)`,
    };
  }
  let meanSpeed = 0;
  const ns = w.speeds.length;
  for (let i = 0; i < w.probability.length; i++) meanSpeed += w.probability[i] * w.speeds[i % ns];
  return {
    directions: w.directionsDeg.length,
    speeds: ns,
    speed_range: [w.speeds[0], w.speeds[ns - 1]],
    mean_speed: +meanSpeed.toFixed(4),
    turbulence_intensity: (w as { turbulenceIntensity?: number }).turbulenceIntensity,
    ...(w.turbulenceIntensityByBin ? { turbulence_intensity_range: range(w.turbulenceIntensityByBin) } : {}),
  };
};

export const describeBoundary = (b: Boundary): Record<string, unknown> => ({
  kind: b.kind,
  ...(b.kind === 'circle'
    ? { center: b.center, radius_m: b.radius }
    : b.kind === 'polygon'
      ? { vertices: b.vertices.length }
      : { polygons: b.polygons.length }),
  exclusions: (b.exclusions ?? []).map((e) => e.name),
});

/**
 * Read and check a non-campaign input file of `kind` (detected when not given); `parsed` is the
 * file's document when the caller already read it (read once: a big file's parse is not repeated).
 */
export function validateInputFile(file: string, kind?: InputKind, parsed?: unknown): ValidatedInput {
  const name = path.basename(file);
  // A built-in case name is that case (as `wflo aep NAME`, `optimize NAME`; io/caseArgument.ts).
  if ((kind === undefined || kind === 'case') && caseArgument(file).kind === 'builtin') return caseResult(loadCase(file), file);
  if (isCsvPath(file) && (kind === undefined || kind === 'turbine') && isCurveCsv(file)) {
    // A turbine's curve table (curveCsv.ts): its parse is checked here, its numbers with the turbine that names it.
    const columns = (['power', 'ct'] as const).filter((c) => curveHeader(file).includes(c));
    const t = readCurveCsv(file, columns[0]!);
    if (columns.length > 1) readCurveCsv(file, columns[1]!);
    return {
      kind: 'turbine',
      summary: `${name}: valid curve table: ${t.speeds.length} speeds, columns wind_speed, ${columns.join(', ')} (a turbine file names it in power_curve / Ct_curve, where its values are checked)`,
      details: { curve_table: file, speeds: t.speeds.length, columns: ['wind_speed', ...columns] },
    };
  }
  if (isCsvPath(file) && (kind === undefined || kind === 'wind')) {
    const w = readTimeSeriesCsv(file);
    return { kind: 'wind', summary: `${name}: valid wind resource: ${windShape(w)}`, details: describeWind(w) };
  }
  const doc = parsed ?? readYamlFile(file);
  // Whole-plant files read by their own readers: a windIO wind_energy_system, a reference case.
  if (kind === undefined || kind === 'case') {
    if (isReferenceCaseDocument(doc)) return caseResult(caseFromReferenceDocument(doc, file), name);
    if (windioKind(doc) === 'wind_energy_system') return caseResult(windioCase(file), name);
  }
  const windio = kind === undefined ? windioKind(doc) : null;
  if (windio === 'site') {
    const b = windioBoundary(file),
      w = windioWind(file, { listed: true });
    return {
      kind: 'boundary',
      summary: `${name}: valid windIO site: ${b.kind} boundary, ${windShape(w)} wind`,
      details: { boundary: describeBoundary(b), wind: describeWind(w) },
    };
  }
  if (windio === 'energy_resource') {
    const w = windioWind(file, { listed: true });
    return { kind: 'wind', summary: `${name}: valid windIO energy resource: ${windShape(w)}`, details: describeWind(w) };
  }
  if (windio === 'wind_farm') {
    const l = windioLayout(file);
    return { kind: 'layout', summary: `${name}: valid windIO wind farm layout of ${l.x.length} turbines`, details: { n_turbines: l.x.length } };
  }
  const k = kind ?? detectInputKind(doc);
  if (k === null) {
    throw new InputError(
      `${file}:1: (top level): cannot tell what kind of input this is; expected a campaign, case, turbine, wind, boundary or layout file (use --kind)`,
    );
  }
  if (k === 'campaign') throw new InputError(`${file}: a campaign: validate it with \`wflo validate\` (the CLI loads campaigns)`);
  switch (k) {
    case 'turbine': {
      const t = readTurbineFile(file, doc);
      return {
        kind: k,
        summary: `${name}: valid turbine '${t.name}': D = ${t.diameter} m, hub ${t.hubHeight} m, rated ${t.ratedPowerW / 1e6} MW`,
        details: describeTurbine(t),
      };
    }
    case 'wind': {
      const w = windFromDocument(doc, file);
      return { kind: k, summary: `${name}: valid wind resource: ${windShape(w)}`, details: describeWind(w) };
    }
    case 'boundary': {
      const b = boundaryFromDocument(doc, file);
      return {
        kind: k,
        summary: `${name}: valid boundary: ${b.kind}${b.exclusions?.length ? ` with ${b.exclusions.length} exclusions` : ''}`,
        details: describeBoundary(b),
      };
    }
    case 'layout': {
      const l = readLayoutFile(file, doc);
      return { kind: k, summary: `${name}: valid layout of ${l.x.length} turbines`, details: { n_turbines: l.x.length } };
    }
    case 'case':
      return caseResult(iea37Kind(doc) === 'layout' ? caseFromIea37Layout(doc, file) : caseFromDocument(doc, file), name);
  }
}

/** The case's turbine model, or its models with their counts (or "chosen" by the optimizer). */
function modelsOf(c: Case): string {
  const m = c.turbines;
  if (!m) return c.turbine.name;
  if (m.choice) return `models chosen among ${m.types.map((t) => t.name).join(', ')}`;
  return m.types.map((t, k) => `${m.typeOf.filter((v) => v === k).length} × ${t.name}`).join(' + ');
}

/** A validated case and what it holds. */
function caseResult(c: Case, name: string): ValidatedInput {
  const room = c.boundary ? Math.floor(maxTurbinesBound(c.boundary, c.minSpacing)) : null;
  return {
    kind: 'case',
    summary:
      `${name}: valid case '${c.name}': ${c.nTurbines} turbines (${modelsOf(c)}), spacing ${c.minSpacing} m, ` +
      `${windShape(caseListedWind(c))} wind${c.directions ? ` (directions ${directionsFlag(c.directions.treatment)}: ${c.wind.directionsDeg.length} evaluated)` : ''}, ${c.boundary ? `${c.boundary.kind} site (room for at most ${room})` : 'no boundary'}` +
      `${c.neighbours ? `, ${c.neighbours.x.length} neighbouring turbines` : ''}`,
    details: {
      name: c.name,
      n_turbines: c.nTurbines,
      min_spacing_m: c.minSpacing,
      turbine: describeTurbine(c.turbine),
      wind: describeWind(caseListedWind(c)),
      ...(c.directions ? { directions: directionsDocument(c.directions.treatment) } : {}),
      boundary: c.boundary ? describeBoundary(c.boundary) : null,
      wake_model: c.model.wake,
      superposition: c.model.superposition,
      ...(c.model.blockage ? { blockage: c.model.blockage } : {}),
      ...(c.model.ground && c.model.ground !== 'none' ? { ground: c.model.ground } : {}),
      ...(c.model.params && Object.keys(c.model.params).length > 0 ? { wake_params: c.model.params } : {}),
      has_layout: c.layout !== null,
    },
  };
}
