/**
 * The analysis block of a windIO `wind_energy_system` → wflo's farm model (FarmModelSpec).
 *
 * Where: `attributes.analyses` (windIO 1.x, the published IEA37 examples) or
 * `attributes.analysis` (windIO 2 / WIFA). The deficit model is `wake_model` or
 * `wind_deficit_model` with a `name` (free text in the 1.x examples, e.g. "Bastankhah’s Gaussian
 * wake model (simplified version)"); names are matched after lower-casing and dropping everything
 * but letters and digits, through the alias table below. A name that maps to no model wflo has is
 * one InputError line listing the models it has.
 *
 * Parameters next to the name: any numeric key the model has (`k`, `ceps`, `A`, …);
 * `wake_expansion_coefficient {k_a, k_b}` (k = k_a·TI + k_b) → the model's `a1`, `a2` when it has
 * them (Niayifar, Zong), else `k = k_b` (k_a must be 0); `free_stream_ti` → useEffectiveTi = not it;
 * `use_effective_ws` → the deficit reference speed. Anything else is an error, never dropped.
 *
 * Other blocks: `superposition_model` (`name`, or `ws_superposition` + `ti_superposition`),
 * `axial_induction_model` (1D → mom1d, Madsen → madsen), `turbulence_model` (CrespoHernandez or
 * none, numeric c0…c3), `rotor_averaging` (`name` or `grid`: center, area-overlap, CGI → cgi4,
 * gaussN), `blockage_model` (SelfSimilarityDeficit2020 → the self-similarity 2020 induction model;
 * another blockage model is an error). `deflection_model` other than none is an error (no yaw).
 * `flow_model` (which tool computed the file's numbers) and `outputs` are ignored.
 *
 * The IEA37 simplified Bastankhah model (its IEA37 spellings) is the case studies' complete
 * recipe: k = 0.0324555, CT = 8/9 for every turbine and speed, free-stream engine
 * (iea37-wakemodel.pdf). windIO's cs3/cs4 examples give the 10 MW turbine's real Ct curve, yet
 * state the case-study AEP, so that name also fixes the thrust to 8/9 (`fixedThrust`).
 */
import { SUPERPOSITION_NAMES, wakeModelOf, type FarmModelSpec, type SuperpositionName, type WakeModelName } from '../../physics/farmModel.js';
import { deficitModelBySpelling, deficitModelNames } from '../../physics/wake/registry.js';
import { wakeParameterNames } from '../../physics/modelParameters.js';
import type { TurbulenceSuperpositionName } from '../../physics/turbulence/crespoHernandez.js';
import { wakeParameterValueProblem } from '../wakeParams.js';
import type { WindioNode } from './windioTree.js';

/** The IEA37 case studies' thrust coefficient (iea37-wakemodel.pdf). */
export const IEA37_CT = 8 / 9;

const normalize = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]/g, '');

/** Normalized spellings of the self-similarity 2020 induction model (PyWake's class name and short forms). */
const BLOCKAGE_ALIASES = new Set(['selfsimilaritydeficit2020', 'selfsimilarity2020', 'selfsimilar2020', 'troldborgmeyerforsting2020']);
/** Spellings that mean the IEA37 case-study recipe (fixed Ct = 8/9, free-stream engine). */
const IEA37_RECIPE = new Set((deficitModelBySpelling('iea37')?.aliases ?? []).map(normalize));

const SUPERPOSITION_ALIASES: Readonly<Record<string, SuperpositionName>> = {
  squared: 'sos',
  squaredsum: 'sos',
  sos: 'sos',
  rss: 'sos',
  rootsumsquare: 'sos',
  sumofsquares: 'sos',
  quadratic: 'sos',
  linear: 'linear',
  linearsum: 'linear',
  sum: 'linear',
  max: 'max',
  maxsum: 'max',
  maximum: 'max',
};
const TI_SUPERPOSITION_ALIASES: Readonly<Record<string, TurbulenceSuperpositionName>> = {
  squared: 'sos',
  squaredsum: 'sos',
  sos: 'sos',
  rss: 'sos',
  quadratic: 'sos',
  linear: 'linear',
  linearsum: 'linear',
  sum: 'linear',
  sqrmax: 'sqrmax',
  sqrmaxsum: 'sqrmax',
  max: 'sqrmax',
  maxsum: 'sqrmax',
};
const NONE_NAMES = new Set(['none', 'null', 'no', 'off', 'false', '']);
const ROTOR_CENTER = new Set(['center', 'centre', 'rotorcenter', 'rotorcentre', 'none', 'hub', 'point']);

export interface AnalysisModel {
  model: FarmModelSpec;
  /** Set when the named model fixes the thrust coefficient (the IEA37 simplified model: 8/9). */
  fixedThrust?: number;
}

/** The model when a file has no analysis block: wflo's default (iea37 kernel, turbine's own Ct, sos). */
export const DEFAULT_ANALYSIS: AnalysisModel = { model: { wake: 'iea37', superposition: 'sos' } };

/** The `name` of a block given as `{name: X}` or as a bare `X`; null when absent or empty. */
function nameOf(node: WindioNode, key = 'name'): { name: string; at: WindioNode } | null {
  if (!node.exists || node.scalar === null) return null;
  if (node.isScalar) return { name: String(node.scalar).trim(), at: node };
  const n = node.get(key);
  return n.exists && n.scalar !== null && n.isScalar ? { name: String(n.scalar).trim(), at: n } : null;
}

/** The analysis node of a wind_energy_system (absent node when there is none). */
export function analysisNode(system: WindioNode): WindioNode {
  const attributes = system.get('attributes');
  const v1 = attributes.get('analyses');
  return v1.exists ? v1 : attributes.get('analysis');
}

function wakeName(nameNode: WindioNode, rawName: string): WakeModelName {
  const found = deficitModelBySpelling(rawName);
  if (!found) nameNode.fail(`unknown/unsupported wake model '${rawName}' (known: ${deficitModelNames().join(', ')}; windIO spellings in docs/windio.md)`);
  return found.name;
}

function readDeficitParameters(wakeNode: WindioNode, wake: WakeModelName, model: FarmModelSpec): void {
  if (!wakeNode.isMap) return;
  const known = wakeParameterNames(wake);
  const params: Record<string, number> = {};
  for (const key of wakeNode.keys()) {
    if (key === 'name') continue;
    const v = wakeNode.get(key);
    if (key === 'wake_expansion_coefficient') {
      const kaNode = v.get('k_a'),
        kbNode = v.get('k_b');
      const ka = kaNode.exists ? kaNode.number('a number (k = k_a·TI + k_b)') : 0;
      const kb = kbNode.exists ? kbNode.number('a number (k = k_a·TI + k_b)') : undefined;
      const expansion = wakeModelOf(wake).windioExpansion;
      if (expansion && expansion.ka !== null) {
        params[expansion.ka] = ka;
        if (kb !== undefined) params[expansion.kb] = kb;
        const kaProblem = wakeParameterValueProblem(wake, expansion.ka, ka);
        const problem = kaProblem ?? (kb !== undefined ? wakeParameterValueProblem(wake, expansion.kb, kb) : null);
        if (problem) (kaProblem ? kaNode : kbNode).fail(problem);
      } else if (expansion) {
        if (ka !== 0) kaNode.fail(`${wake} has a constant wake expansion ${expansion.kb}: k_a must be 0, got ${ka}`);
        if (kb !== undefined) params[expansion.kb] = kb;
        const problem = kb !== undefined ? wakeParameterValueProblem(wake, expansion.kb, kb) : null;
        if (problem) kbNode.fail(problem);
      } else {
        v.fail(`${wake} has no wake expansion coefficient k (its parameters: ${known.join(', ')})`);
      }
      const fst = v.get('free_stream_ti');
      if (fst.exists) {
        if (typeof fst.scalar !== 'boolean') fst.fail('expected true or false');
        if (ka !== 0) model.useEffectiveTi = !fst.scalar;
      }
    } else if (key === 'use_effective_ws') {
      if (typeof v.scalar !== 'boolean') v.fail('expected true or false');
      model.deficitReference = v.scalar ? 'source-effective' : 'free-stream';
    } else if (key === 'use_effective_ti') {
      if (typeof v.scalar !== 'boolean') v.fail('expected true or false');
      model.useEffectiveTi = v.scalar as boolean;
    } else if (known.includes(key)) {
      params[key] = v.number(`a number for ${wake} parameter ${key}`);
      const problem = wakeParameterValueProblem(wake, key, params[key]);
      if (problem) v.fail(problem);
    } else {
      v.fail(`parameter '${key}' is not one of ${wake}'s (${known.join(', ') || 'none'}; or wake_expansion_coefficient, use_effective_ws)`);
    }
  }
  if (Object.keys(params).length > 0) model.params = params;
}

function readSuperposition(node: WindioNode, model: FarmModelSpec): void {
  if (!node.exists) return;
  const ws = nameOf(node, node.get('ws_superposition').exists ? 'ws_superposition' : 'name');
  if (ws) {
    const s = SUPERPOSITION_ALIASES[normalize(ws.name)] ?? normalize(ws.name);
    if (!(SUPERPOSITION_NAMES as readonly string[]).includes(s)) {
      ws.at.fail(`unknown superposition '${ws.name}' (known: ${SUPERPOSITION_NAMES.join(', ')}; windIO spellings Squared, Linear, Max)`);
    }
    model.superposition = s as SuperpositionName;
  }
  const ti = node.isMap ? nameOf(node, 'ti_superposition') : null;
  if (ti) {
    const s = TI_SUPERPOSITION_ALIASES[normalize(ti.name)];
    if (!s) ti.at.fail(`unknown turbulence superposition '${ti.name}' (known: Squared, Linear, SqrMaxSum)`);
    model.turbulenceSuperposition = s;
  }
}

function readTurbulence(node: WindioNode, model: FarmModelSpec): void {
  const n = nameOf(node);
  if (!n) return;
  const key = normalize(n.name);
  if (NONE_NAMES.has(key)) model.turbulence = 'none';
  else if (key === 'crespohernandez' || key === 'crespohernandez1996' || key === 'crespo') model.turbulence = 'crespo-hernandez';
  else n.at.fail(`'${n.name}' is not supported (wflo's added-turbulence models: none, CrespoHernandez)`);
  if (node.isMap) {
    const params: Record<string, number> = {};
    for (const key of node.keys()) {
      if (key === 'name') continue;
      if (!['c0', 'c1', 'c2', 'c3'].includes(key)) node.get(key).fail(`parameter '${key}' is not one of CrespoHernandez's (c0, c1, c2, c3)`);
      params[key] = node.get(key).number(`a number for ${key}`);
    }
    if (Object.keys(params).length > 0) model.turbulenceParams = params;
  }
}

/**
 * windIO's `rotor_averaging`: `name` (or, in older files, `grid`) with the grid sizes
 * `n_x_grid_points`/`n_y_grid_points` or `n`, spelled as the windIO → PyWake reader (WIFA) spells
 * them: center, avg_deficit (PyWake's GridRotorAvg()), eqgrid (EqGridRotorAvg(n), n default 4),
 * gqgrid (GQGridRotorAvg(n_x, n_y), default 4 × 4), polargrid (PolarGridRotorAvg()), cgi
 * (CGIRotorAvg(n), n 4, 7, 9 or 21, default 4); and wflo's own: area_overlap, gauss2…gauss8.
 */
function readRotorAveraging(node: WindioNode, model: FarmModelSpec): void {
  const n = nameOf(node) ?? nameOf(node, 'grid');
  if (!n) return;
  const key = normalize(n.name);
  const count = (k: string, fallback: number, ok: (v: number) => boolean, what: string): number => {
    const v = node.isMap ? node.get(k) : null;
    if (!v?.exists) return fallback;
    const x = v.number(what);
    if (!Number.isInteger(x) || !ok(x)) v.fail(`${x} is not ${what}`);
    return x;
  };
  /** `n`, or n_x_grid_points = n_y_grid_points (a square grid), or `fallback`. */
  const square = (fallback: number, ok: (v: number) => boolean, what: string): number => {
    const nx = count('n_x_grid_points', NaN, ok, what),
      ny = count('n_y_grid_points', NaN, ok, what);
    if (!Number.isNaN(nx) && !Number.isNaN(ny) && nx !== ny)
      node.get('n_y_grid_points').fail(`${ny} differs from n_x_grid_points ${nx}: '${n.name}' is a square grid (use gqgrid for N × M)`);
    return count('n', Number.isNaN(nx) ? (Number.isNaN(ny) ? fallback : ny) : nx, ok, what);
  };
  const gauss = /^gauss(?:ian)?(?:legendre)?([2-8])$/.exec(key);
  const named = /^(eqgrid|cgi|gqgrid)(\d+)$/.exec(key);
  if (ROTOR_CENTER.has(key)) model.rotorAverage = 'center';
  else if (key === 'areaoverlap' || key === 'areaoverlapaveraging') model.rotorAverage = 'area-overlap';
  else if (key === 'avgdeficit' || key === 'gridrotoravg' || key === 'grid') {
    const sized = node.isMap ? ['n', 'n_x_grid_points', 'n_y_grid_points'].find((k) => node.get(k).exists) : undefined;
    if (sized)
      node
        .get(sized)
        .fail(
          `'${n.name}' with ${sized} is ambiguous: name eqgrid (PyWake's EqGridRotorAvg(n)) or gqgrid (GQGridRotorAvg(n_x, n_y)); '${n.name}' alone is PyWake's GridRotorAvg() (4 points at ±1/3)`,
        );
    model.rotorAverage = 'grid';
  } else if (key === 'polargrid' || key === 'polargridrotoravg') model.rotorAverage = 'polargrid';
  else if (key === 'eqgrid' || key === 'eqgridrotoravg' || named?.[1] === 'eqgrid') {
    model.rotorAverage = `eqgrid${named ? Number(named[2]) : square(4, (v) => v >= 1 && v <= 20, 'a whole number of grid points from 1 to 20')}`;
  } else if (key === 'gqgrid' || key === 'gqgridrotoravg') {
    const ok = (v: number) => v >= 1 && v <= 20,
      what = 'a whole number of grid points from 1 to 20';
    const side = count('n', 4, ok, what);
    model.rotorAverage = `gqgrid${count('n_x_grid_points', side, ok, what)}x${count('n_y_grid_points', side, ok, what)}`;
  } else if (key === 'cgi' || key === 'cgirotoravg' || named?.[1] === 'cgi') {
    const points = named ? Number(named[2]) : count('n', 4, (v) => [4, 7, 9, 21].includes(v), 'a CGI rule (4, 7, 9 or 21 points)');
    if (![4, 7, 9, 21].includes(points)) n.at.fail(`'${n.name}': CGI rules have 4, 7, 9 or 21 points`);
    model.rotorAverage = `cgi${points}`;
  } else if (gauss) model.rotorAverage = `gauss${gauss[1]}`;
  else n.at.fail(`'${n.name}' is not supported (wflo's rotor averages: center, avg_deficit, eqgrid, gqgrid, polargrid, CGI, area_overlap, gauss2…gauss8)`);
}

export function readAnalysisModel(analysis: WindioNode): AnalysisModel {
  if (!analysis.exists) return DEFAULT_ANALYSIS;
  const deflection = nameOf(analysis.get('deflection_model'));
  if (deflection && !NONE_NAMES.has(normalize(deflection.name)))
    deflection.at.fail(`'${deflection.name}' is not supported: wflo has no wake deflection (no yaw)`);
  let blockage: FarmModelSpec['blockage'];
  for (const key of ['blockage_model', 'blockage']) {
    const n = nameOf(analysis.get(key));
    if (!n || NONE_NAMES.has(normalize(n.name))) continue;
    if (!BLOCKAGE_ALIASES.has(normalize(n.name)))
      n.at.fail(`'${n.name}' is not supported: wflo's blockage model is the self-similarity 2020 fit (SelfSimilarityDeficit2020)`);
    blockage = 'selfsimilarity2020';
  }
  const wakeNode = analysis.get('wake_model').exists ? analysis.get('wake_model') : analysis.get('wind_deficit_model');
  const model: FarmModelSpec = { ...DEFAULT_ANALYSIS.model };
  let fixedThrust: number | undefined;
  if (wakeNode.exists) {
    const nameNode = wakeNode.isScalar ? wakeNode : wakeNode.require('name', 'the wake model');
    const rawName = String(nameNode.scalar ?? '').trim();
    model.wake = wakeName(nameNode, rawName);
    readDeficitParameters(wakeNode, model.wake, model);
    if (IEA37_RECIPE.has(normalize(rawName))) {
      fixedThrust = IEA37_CT;
      model.inflow = 'free-stream';
    }
  }
  readSuperposition(analysis.get('superposition_model'), model);
  const induction = nameOf(analysis.get('axial_induction_model'));
  if (induction) {
    const key = normalize(induction.name);
    if (key === '1d' || key === 'mom1d' || key === 'momentum1d') model.ct2a = 'mom1d';
    else if (key === 'madsen') model.ct2a = 'madsen';
    else induction.at.fail(`'${induction.name}' is not supported (known: 1D, Madsen)`);
  }
  readTurbulence(analysis.get('turbulence_model'), model);
  readRotorAveraging(analysis.get('rotor_averaging'), model);
  if (blockage) model.blockage = blockage;
  return fixedThrust !== undefined ? { model, fixedThrust } : { model };
}
