/**
 * An optimized layout as one self-contained wflo case file (the native case format of
 * caseFile.ts): the turbine, the wind resource, the site (boundary, exclusion zones), the turbine
 * count and minimum spacing, the wake model and the layout, all inline, so `wflo aep FILE`,
 * `wflo plot FILE` and a campaign's `case: FILE` read it with nothing beside it; plus a `wflo:`
 * block with how it was made (case, seed, method, settings, AEP, work). Numbers are written in
 * JavaScript's shortest round-trip form, so reading the file back gives the same doubles and the
 * same AEP (`resultReproduces` checks it).
 *
 * A farm of several turbine models is written as `turbines: [{turbine, n, min_spacing_m}]` with the
 * layout in that order (turbines of the first model first: a layout whose models the optimizer chose
 * is reordered by model, keeping the order within a model); neighbours as `neighbours: [{x, y,
 * turbine}]`.
 *
 * The objective the layout was optimized for is `wflo.objective`; a case with economics adds
 * `wflo.economics`: the layout's figures (LCOE, NPV, IRR, cable length and cost, the cost model's
 * items) and its collection network, one edge per turbine in the file's own turbine order:
 * `cable_to` (the next turbine's index, or −1 − s for substation s, as layouts.h5's /cable_to)
 * and `cable_type` (the cable type's name), with the `substations` and `cables` it joins; money in
 * `currency` (EUR for the DTU model).
 */
import { siteDocument } from './siteFields.js';
import { Document, isScalar, isSeq, visit } from 'yaml';
import type { Case } from '../case/case.js';
import type { OptimizationRecord } from '../optimize/runOptimization.js';
import { NO_CUT_OUT, type Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import type { Boundary, Point } from '../geometry/boundary.js';
import { caseEvaluator } from '../optimize/caseEvaluator.js';
import { VERSION } from '../version.js';
import { writeFileAtomic } from './atomicWrite.js';
import { readYamlFile } from './yamlFile.js';
import { caseFromDocument } from './caseFile.js';
import { caseListedWind } from '../optimize/caseDirections.js';
import { directionsDocument, directionsFlag } from './directionsField.js';

export interface LayoutResultInfo {
  /** The case the layout was optimized for (everything the file carries inline). */
  case: Case;
  /** How the case was given (a built-in name or a file path), recorded in `wflo.case`. */
  caseSpec: string;
  seed: number;
  method: string;
  settings: Record<string, unknown>;
  x: Float64Array;
  y: Float64Array;
  aepMwh: number;
  perDirectionMwh: Float64Array;
  aepInitialMwh: number;
  iterations: number;
  evaluations: number;
  wallS: number;
  feasible: boolean;
  maxViolationM: number;
  starts?: number;
  /** Each turbine's model (farms of several models; default the case's assignment). */
  typeOf?: Int32Array;
  /** The objective optimized (`aep`, `lcoe`, `npv`; default the case's or `aep`). */
  objective?: string;
  /** A case with economics: the layout's figures and network (optimize/runOptimization.ts). */
  economics?: ResultEconomics;
  /** More facts for the `wflo:` block (e.g. the campaign task that produced the layout). */
  extra?: Record<string, unknown>;
  /** Header comment lines (without `# `) instead of the `wflo optimize` ones. */
  header?: string[];
}

/** What a result file records of a layout's economics: runOptimization's record (edges: to ≥ n is substation to − n). */
export type ResultEconomics = Omit<NonNullable<OptimizationRecord['economics']>, 'objective'>;

/**
 * The `wflo.economics` block: the figures (money in `currency`), the network per turbine of the
 * file's order (`position[i]`: where turbine i is written), and the substations and cable catalogue
 * the network joins (what `wflo plot FILE` needs to draw it; the case's economics are not part of the
 * file's case).
 */
function economicsBlock(e: ResultEconomics, position: (i: number) => number, c: Case): Record<string, unknown> {
  const n = e.cable_edges.length;
  const cableTo = new Array<number>(n).fill(0),
    cableType = new Array<string>(n).fill('');
  for (const edge of e.cable_edges) {
    const k = position(edge.from);
    cableTo[k] = edge.to < n ? position(edge.to) : -1 - (edge.to - n);
    cableType[k] = edge.type;
  }
  return {
    value: e.value,
    value_initial: e.value_initial,
    lcoe_per_mwh: e.lcoe,
    npv: e.npv,
    irr: e.irr,
    aep_mwh: e.aep_mwh,
    cable_length_m: e.cable_length_m,
    cable_cost: e.cable_cost,
    cost_model: e.cost_model,
    currency: e.currency,
    cost_breakdown: { ...e.cost_breakdown },
    cable_to: cableTo,
    cable_type: cableType,
    ...(c.economics
      ? {
          substations: c.economics.substations.map(([sx, sy]) => [sx, sy]),
          cables: c.economics.cables.map((k) => ({ name: k.name, capacity: k.capacity, cost_per_m: k.costPerMetre })),
        }
      : {}),
  };
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));
const points = (pts: readonly Point[]) => pts.map(([px, py]) => [px, py]);

/** A turbine in the native turbine shape (windIO names). */
export function nativeTurbine(t: Turbine): Record<string, unknown> {
  // A table held beyond its ends has no cut speeds (NO_CUT_OUT): written as beyond_table: hold.
  const performance: Record<string, unknown> =
    t.cutOut === NO_CUT_OUT && t.cutIn === 0 && t.power.kind === 'table'
      ? { rated_power: t.ratedPowerW, beyond_table: 'hold' }
      : { rated_power: t.ratedPowerW, cutin_wind_speed: t.cutIn, cutout_wind_speed: t.cutOut };
  if (t.power.kind === 'cubic') performance.rated_wind_speed = t.power.ratedSpeed;
  else performance.power_curve = { power_wind_speeds: Array.from(t.power.speeds), power_values: Array.from(t.power.powerW) };
  if (t.thrust.kind === 'constant') performance.Ct = t.thrust.ct;
  else performance.Ct_curve = { Ct_wind_speeds: Array.from(t.thrust.speeds), Ct_values: Array.from(t.thrust.ct) };
  return { name: t.name, rotor_diameter: t.diameter, hub_height: t.hubHeight, performance };
}

/**
 * A wind resource as its probability table (directions × speeds, with a turbulence table when it
 * has one per bin), or a time series as its columns (the weights as normalised, which read back
 * unchanged): either reads back bit for bit.
 */
export function nativeWind(w: WindResource): Record<string, unknown> {
  const s = w.series;
  if (s) {
    const equal = s.weights.every((v) => v === 1 / s.weights.length);
    return {
      time_series: {
        wind_direction: Array.from(s.directionsDeg),
        wind_speed: Array.from(s.speeds),
        ...(s.turbulenceIntensity ? { turbulence_intensity: Array.from(s.turbulenceIntensity) } : {}),
        ...(equal ? {} : { weight: Array.from(s.weights) }),
      },
      ...(s.turbulenceIntensity ? {} : { turbulence_intensity: w.turbulenceIntensity }),
    };
  }
  const ns = w.speeds.length;
  const table = (v: Float64Array) => Array.from(w.directionsDeg, (_, d) => Array.from(v.subarray(d * ns, (d + 1) * ns)));
  return {
    wind_direction: Array.from(w.directionsDeg),
    wind_speed: Array.from(w.speeds),
    probability: table(w.probability),
    turbulence_intensity: w.turbulenceIntensityByBin ? table(w.turbulenceIntensityByBin) : w.turbulenceIntensity,
  };
}

export function nativeBoundary(b: Boundary): Record<string, unknown> {
  const out: Record<string, unknown> =
    b.kind === 'circle'
      ? { circle: { center: [b.center[0], b.center[1]], radius: b.radius } }
      : b.kind === 'polygon'
        ? { polygon: points(b.vertices) }
        : { polygons: b.polygons.map(points) };
  if (b.exclusions && b.exclusions.length > 0) out.exclusions = b.exclusions.map((z) => ({ name: z.name, polygon: points(z.vertices) }));
  return out;
}

/** The models of a farm of several as `turbines: [{turbine, n, min_spacing_m}]`, and the layout's order that fits them. */
function modelsAndOrder(c: Case, n: number, typeOf: Int32Array | undefined): { turbines: Record<string, unknown>[]; order: number[] } | null {
  if (!c.turbines) return null;
  const types = typeOf ?? c.turbines.typeOf;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => types[a]! - types[b]! || a - b);
  const turbines = c.turbines.types
    .map((t, k) => ({ turbine: nativeTurbine(t), n: types.filter((v) => v === k).length, min_spacing_m: c.turbines!.minSpacingByType[k] }))
    .filter((e) => e.n > 0);
  return { turbines, order };
}

export function layoutResultYaml(r: LayoutResultInfo): string {
  const c = r.case;
  const several = modelsAndOrder(c, r.x.length, r.typeOf);
  const x = several ? Float64Array.from(several.order, (i) => r.x[i]!) : r.x;
  const y = several ? Float64Array.from(several.order, (i) => r.y[i]!) : r.y;
  const positionOf = new Int32Array(r.x.length);
  for (let k = 0; k < r.x.length; k++) positionOf[several ? several.order[k]! : k] = k;
  const nb = c.neighbours;
  const doc: Record<string, unknown> = {
    name: c.name,
    ...(several ? { turbines: several.turbines } : { turbine: nativeTurbine(c.turbine) }),
    ...(nb && nb.x.length > 0 ? { neighbours: Array.from(nb.x, (nx, j) => ({ x: nx, y: nb.y[j], turbine: nativeTurbine(nb.types[nb.typeOf[j]!]!) })) } : {}),
    // The rose as listed and its treatment (the treated wind is made again when the file is read).
    wind: nativeWind(caseListedWind(c)),
    ...(c.directions ? { directions: directionsDocument(c.directions.treatment) } : {}),
    ...(c.boundary ? { boundary: nativeBoundary(c.boundary) } : {}),
    ...(several ? {} : { n_turbines: r.x.length, min_spacing_m: c.minSpacing }),
    wake_model: c.model.wake,
    superposition: c.model.superposition,
    ...(c.model.params && Object.keys(c.model.params).length > 0 ? { wake_params: { ...c.model.params } } : {}),
    ...(c.model.blockage ? { blockage: c.model.blockage } : {}),
    ...(c.model.ground && c.model.ground !== 'none' ? { ground: c.model.ground } : {}),
    ...(c.model.site ? { site: siteDocument(c.model.site) } : {}),
    // Full double precision: the file must reproduce the AEP and feasibility exactly.
    layout: { x: Array.from(x), y: Array.from(y) },
    wflo: {
      version: VERSION,
      case: r.caseSpec,
      seed: r.seed,
      method: r.method,
      settings: r.settings,
      aep_mwh: r.aepMwh,
      aep_by_direction_mwh: Array.from(r.perDirectionMwh, (v) => round(v, 5)),
      aep_initial_mwh: r.aepInitialMwh,
      iterations: r.iterations,
      evaluations: r.evaluations,
      wall_s: round(r.wallS, 3),
      feasible: r.feasible,
      max_violation_m: r.maxViolationM,
      ...(r.starts !== undefined ? { starts: r.starts } : {}),
      objective: r.objective ?? c.objective ?? 'aep',
      ...(r.economics ? { economics: economicsBlock(r.economics, (i) => positionOf[i]!, c) } : {}),
      ...(r.extra ?? {}),
    },
  };
  const yaml = new Document(doc);
  // Lists of numbers on one line each (a 360 × 20 probability table is 360 lines, not 7 560).
  visit(yaml, {
    Seq: (_, node) => {
      if (isSeq(node) && node.items.every((i) => isScalar(i))) node.flow = true;
    },
  });
  const header = r.header
    ? r.header.map((l) => `# ${l}`)
    : [
        `# Written by \`wflo optimize\` (wflo ${VERSION}): ${r.x.length} turbines optimized for ${r.caseSpec}, seed ${r.seed},`,
        `# AEP ${r.aepMwh.toFixed(5)} MWh (${r.method}${c.directions ? `; directions ${directionsFlag(c.directions.treatment)}, not the bins as listed` : ''}). A complete wflo case file: turbine, wind, site, wake model and the`,
        '# layout are all here, so `wflo aep FILE` and `wflo plot FILE` need nothing else; `wflo:` says how it was made.',
      ];
  return `${header.join('\n')}\n${yaml.toString({ lineWidth: 0, flowCollectionPadding: false })}`;
}

export function writeLayoutResult(file: string, r: LayoutResultInfo): void {
  writeFileAtomic(file, layoutResultYaml(r));
}

/**
 * Whether the written file gives back the AEP of the optimization: null if so, else what differs
 * (a case the native format cannot carry in full, e.g. a model setting only a windIO analysis
 * block or a reference case gives).
 */
export function resultReproduces(file: string, aepMwh: number): string | null {
  const c = caseFromDocument(readYamlFile(file), file);
  const aep = caseEvaluator(c).aep(c.layout!.x, c.layout!.y).aepMwh;
  // A layout reordered by model sums its turbines in another order: equal to the last bits.
  const equal = c.turbines ? Math.abs(aep - aepMwh) <= 1e-12 * Math.abs(aepMwh) : aep === aepMwh;
  return equal ? null : `${file} gives AEP ${aep} MWh, the optimization ${aepMwh} MWh`;
}
