/**
 * Reading a wake-model reference case file (the PyWake-computed cases of
 * test/data/reference/, README there): one YAML document with `turbine` (power and Ct tables),
 * `wind` (direction × speed probability table with `dims`, turbulence intensity, hours per year),
 * `layout` (x, y), `model` (deficit model and options, in words and numbers) and `expected`.
 *
 * Each file is read as it is and follows its own conventions: the turbine's tables are
 * interpolated linearly and are 0 outside the table, and the power exactly at the cut-out speed is
 * the table value, as the files' `interpolation` sentence states (PyWake's tabulated turbines);
 * the model block maps onto a waked-inflow FarmModelSpec (docs/physics.md lists the mapping).
 * Anything the engine cannot reproduce (a ground model other than the mirror, another wind farm model) is refused with
 * one line naming the file and field.
 *
 * Farms of several turbine models list them under `turbines` (each shaped like `turbine`) and
 * give `layout.type` (index into that list per turbine); fixed neighbouring turbines come as
 * `neighbours: {x, y, type}`, and `expected` then holds the farm's own AEP (the neighbours'
 * energies beside the farm and alone, when given, in `neighbour_aep_per_turbine_mwh` and
 * `neighbour_alone_aep_per_turbine_mwh`).
 */
import { NO_CUT_OUT, turbineProblem, type Turbine } from '../physics/turbine.js';
import { turbineIssue } from './turbinePlausibility.js';
import { wakeParameterValueProblem } from './wakeParams.js';
import { farmConflict, groundConflict } from '../physics/solvePlan.js';
import { readSiteBlock, siteLayoutProblem } from './siteFields.js';
import { neighbourCountProblem, neighbourReachProblem, siteBoxOf } from './neighbourLimits.js';
import type { WindResource } from '../physics/windResource.js';
import { windFromSeries } from '../physics/windSeries.js';
import type { FarmModelSpec, WakeModelName } from '../physics/farmModel.js';
import { deficitModelByDescription, deficitModelNames } from '../physics/wake/registry.js';
import { InputError } from '../util/errors.js';
import { directionsProblem, radianDirectionsProblem, seriesSamplePlausibility, windPlausibility } from './plausibility.js';
import type { Case } from '../case/case.js';
import { withIea37Lines } from './readers.js'; // file: field: … → file:line: field: … (any document read by readYamlFile)

type Doc = Record<string, unknown>;

export interface ReferenceExpectation {
  aepMwh: number;
  perTurbineMwh: Float64Array;
  /** Neighbours' energy beside the farm and alone, MWh (neighbour cases). */
  neighbourMwh?: Float64Array;
  neighbourAloneMwh?: Float64Array;
  /** Flow at one condition; `turbulenceIntensity` given where it is not the resource's one value (a per-bin rose). */
  checkCondition?: { windDirection: number; windSpeed: number; turbulenceIntensity?: number; wsEff: Float64Array; ct: Float64Array };
}

/** True for a document shaped like a reference case file. */
export function isReferenceCaseDocument(doc: unknown): boolean {
  if (!isObject(doc)) return false;
  const turbineOk = isObject(doc.turbine)
    ? isObject(doc.turbine.ct_curve)
    : Array.isArray(doc.turbines) && doc.turbines.length > 0 && doc.turbines.every((t) => isObject(t) && isObject(t.ct_curve));
  return turbineOk && isObject(doc.wind) && isObject(doc.layout) && isObject(doc.model);
}

function isObject(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numbers(v: unknown, file: string, field: string): Float64Array {
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new InputError(`${file}: ${field}: expected a non-empty list of finite numbers`);
  }
  return Float64Array.from(v as number[]);
}

function num(v: unknown, file: string, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new InputError(`${file}: ${field}: expected a finite number, got ${JSON.stringify(v)}`);
  return v;
}

function obj(v: unknown, file: string, field: string): Doc {
  if (!isObject(v)) throw new InputError(`${file}: ${field}: expected a mapping`);
  return v;
}

export function referenceTurbine(t: Doc, file: string, at = 'turbine'): Turbine {
  const pc = obj(t.power_curve, file, `${at}.power_curve`);
  const cc = obj(t.ct_curve, file, `${at}.ct_curve`);
  const pSpeeds = numbers(pc.wind_speed, file, `${at}.power_curve.wind_speed`);
  const power = numbers(pc.power_w, file, `${at}.power_curve.power_w`);
  const cSpeeds = numbers(cc.wind_speed, file, `${at}.ct_curve.wind_speed`);
  const ct = numbers(cc.ct, file, `${at}.ct_curve.ct`);
  if (pSpeeds.length !== power.length) throw new InputError(`${file}: ${at}.power_curve: ${pSpeeds.length} speeds but ${power.length} powers`);
  if (cSpeeds.length !== ct.length) throw new InputError(`${file}: ${at}.ct_curve: ${cSpeeds.length} speeds but ${ct.length} Ct values`);
  const note = typeof t.interpolation === 'string' ? t.interpolation : '';
  // The files' stated conventions; PyWake's (0 outside, table value at cut-out) when silent.
  const clampCt = /clamp/i.test(note);
  const zeroAtCutOut = /0 at (exactly )?(the )?cut-?out|zero at (exactly )?(the )?cut-?out/i.test(note);
  // "end values held beyond the table": PyWake's PowerCtTabular without ws_cutin/ws_cutout (a site's speed-up reaches past 25 m/s).
  const hold = /end values (are )?held/i.test(note);
  let rated = 0;
  for (const p of power) rated = Math.max(rated, p);
  const turbine: Turbine = {
    name: typeof t.name === 'string' ? t.name : 'turbine',
    diameter: num(t.rotor_diameter, file, `${at}.rotor_diameter`),
    hubHeight: num(t.hub_height, file, `${at}.hub_height`),
    ratedPowerW: rated,
    cutIn: hold ? 0 : pSpeeds[0],
    cutOut: hold ? NO_CUT_OUT : pSpeeds[pSpeeds.length - 1],
    power: { kind: 'table', speeds: pSpeeds, powerW: power },
    thrust: { kind: 'table', speeds: cSpeeds, ct, outside: clampCt || hold ? 'clamp' : 'zero' },
    cutOutInclusive: !zeroAtCutOut,
  };
  const problem = turbineProblem(turbine);
  if (problem)
    throw new InputError(
      `${file}: ${at}.${/^power curve/.test(problem) ? 'power_curve' : /^thrust/.test(problem) ? 'ct_curve' : /^hub/.test(problem) ? 'hub_height' : 'rotor_diameter'}: ${problem}`,
    );
  // The rules every turbine door shares (turbinePlausibility.ts); the rated power is the table's maximum.
  const issue = turbineIssue(turbine, { ratedPowerGiven: false, powerUnitOption: false });
  if (issue) {
    const field = {
      ratedPower: 'power_curve.power_w',
      diameter: 'rotor_diameter',
      hubHeight: 'hub_height',
      powerSpeeds: 'power_curve.wind_speed',
      powerValues: 'power_curve.power_w',
      ctSpeeds: 'ct_curve.wind_speed',
      ctValues: 'ct_curve.ct',
    }[issue.field];
    throw new InputError(`${file}: ${at}.${field}${issue.index !== undefined ? `[${issue.index}]` : ''}: ${issue.message}`);
  }
  return turbine;
}

/** `wind.time_series`: time, wind_direction, wind_speed, turbulence_intensity, weight lists (one value per sample). */
function referenceSeries(w: Doc, file: string): WindResource {
  const ts = obj(w.time_series, file, 'wind.time_series');
  const dirs = numbers(ts.wind_direction, file, 'wind.time_series.wind_direction');
  const radians = radianDirectionsProblem(dirs);
  if (radians) throw new InputError(`${file}: wind.time_series.wind_direction: ${radians}`);
  const outside = directionsProblem(dirs, false);
  if (outside) throw new InputError(`${file}: wind.time_series.wind_direction[${outside.index}]: ${outside.message}`);
  const speeds = numbers(ts.wind_speed, file, 'wind.time_series.wind_speed');
  const ti = ts.turbulence_intensity === undefined ? null : numbers(ts.turbulence_intensity, file, 'wind.time_series.turbulence_intensity');
  const weights = ts.weight === undefined ? null : numbers(ts.weight, file, 'wind.time_series.weight');
  for (const [name, v] of [
    ['wind_speed', speeds],
    ['turbulence_intensity', ti],
    ['weight', weights],
  ] as const) {
    if (v && v.length !== dirs.length) throw new InputError(`${file}: wind.time_series.${name}: ${v.length} values for ${dirs.length} samples`);
  }
  const implausible = seriesSamplePlausibility(speeds, ti);
  if (implausible)
    throw new InputError(
      `${file}: wind.time_series.${implausible.quantity === 'speed' ? 'wind_speed' : 'turbulence_intensity'}[${implausible.sample}]: ${implausible.message}`,
    );
  weights?.forEach((v, i) => {
    if (!(v >= 0)) throw new InputError(`${file}: wind.time_series.weight[${i}]: ${v} must be >= 0`);
  });
  if (weights && !weights.some((v) => v > 0)) throw new InputError(`${file}: wind.time_series.weight: every weight is 0: nothing to average`);
  const hours = w.hours_per_year === undefined ? 8760 : num(w.hours_per_year, file, 'wind.hours_per_year');
  return windFromSeries({ directionsDeg: dirs, speeds, weights, turbulenceIntensity: ti, defaultTurbulenceIntensity: 0.1, hoursPerYear: hours });
}

export function referenceWind(w: Doc, file: string): WindResource {
  if (w.time_series !== undefined) return referenceSeries(w, file);
  const dirs = numbers(w.wind_direction, file, 'wind.wind_direction');
  const radians = radianDirectionsProblem(dirs);
  if (radians) throw new InputError(`${file}: wind.wind_direction: ${radians}`);
  const bad = directionsProblem(dirs, true);
  if (bad) throw new InputError(`${file}: wind.wind_direction[${bad.index}]: ${bad.message}`);
  const speeds = numbers(w.wind_speed, file, 'wind.wind_speed');
  const dims = Array.isArray(w.dims) ? w.dims : ['wind_direction', 'wind_speed'];
  const speedFirst = dims[0] === 'wind_speed';
  if (!Array.isArray(w.probability)) throw new InputError(`${file}: wind.probability: expected a ${dims.join(' × ')} table`);
  const rows = w.probability as unknown[];
  const nd = dirs.length,
    ns = speeds.length;
  const outer = speedFirst ? ns : nd,
    inner = speedFirst ? nd : ns;
  if (rows.length !== outer) throw new InputError(`${file}: wind.probability: ${rows.length} rows, expected ${outer} (${dims[0]})`);
  const probability = new Float64Array(nd * ns);
  rows.forEach((row, a) => {
    const r = numbers(row, file, `wind.probability[${a}]`);
    if (r.length !== inner) throw new InputError(`${file}: wind.probability[${a}]: ${r.length} values, expected ${inner} (${dims[1]})`);
    for (let b = 0; b < inner; b++) {
      const d = speedFirst ? b : a,
        s = speedFirst ? a : b;
      probability[d * ns + s] = r[b];
    }
  });
  const hours = w.hours_per_year === undefined ? 8760 : num(w.hours_per_year, file, 'wind.hours_per_year');
  if (!(hours > 0)) throw new InputError(`${file}: wind.hours_per_year: must be > 0, got ${hours}`);
  if (Array.isArray(w.turbulence_intensity)) {
    // A turbulence intensity per bin, a table in the probability's dims.
    const tiRows = w.turbulence_intensity as unknown[];
    if (tiRows.length !== outer) throw new InputError(`${file}: wind.turbulence_intensity: ${tiRows.length} rows, expected ${outer} (${dims[0]})`);
    const byBin = new Float64Array(nd * ns);
    tiRows.forEach((row, a) => {
      const r = numbers(row, file, `wind.turbulence_intensity[${a}]`);
      if (r.length !== inner) throw new InputError(`${file}: wind.turbulence_intensity[${a}]: ${r.length} values, expected ${inner} (${dims[1]})`);
      for (let b = 0; b < inner; b++) byBin[(speedFirst ? b : a) * ns + (speedFirst ? a : b)] = r[b];
    });
    let mean = 0;
    for (let i = 0; i < byBin.length; i++) mean += probability[i] * byBin[i];
    return plausibleRose({ directionsDeg: dirs, speeds, probability, turbulenceIntensity: mean, hoursPerYear: hours, turbulenceIntensityByBin: byBin }, file);
  }
  const ti = w.turbulence_intensity === undefined ? 0.1 : num(w.turbulence_intensity, file, 'wind.turbulence_intensity');
  return plausibleRose({ directionsDeg: dirs, speeds, probability, turbulenceIntensity: ti, hoursPerYear: hours }, file);
}

/** A rose's speeds and turbulence checked for unit slips (km/h, percent), as every wind door does. */
function plausibleRose(w: WindResource, file: string): WindResource {
  const implausible = windPlausibility(w);
  if (implausible && implausible.quantity === 'speeds') throw new InputError(`${file}: wind.wind_speed[${implausible.index}]: ${implausible.message}`);
  if (implausible && implausible.quantity === 'turbulence') throw new InputError(`${file}: wind.turbulence_intensity: ${implausible.message}`);
  return w;
}

/** Numeric model fields → engine parameter names (lists spread into numbered names). */
const PARAM_NAMES: Record<string, string[]> = {
  k: ['k'],
  ceps: ['ceps'],
  ctlim: ['ctlim'],
  a: ['a1', 'a2'],
  A: ['A'],
  cTI: ['cTI1', 'cTI2'],
  deltawD: ['deltawD'],
  eps_coeff: ['epsCoeff'],
  lam: ['lam'],
  B: ['B'],
  a_s: ['a_s'],
  b_s: ['b_s'],
  c_s: ['c_s'],
  a_f: ['a_f'],
  b_f: ['b_f'],
  c_f: ['c_f'],
};

/** Per-model exceptions: Carbajo Fuertes' ε is c_ε0·k + c_ε1 (two numbers). */
const MODEL_PARAM_NAMES: Partial<Record<WakeModelName, Record<string, string[]>>> = {
  carbajofuertes2018: { ceps: ['ceps0', 'ceps1'] },
};

/** A field that says "library default": the model's default in the library that computed the file (PyWake). */
function isLibraryDefault(v: unknown): boolean {
  return typeof v === 'string' && /library[ _-]?default/i.test(v);
}

export function referenceModel(doc: Doc, file: string): FarmModelSpec {
  const deficit = typeof doc.deficit === 'string' ? doc.deficit : '';
  const described = deficitModelByDescription(deficit);
  if (!described) throw new InputError(`${file}: model.deficit: unknown deficit model '${deficit}' (known: ${deficitModelNames().join(', ')})`);
  const library = described.library;
  for (const field of ['rotor_average', 'ground'] as const) {
    const lacking = library.unsupported?.[field];
    if (isLibraryDefault(doc[field]) && lacking) {
      throw new InputError(`${file}: model.${field}: PyWake's default for ${described.name} includes the ${lacking}, which wflo does not have`);
    }
  }
  // Fields saying "library default" are left out: the engine's per-model defaults are PyWake's.
  const m: Doc = Object.fromEntries(Object.entries(doc).filter(([, v]) => !isLibraryDefault(v)));
  const spec: FarmModelSpec = { wake: described.name, superposition: 'linear', inflow: 'waked', params: {} };
  const paramNames = { ...PARAM_NAMES, ...MODEL_PARAM_NAMES[described.name] };
  for (const [key, names] of Object.entries(paramNames)) {
    if (!isLibraryDefault(doc[key])) continue;
    for (const name of names) if (library.params?.[name] !== undefined) spec.params![name] = library.params[name];
  }
  const wfm = typeof m.wind_farm_model === 'string' ? m.wind_farm_model : 'PropagateDownwind';
  if (m.blockage !== undefined && m.blockage !== null) {
    // Blockage: wakes and induction solved together to a fixed point (blockageSolve.ts), PyWake's All2AllIterative.
    if (!/self-?similar\w*.*2020|selfsimilaritydeficit2020/i.test(String(m.blockage)))
      throw new InputError(`${file}: model.blockage: unknown blockage model '${m.blockage}' (known: self-similarity 2020)`);
    if (!/all2alliterative/i.test(wfm)) throw new InputError(`${file}: model.wind_farm_model: blockage needs All2AllIterative, got '${wfm}'`);
    spec.blockage = 'selfsimilarity2020';
  } else if (!/propagatedownwind/i.test(wfm))
    throw new InputError(`${file}: model.wind_farm_model: only PropagateDownwind (or All2AllIterative with a blockage model) is supported, got '${wfm}'`);
  for (const [key, names] of Object.entries(paramNames)) {
    const v = m[key];
    if (v === undefined || v === null) continue;
    const values = Array.isArray(v) ? numbers(v, file, `model.${key}`) : [num(v, file, `model.${key}`)];
    if (values.length !== names.length) throw new InputError(`${file}: model.${key}: expected ${names.length} number(s)`);
    names.forEach((name, i) => {
      const problem = wakeParameterValueProblem(described.name, name, values[i]);
      if (problem) throw new InputError(`${file}: model.${key}${values.length > 1 ? `[${i}]` : ''}: ${problem}`);
      spec.params![name] = values[i];
    });
  }
  if (m.ct2a !== undefined) {
    if (m.ct2a !== 'mom1d' && m.ct2a !== 'madsen') throw new InputError(`${file}: model.ct2a: expected mom1d or madsen, got '${m.ct2a}'`);
    spec.ct2a = m.ct2a;
  }
  const sup = String(m.superposition ?? 'linear sum');
  if (isLibraryDefault(doc.superposition)) spec.superposition = library.superposition;
  else if (/weighted|momentum[- ]conserving/i.test(sup)) spec.superposition = 'weighted';
  else if (/squared|sqr|square|sos/i.test(sup)) spec.superposition = 'sos';
  else if (/max/i.test(sup)) spec.superposition = 'max';
  else if (/linear/i.test(sup)) spec.superposition = 'linear';
  else throw new InputError(`${file}: model.superposition: unknown rule '${sup}' (linear sum, squared sum, max, weighted sum, library default)`);
  if (isLibraryDefault(doc.turbulence)) {
    /* the model's default (farmModel.ts WAKED_DEFAULTS) */
  } else if (m.turbulence === null || m.turbulence === undefined || /^none$/i.test(String(m.turbulence))) spec.turbulence = 'none';
  else if (/crespo/i.test(String(m.turbulence))) spec.turbulence = 'crespo-hernandez';
  else throw new InputError(`${file}: model.turbulence: unknown model '${m.turbulence}' (Crespo-Hernandez or null)`);
  if (m.crespo_hernandez_c !== undefined) {
    const c = numbers(m.crespo_hernandez_c, file, 'model.crespo_hernandez_c');
    if (c.length !== 4) throw new InputError(`${file}: model.crespo_hernandez_c: expected 4 numbers`);
    spec.turbulenceParams = { c0: c[0], c1: c[1], c2: c[2], c3: c[3] };
  }
  if (m.turbulence_ct2a !== undefined) {
    if (m.turbulence_ct2a !== 'mom1d' && m.turbulence_ct2a !== 'madsen')
      throw new InputError(`${file}: model.turbulence_ct2a: expected mom1d or madsen, got '${m.turbulence_ct2a}'`);
    spec.turbulenceCt2a = m.turbulence_ct2a;
  }
  if (m.added_turbulence_superposition !== undefined) {
    const s = String(m.added_turbulence_superposition);
    spec.turbulenceSuperposition = /max/i.test(s)
      ? 'sqrmax'
      : /squared|sqr/i.test(s)
        ? 'sos'
        : /linear/i.test(s)
          ? 'linear'
          : (() => {
              throw new InputError(`${file}: model.added_turbulence_superposition: unknown rule '${s}'`);
            })();
  }
  const rotor = String(m.rotor_average ?? '');
  if (rotor) {
    if (/cent(re|er)/i.test(rotor)) spec.rotorAverage = 'center';
    else if (/area.?overlap/i.test(rotor)) spec.rotorAverage = 'area-overlap';
    else if (/cgi\D*(4|7|9|21)\b/i.test(rotor)) spec.rotorAverage = `cgi${/cgi\D*(4|7|9|21)\b/i.exec(rotor)![1]}`;
    else if (/eq ?grid/i.test(rotor)) spec.rotorAverage = `eqgrid${/(\d+)/.exec(rotor)?.[1] ?? '4'}`;
    else if (/polar ?grid/i.test(rotor)) spec.rotorAverage = 'polargrid';
    else if (/^grid\b|(^|[^a-z])grid ?rotor ?avg/i.test(rotor.trim())) spec.rotorAverage = 'grid';
    else if (/gq ?grid|gauss quadrature grid/i.test(rotor)) {
      const dims = /(\d+)\D+(\d+)/.exec(rotor);
      spec.rotorAverage = dims ? `gqgrid${dims[1]}x${dims[2]}` : 'gqgrid4x4';
    } else {
      const g = /gauss\w*\s*(\d)/i.exec(rotor);
      if (!g)
        throw new InputError(
          `${file}: model.rotor_average: unsupported '${rotor}' (rotor centre, area overlap, CGI 4/7/9/21, GQ grid NxM, Gauss N, EqGrid N, Grid, PolarGrid)`,
        );
      spec.rotorAverage = `gauss${g[1]}`;
    }
  }
  if (typeof m.use_effective_ws === 'boolean') spec.deficitReference = m.use_effective_ws ? 'source-effective' : 'free-stream';
  if (typeof m.deficit_scaled_by === 'string') {
    spec.deficitReference = /effective/i.test(m.deficit_scaled_by) ? 'source-effective' : 'free-stream';
  }
  if (typeof m.use_effective_ti === 'boolean') spec.useEffectiveTi = m.use_effective_ti;
  if (isLibraryDefault(doc.ground)) {
    if (library.ground && library.ground !== 'none') spec.ground = library.ground;
  } else if (m.ground !== undefined && m.ground !== null && !/^(none|no ?ground)$/i.test(String(m.ground))) {
    // PyWake's ground models: Mirror (an image turbine below the ground) is wflo's `mirror`.
    if (!/^(py_wake\.\S*\.)?mirror(\(\))?$/i.test(String(m.ground).trim()))
      throw new InputError(`${file}: model.ground: unknown ground model '${m.ground}' (known: Mirror, none)`);
    spec.ground = 'mirror';
    // What the solvers' declarations refuse with the ground (blockage, the weighted sum): the solve plan's line.
    const conflict = groundConflict(spec);
    if (conflict) throw new InputError(`${file}: model.ground: ${conflict}`);
  }
  return spec;
}

export function referenceExpectation(doc: Doc, file: string): ReferenceExpectation | undefined {
  if (!isObject(doc.expected)) return undefined;
  const e = doc.expected;
  const out: ReferenceExpectation = {
    aepMwh: num(e.aep_mwh, file, 'expected.aep_mwh'),
    perTurbineMwh: numbers(e.aep_per_turbine_mwh, file, 'expected.aep_per_turbine_mwh'),
  };
  if (e.neighbour_aep_per_turbine_mwh !== undefined)
    out.neighbourMwh = numbers(e.neighbour_aep_per_turbine_mwh, file, 'expected.neighbour_aep_per_turbine_mwh');
  if (e.neighbour_alone_aep_per_turbine_mwh !== undefined) {
    out.neighbourAloneMwh = numbers(e.neighbour_alone_aep_per_turbine_mwh, file, 'expected.neighbour_alone_aep_per_turbine_mwh');
  }
  if (isObject(e.check_condition)) {
    const c = e.check_condition;
    out.checkCondition = {
      windDirection: num(c.wind_direction, file, 'expected.check_condition.wind_direction'),
      windSpeed: num(c.wind_speed, file, 'expected.check_condition.wind_speed'),
      ...(c.turbulence_intensity !== undefined
        ? { turbulenceIntensity: num(c.turbulence_intensity, file, 'expected.check_condition.turbulence_intensity') }
        : {}),
      wsEff: numbers(c.ws_eff, file, 'expected.check_condition.ws_eff'),
      ct: numbers(c.ct, file, 'expected.check_condition.ct'),
    };
  }
  return out;
}

/** Type indices of `count` turbines into a list of `typeCount` models. */
function typeIndices(v: unknown, count: number, typeCount: number, file: string, field: string): Int32Array {
  const t = numbers(v, file, field);
  if (t.length !== count) throw new InputError(`${file}: ${field}: ${t.length} types for ${count} turbines`);
  t.forEach((k, i) => {
    if (!(Number.isInteger(k) && k >= 0 && k < typeCount)) throw new InputError(`${file}: ${field}[${i}]: ${k} is not a type index in [0, ${typeCount - 1}]`);
  });
  return Int32Array.from(t);
}

/**
 * A reference case file as a Case (with the expected AEP as its reference). Errors name the line
 * of their field (`file: turbine.ct_curve.ct[3]: …` becomes `file:14: turbine.ct_curve.ct[3]: …`).
 */
export function caseFromReferenceDocument(doc: unknown, file: string): Case & { expected?: ReferenceExpectation } {
  return withIea37Lines(doc, file, () => referenceCase(doc, file));
}

function referenceCase(doc: unknown, file: string): Case & { expected?: ReferenceExpectation } {
  if (!isReferenceCaseDocument(doc)) throw new InputError(`${file}: not a reference case file (needs turbine or turbines, wind, layout, model)`);
  const d = doc as Doc;
  const types = isObject(d.turbine) ? [referenceTurbine(d.turbine, file)] : (d.turbines as Doc[]).map((t, i) => referenceTurbine(t, file, `turbines[${i}]`));
  const wind = referenceWind(d.wind as Doc, file);
  const layoutDoc = d.layout as Doc;
  const x = numbers(layoutDoc.x, file, 'layout.x'),
    y = numbers(layoutDoc.y, file, 'layout.y');
  if (x.length !== y.length) throw new InputError(`${file}: layout: ${x.length} x but ${y.length} y`);
  const model = referenceModel(d.model as Doc, file);
  if (d.site !== undefined) {
    model.site = readSiteBlock(d.site, doc, ['site'], file);
    const outside = siteLayoutProblem(model.site, x, y);
    if (outside) throw new InputError(`${file}: site.${outside.field}: ${outside.message}`);
  }
  const expected = referenceExpectation(d, file);
  const several = !isObject(d.turbine);
  if (!several && layoutDoc.type !== undefined) throw new InputError(`${file}: layout.type: a file with one \`turbine\` has no types; list \`turbines\``);
  const typeOf = several ? typeIndices(layoutDoc.type, x.length, types.length, file, 'layout.type') : new Int32Array(x.length);
  const c: Case & { expected?: ReferenceExpectation } = {
    name: typeof d.name === 'string' ? d.name : file,
    turbine: types[typeOf.length > 0 ? typeOf[0] : 0],
    wind,
    boundary: null,
    nTurbines: x.length,
    minSpacing: 2 * Math.max(...types.map((t) => t.diameter)),
    model,
    layout: { x, y },
    referenceAepMwh: expected?.aepMwh,
    expected,
  };
  if (several) {
    c.turbines = { types, minSpacingByType: Float64Array.from(types, (t) => 2 * t.diameter), typeOf, choice: false };
  }
  if (d.neighbours !== undefined) {
    const nd = obj(d.neighbours, file, 'neighbours');
    const nx = numbers(nd.x, file, 'neighbours.x'),
      ny = numbers(nd.y, file, 'neighbours.y');
    if (nx.length !== ny.length) throw new InputError(`${file}: neighbours: ${nx.length} x but ${ny.length} y`);
    const nt = nd.type === undefined && !several ? new Int32Array(nx.length) : typeIndices(nd.type, nx.length, types.length, file, 'neighbours.type');
    const many = neighbourCountProblem(nx.length);
    if (many) throw new InputError(`${file}: neighbours.x: ${many}`);
    const box = siteBoxOf(null, { x, y });
    for (let i = 0; i < nx.length; i++) {
      const far = neighbourReachProblem(nx[i], ny[i], box, `neighbour ${i}`);
      if (far) throw new InputError(`${file}: neighbours.x[${i}]: ${far}`);
    }
    c.neighbours = { x: nx, y: ny, types, typeOf: nt };
  }
  const limit = farmConflict(model, { types: several ? types : [c.turbine], neighbours: !!c.neighbours && c.neighbours.x.length > 0, wind });
  // Named at the file's own key (the site is a top-level block; rotor_average the model's key), so the line is found.
  const key = limit?.field === 'site' ? 'site' : limit?.field === 'rotorAverage' ? 'model.rotor_average' : `model.${limit?.field}`;
  if (limit) throw new InputError(`${file}: ${key}: ${limit.message}`);
  return c;
}
