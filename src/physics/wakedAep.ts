/**
 * AEP with the waked-inflow solve (PyWake's PropagateDownwind engineering model) and its exact
 * reverse-mode gradient with respect to every turbine coordinate.
 *
 * For each wind direction the layout is rotated into the wind frame (as in aep.ts) and the
 * turbines are sorted by downstream distance. For each speed U with probability p, turbines are
 * solved in that order; turbine j sees
 *
 *   u_j  = U − S_i( r_i · δ_i(dx_ij, dy_ij; Ct_i, TI_i) )       over the turbines i before j
 *   TI_j = TI₀ ⊕ added turbulence I₊_ij                          (turbulence/crespoHernandez.ts)
 *   Ct_j = Ct(u_j),   P_j = P(u_j)
 *
 * with δ the deficit model (wake/localWake.ts) averaged over the target rotor (rotor/), S the
 * superposition rule applied to deficits in m/s, and r_i the reference speed (U, or the source's
 * own u_i for `source-effective`). With `free-stream` inflow Ct_i = Ct(U), r_i = U and TI_i = TI₀.
 *
 *   AEP = 8760 h · 1e-6 · Σ_d Σ_s p_ds Σ_j P(u_j)    [MWh]
 *
 * Gradient (written by hand): the forward pass keeps, per candidate pair, δ and its partials with
 * respect to dx, dy, Ct_i, TI_i (and the same for the added turbulence); the backward pass visits
 * the turbines in reverse order, so that when turbine i is reached every turbine it wakes has
 * already pushed ∂E/∂δ_ij into i's adjoints ū_i, C̄t_i, T̄I_i, and closes i with
 * ū_i += C̄t_i · Ct′(u_i) before propagating ū_i to i's own sources. Memory: O(N²) for one
 * direction and speed at a time.
 *
 * Pairs beyond a model's reach (the Gaussian exponent below −40, outside a top-hat) are skipped
 * inside the kernels; `pairEvaluations` counts the kernel calls actually made.
 *
 * Several turbine types (turbineMix.ts): the setup holds one wake model per (source type, target
 * type) pair, built with the source's diameter and the target's rotor radius; each turbine's Ct
 * and power come from its own type's curves. Hub heights enter as PyWake's: a pair's crosswind
 * distance is cw = √(dy² + dz²) with dz = h_target − h_source (rotor points offset both). Turbines
 * past `mix.own` are fixed neighbours: they see and cast wakes like any other, but their power is
 * not part of the AEP (it is reported per neighbour) and they seed no adjoint. With one type and
 * no neighbours every operation is the one-type engine's, so its results are bit-identical.
 */
import { powerAt, powerSlopeAt, thrustCoefficientAt, thrustSlopeAt, type Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import { WAKED_DEFAULTS, type FarmModelSpec } from './farmModel.js';
import type { Superposition } from './superposition/superposition.js';
import { SUPERPOSITIONS } from './superposition/registry.js';
import { LOCAL_WAKE_MODELS } from './wake/localRegistry.js';
import type { LocalWakeModel } from './wake/localWake.js';
import { CrespoHernandez, type TurbulenceSuperpositionName } from './turbulence/crespoHernandez.js';
import { rotorPoints, type RotorPoints } from './rotor/rotorPoints.js';
import { GaussianLocalWake } from './wake/gaussianLocal.js';
import type { TurbineMix } from './turbineMix.js';
import { allocateByDirection, defaultKernel, sumByDirection, type IsaChoice, type KernelChoice } from './nativeKernel.js';
import { createNativeWakedRunner } from './wakedNative.js';
import { evaluateWeightedSum, type WeightedSumSetup } from './superposition/weightedSum.js';
import { weightedSumGradient } from './superposition/weightedSumGradient.js';
import { InputError } from '../util/errors.js';
import { windConditions, type WindConditions } from './windConditions.js';

const MADSEN = [0.2460, 0.0586, 0.0883];


/** Everything about a waked evaluation that does not depend on the layout. */
export interface WakedSetup {
  /** The first (with one type, the only) turbine type. */
  turbine: Turbine;
  /** Turbine types a TurbineMix indexes (length T ≥ 1). */
  types: readonly Turbine[];
  wind: WindResource;
  /** The model of type 0 waking type 0. */
  model: LocalWakeModel;
  /** Wake model of source type a on target type b at [a·T + b]. */
  pairModels: LocalWakeModel[];
  superposition: Superposition;
  turbulence: CrespoHernandez | null;
  /** Added turbulence of source type a on target type b at [a·T + b] (null without a turbulence model). */
  pairTurbulence: CrespoHernandez[] | null;
  turbulenceSuperposition: TurbulenceSuperpositionName;
  referenceIsEffective: boolean;
  useEffectiveTi: boolean;
  freeStream: boolean;
  points: RotorPoints | null;
  /** 1/ξ for wake expansion continuation (crosswind distances divided by ξ, as PyWake's `wec`). */
  invWec: number;
  /** The ground as a mirror: each pair's deficit also from the source's image below the ground (farmModel.ts `ground`). */
  mirror: boolean;
  /** Performance hint, not a result input: the largest effective TI seen so far, times 1.05. */
  hint: { tiCap: number };
  /** Largest thrust coefficient of any type (bounds every wake's reach), and by type. */
  ctMax: number;
  ctMaxByType: Float64Array;
  cosByDir: Float64Array;
  sinByDir: Float64Array;
  /** The directions and (speed, weight, TI) conditions visited (windConditions.ts); cos/sinByDir are by its directions. */
  conditions: WindConditions;
}

export function wakedSetup(turbines: Turbine | readonly Turbine[], wind: WindResource, spec: FarmModelSpec): WakedSetup {
  const types: readonly Turbine[] = Array.isArray(turbines) ? turbines : [turbines as Turbine];
  if (types.length === 0) throw new Error('a waked setup needs at least one turbine type');
  const turbine = types[0];
  const T = types.length;
  const defaults = WAKED_DEFAULTS[spec.wake];
  const factory = LOCAL_WAKE_MODELS[spec.wake];
  const superposition = SUPERPOSITIONS[spec.superposition];
  if (!factory || !defaults) throw new Error(`unknown wake model '${spec.wake}'`);
  if (!superposition) throw new Error(`unknown superposition '${spec.superposition}'`);
  const rotorAverage = spec.rotorAverage ?? defaults.rotorAverage;
  const areaOverlap = rotorAverage === 'area-overlap';
  const pairModels: LocalWakeModel[] = [];
  for (const source of types) {
    for (const target of types) {
      pairModels.push(factory.create({
        params: spec.params ?? {}, diameter: source.diameter, targetRadius: target.diameter / 2,
        induction: spec.ct2a ?? defaults.ct2a, areaOverlap,
      }));
    }
  }
  const model = pairModels[0];
  if (areaOverlap && !model.averagesOverRotor) {
    throw new Error(`rotor average 'area-overlap' needs a top-hat wake model (jensen), not '${spec.wake}'`);
  }
  const turbulenceName = spec.turbulence ?? defaults.turbulence;
  const pairTurbulence = turbulenceName === 'crespo-hernandez'
    ? types.flatMap((source) => types.map((target) =>
      new CrespoHernandez({ ...defaults.turbulenceParams, ...spec.turbulenceParams }, spec.turbulenceCt2a ?? 'mom1d', source.diameter, target.diameter / 2, true)))
    : null;
  const turbulence = pairTurbulence ? pairTurbulence[0] : null;
  const ctMaxByType = Float64Array.from(types, (t) => t.thrust.kind === 'constant' ? t.thrust.ct : Math.max(...t.thrust.ct));
  const conditions = windConditions(wind);
  const nDir = conditions.directionsDeg.length;
  const cosByDir = new Float64Array(nDir), sinByDir = new Float64Array(nDir);
  for (let d = 0; d < nDir; d++) {
    const theta = ((270 - conditions.directionsDeg[d]) * Math.PI) / 180;
    cosByDir[d] = Math.cos(theta);
    sinByDir[d] = Math.sin(theta);
  }
  const freeStream = spec.inflow === 'free-stream';
  return {
    turbine, types, wind, model, pairModels, superposition, turbulence, pairTurbulence,
    turbulenceSuperposition: spec.turbulenceSuperposition ?? 'sqrmax',
    referenceIsEffective: !freeStream && (spec.deficitReference ?? defaults.deficitReference) === 'source-effective',
    useEffectiveTi: !freeStream && (spec.useEffectiveTi ?? defaults.useEffectiveTi),
    freeStream,
    points: areaOverlap ? null : rotorPoints(rotorAverage),
    invWec: 1 / (spec.params?.wec ?? 1),
    mirror: (spec.ground ?? 'none') === 'mirror',
    hint: { tiCap: Infinity },
    ctMax: Math.max(...ctMaxByType), ctMaxByType,
    cosByDir, sinByDir, conditions,
  };
}

/** Scratch memory for one layout size; holds nothing between calls. */
export interface Workspace {
  n: number;
  xs: Float64Array; ys: Float64Array; order: Int32Array;
  candStart: Int32Array; candSrc: Int32Array; candDx: Float64Array; candDy: Float64Array;
  // By position in downstream order, for the current speed.
  u: Float64Array; ti: Float64Array; ct: Float64Array; total: Float64Array; tiAcc: Float64Array; tiArg: Int32Array;
  coef: Float64Array;
  // By candidate pair: deficit (m/s), fraction and partials; added turbulence and partials.
  /** Per candidate pair e, interleaved for locality: [5e] δ, [5e+1] ∂δ/∂dx, [5e+2] ∂δ/∂dy, [5e+3] ∂δ/∂Ct, [5e+4] ∂δ/∂TI. */
  pair: Float64Array;
  tAdd: Float64Array; tDx: Float64Array; tDy: Float64Array; tCt: Float64Array; tTi: Float64Array;
  uBar: Float64Array; ctBar: Float64Array; tiBar: Float64Array; gxw: Float64Array; gyw: Float64Array;
  g: Float64Array; gt: Float64Array;
  /** Added-turbulence bound factors: c₀a^c₁ by position, (dx/D)^c₃ by candidate pair. */
  tSrc: Float64Array; pDxPow: Float64Array;
  /** Several types: type by position, h_target − h_source by candidate pair, D²/8 of the source by position. */
  typeAt: Int32Array; candDz: Float64Array; d2At: Float64Array;
}

export function createWakedWorkspace(setup: WakedSetup, n: number): Workspace {
  return createWorkspace(n, setup.model.coefficientCount, setup.turbulence !== null);
}

function createWorkspace(n: number, coefCount: number, withTurbulence: boolean): Workspace {
  const pairs = Math.max(1, (n * (n - 1)) / 2);
  const f = (m: number) => new Float64Array(m);
  return {
    n, xs: f(n), ys: f(n), order: new Int32Array(n),
    candStart: new Int32Array(n + 1), candSrc: new Int32Array(pairs), candDx: f(pairs), candDy: f(pairs),
    u: f(n), ti: f(n), ct: f(n), total: f(n), tiAcc: f(n), tiArg: new Int32Array(n), coef: f(n * coefCount),
    pair: f(5 * pairs),
    tAdd: f(withTurbulence ? pairs : 0), tDx: f(withTurbulence ? pairs : 0), tDy: f(withTurbulence ? pairs : 0),
    tCt: f(withTurbulence ? pairs : 0), tTi: f(withTurbulence ? pairs : 0),
    uBar: f(n), ctBar: f(n), tiBar: f(n), gxw: f(n), gyw: f(n), g: f(4), gt: f(4),
    tSrc: f(withTurbulence ? n : 0), pDxPow: f(withTurbulence ? pairs : 0),
    typeAt: new Int32Array(n), candDz: f(pairs), d2At: f(n),
  };
}

/** Back-propagates ∂E/∂I₊ of candidate pair e (target at position p) to positions and sources. */
function addTurbulenceAdjoint(ws: Workspace, p: number, e: number, aBar: number): void {
  const q = ws.candSrc[e];
  const gx = aBar * ws.tDx[e], gy = aBar * ws.tDy[e];
  ws.gxw[p] += gx; ws.gxw[q] -= gx; ws.gyw[p] += gy; ws.gyw[q] -= gy;
  ws.ctBar[q] += aBar * ws.tCt[e];
  ws.tiBar[q] += aBar * ws.tTi[e];
}

/** Turbine indices sorted by downstream coordinate (ties by index). */
/**
 * A pair's deficit fraction with the ground mirror: the direct `f` and the image's `fm` combined
 * by the superposition rule (0 linear: sum; 1 squared sum: √(f² + fm²); 2 max), as PyWake sums
 * the two (in m/s, which the common reference speed factors out of). With `pair`, its partials
 * at [b+1 … b+4] (the direct one's on entry) become the combination's, from the image's in `mp`.
 */
/**
 * Adds one direction's gradient, kept in the wind frame by downstream position (gxw, gyw; crosswind
 * distances divided by ξ), to the layout frame's gradX/gradY, in energy units times `scale`.
 */
export function addWindFrameGradient(
  gxw: Float64Array, gyw: Float64Array, order: Int32Array, n: number, c: number, s: number, invWec: number, scale: number,
  gradX: Float64Array, gradY: Float64Array,
): void {
  for (let p = 0; p < n; p++) {
    const i = order[p];
    const gy = gyw[p] * invWec;
    gradX[i] += (gxw[p] * c - gy * s) * scale;
    gradY[i] += (gxw[p] * s + gy * c) * scale;
  }
}

/** The inline code of a superposition rule: 0 linear, 1 squared sum, 2 max. */
export function superpositionKind(name: string): number {
  return name === 'linear' ? 0 : name === 'sos' ? 1 : 2;
}

export function combineMirror(supKind: number, f: number, fm: number, pair: Float64Array | null, b: number, mp: Float64Array): number {
  if (supKind === 0) {
    if (pair) for (let k = 0; k < 4; k++) pair[b + 1 + k] += mp[k];
    return f + fm;
  }
  if (supKind === 1) {
    const c = Math.sqrt(f * f + fm * fm);
    if (pair) for (let k = 0; k < 4; k++) pair[b + 1 + k] = c > 0 ? (f * pair[b + 1 + k] + fm * mp[k]) / c : 0;
    return c;
  }
  if (fm > f) {
    if (pair) for (let k = 0; k < 4; k++) pair[b + 1 + k] = mp[k];
    return fm;
  }
  return f;
}

function sortByDownstream(idx: number[], xw: Float64Array): void {
  idx.sort((a, b) => xw[a] - xw[b] || a - b);
}

/** reachTable[k] bounds the model's reach for every dx ≤ k·step (reach grows with dx). */
function fillReachTable(model: LocalWakeModel, table: Float64Array, step: number, ctMax: number, tiMax: number): void {
  for (let k = 0; k < table.length; k++) table[k] = model.reach(k * step, ctMax, tiMax);
}

/** The AepWithGradient of aep.ts (same fields; not imported, so that aep.ts can import this file). */
export interface WakedResult {
  aepMwh: number;
  perDirectionMwh: Float64Array;
  /** By turbine, neighbours (mix.own …) included: their energy is not part of aepMwh. */
  perTurbineMwh: Float64Array;
  /** ∂AEP/∂x and ∂AEP/∂y in MWh per metre (empty without the gradient). */
  gradX: Float64Array;
  gradY: Float64Array;
  /** Kernel (pair) evaluations actually computed. */
  pairEvaluations: number;
}

/**
 * AEP (and gradient) of a layout for the visited directions [dirFrom, dirTo) of setup.conditions. Without
 * `mix` every turbine is the setup's first type and the farm's own.
 */
export function evaluateWaked(setup: WakedSetup, x: Float64Array, y: Float64Array, withGradient: boolean, ws: Workspace, dirFrom = 0, dirTo = setup.conditions.directionsDeg.length, mix?: TurbineMix): WakedResult {
  const { types, wind, model, pairModels, superposition: sup, turbulence, pairTurbulence, cosByDir, sinByDir, points } = setup;
  const n = x.length;
  const nTypes = types.length;
  const typeOf = mix?.typeOf ?? null;
  const own = mix ? mix.own : n;
  // One type, no neighbours: the per-pair lookups below reduce to the one-type engine's values.
  const several = nTypes > 1;
  const nDir = wind.directionsDeg.length;
  const { start: condStart, speed: condSpeed, weight: condWeight, turbulenceIntensity: condTi, resultDirection } = setup.conditions;
  const K = model.coefficientCount;
  // The ambient TI varies by condition (time series, per-bin roses); reach bounds use the largest.
  const tiAmbientMax = setup.conditions.tiMax;
  const refEff = setup.referenceIsEffective, useEffTi = setup.useEffectiveTi, freeStream = setup.freeStream;
  const tiSup = setup.turbulenceSuperposition;
  const radiusByType = Float64Array.from(types, (t) => t.diameter / 2);
  const d2ByType = Float64Array.from(pairModels.filter((_, i) => i % (nTypes + 1) === 0), (m) => (m instanceof GaussianLocalWake ? m.d2over8 : 0));
  let maxRadius = 0, minDiameter = Infinity, minCutIn = Infinity;
  for (const t of types) { maxRadius = Math.max(maxRadius, t.diameter / 2); minDiameter = Math.min(minDiameter, t.diameter); minCutIn = Math.min(minCutIn, t.cutIn); }
  let hubVaries = false;
  if (typeOf) for (let i = 1; i < n; i++) if (types[typeOf[i]].hubHeight !== types[typeOf[0]].hubHeight) { hubVaries = true; break; }
  const invWec = setup.invWec;
  // Screening needs a bound on every source's TI: with effective TI and added turbulence, the cap
  // learned from earlier calls (a hint only: a direction where a source exceeds it is redone
  // without screening, and screening never changes a result).
  const tiLearned = useEffTi && turbulence !== null;
  const ctMaxByType = setup.ctMaxByType;
  const tiMax = tiLearned ? setup.hint.tiCap : tiAmbientMax;
  let tiSeen = 0;
  const perTurbineBefore = new Float64Array(n);
  // Rotor points and added turbulence reach the target rotor's edge.
  const margin = points !== null || turbulence !== null ? maxRadius * (1 + 1e-12) : 0;
  const reachStep = minDiameter / 8;
  /** The largest reach of any pair of types (with one type, its model's). */
  const reachOf = (dx: number, tiBound: number): number => {
    let r = 0;
    for (let a = 0; a < nTypes; a++) for (let b = 0; b < nTypes; b++) r = Math.max(r, pairModels[a * nTypes + b].reach(dx, ctMaxByType[a], tiBound));
    return r;
  };
  let reachTableAll = new Float64Array(0);
  let reachTableTi = NaN;
  const directionReach = (extent: number, tiBound: number): Float64Array | null => {
    if (!several) {
      if (!Number.isFinite(model.reach(1000 * types[0].diameter, setup.ctMax, tiBound))) return null;
    } else if (!Number.isFinite(reachOf(1000 * minDiameter, tiBound))) return null;
    const need = Math.ceil(extent / reachStep) + 2;
    if (reachTableAll.length < need || reachTableTi !== tiBound) {
      reachTableAll = new Float64Array(Math.max(need, reachTableAll.length));
      reachTableTi = tiBound;
      if (!several) fillReachTable(model, reachTableAll, reachStep, setup.ctMax, tiBound);
      else for (let k = 0; k < reachTableAll.length; k++) reachTableAll[k] = reachOf(k * reachStep, tiBound);
    }
    return reachTableAll;
  };
  const MWH_PER_W_YEAR = (wind.hoursPerYear ?? 8760) * 1e-6;
  const perDirectionMwh = new Float64Array(nDir);
  const perTurbineMwh = new Float64Array(n);
  const gradX = new Float64Array(withGradient ? n : 0), gradY = new Float64Array(withGradient ? n : 0);
  const { xs, ys, order, candStart, candSrc, candDx, candDy, u, ti, ct, total, tiAcc, tiArg, coef } = ws;
  const { pair, tAdd, tDx, tDy, tCt, tTi, uBar, ctBar, tiBar, gxw, gyw, tSrc, pDxPow, typeAt, candDz, d2At } = ws;
  const sqrMax = turbulence !== null && setup.turbulenceSuperposition === 'sqrmax';
  const g = withGradient ? ws.g : null;
  const inline = points === null && model instanceof GaussianLocalWake && !setup.mirror ? model.inlineLinear : null;
  const mirror = setup.mirror;
  const mirrorPartials = new Float64Array(4);
  const madsen = inline === 'madsen';
  const d2over8 = model instanceof GaussianLocalWake ? model.d2over8 : 0;
  const supKind = superpositionKind(sup.name);
  if (sup.name !== 'linear' && sup.name !== 'sos' && sup.name !== 'max') throw new Error(`superposition '${sup.name}' has no inline form`);
  // The source TI adjoint matters only when it feeds back into wakes (effective TI with added turbulence).
  const tiUsed = useEffTi && turbulence !== null;
  const gt = withGradient ? ws.gt : null;
  const idx = Array.from({ length: n }, (_, i) => i);
  const xw = new Float64Array(n), yw = new Float64Array(n);
  const ctFreeByType = new Float64Array(nTypes);
  let pairEvaluations = 0;

  for (let d = dirFrom; d < dirTo; d++) {
    let anyActive = false;
    for (let k = condStart[d]; k < condStart[d + 1]; k++) {
      if (condWeight[k] > 0 && condSpeed[k] >= minCutIn) { anyActive = true; break; }
    }
    if (!anyActive) continue;
    const c = cosByDir[d], s = sinByDir[d];
    let tiBound = tiMax;
    perTurbineBefore.set(perTurbineMwh);
    direction: for (;;) {
    for (let i = 0; i < n; i++) { xw[i] = x[i] * c + y[i] * s; yw[i] = -x[i] * s + y[i] * c; }
    sortByDownstream(idx, xw);
    for (let p = 0; p < n; p++) {
      order[p] = idx[p]; xs[p] = xw[idx[p]]; ys[p] = yw[idx[p]];
      const tp = typeOf ? typeOf[idx[p]] : 0;
      typeAt[p] = tp;
      d2At[p] = d2ByType[tp];
    }
    // Candidate sources of every target: the turbines before it in downstream order whose wake
    // can reach it for some speed (the model's reach for the largest Ct and TI possible).
    let m = 0;
    const reachTable = directionReach(xs[n - 1] - xs[0], tiBound);
    for (let p = 0; p < n; p++) {
      candStart[p] = m;
      const xp = xs[p], yp = ys[p];
      const hp = types[typeAt[p]].hubHeight;
      for (let q = 0; q < p; q++) {
        const dx = xp - xs[q], dy = (yp - ys[q]) * invWec;
        if (reachTable !== null && Math.abs(dy) > reachTable[Math.ceil(dx / reachStep)] + margin) continue;
        candSrc[m] = q; candDx[m] = dx; candDy[m] = dy;
        candDz[m] = hubVaries ? hp - types[typeAt[q]].hubHeight : 0;
        if (turbulence !== null) pDxPow[m] = (several ? pairTurbulence![typeAt[q] * nTypes + typeAt[p]] : turbulence).distanceBound(dx);
        m++;
      }
    }
    candStart[n] = m;
    if (withGradient) { gxw.fill(0); gyw.fill(0); }
    let energyOfDirection = 0;

    for (let k = condStart[d]; k < condStart[d + 1]; k++) {
      const prob = condWeight[k];
      const U = condSpeed[k];
      const ti0 = condTi[k];
      if (!(prob > 0) || U < minCutIn) continue;
      const tiFactor = turbulence !== null ? turbulence.ambientFactor(ti0) : 0;
      for (let t = 0; t < nTypes; t++) ctFreeByType[t] = thrustCoefficientAt(types[t], U);
      // Forward: turbines in downstream order.
      for (let p = 0; p < n; p++) {
        let acc = 0, tAcc = 0, arg = -1;
        const end = candStart[p + 1];
        const tp = typeAt[p];
        const turb = types[tp];
        const radius = radiusByType[tp];
        if (inline !== null) {
          // The linear-width Gaussian family inline (gaussianLocal.ts has the same formulas).
          for (let e = candStart[p]; e < end; e++) {
            const off = candSrc[e] * K;
            const dx = candDx[e], dy = candDy[e];
            const k = coef[off + 1];
            const sigma = k * dx + coef[off + 2];
            const s2 = sigma * sigma, dy2 = hubVaries ? dy * dy + candDz[e] * candDz[e] : dy * dy;
            if (dy2 > 64 * s2) {
              if (g) { const b = 5 * e; pair[b] = 0; pair[b + 1] = 0; pair[b + 2] = 0; pair[b + 3] = 0; pair[b + 4] = 0; }
              continue;
            }
            const invSigma = 1 / sigma, invS2 = invSigma * invSigma;
            const scale = (several ? d2At[candSrc[e]] : d2over8) * invS2;
            const xx = coef[off] * scale;
            let t: number, dt = 0;
            if (madsen) {
              t = 2 * xx * (MADSEN[0] + xx * (MADSEN[1] + xx * MADSEN[2]));
              if (t >= 1) t = 1; else if (g) dt = 2 * (MADSEN[0] + xx * (2 * MADSEN[1] + xx * 3 * MADSEN[2]));
            } else if (xx < 1) {
              const r = Math.sqrt(1 - xx);
              t = 1 - r;
              if (g) dt = 0.5 / r;
            } else t = 1;
            const ex = Math.exp(-0.5 * dy2 * invS2);
            const f = t * ex;
            const deficit = (refEff ? u[candSrc[e]] : U) * f;
            if (supKind === 0) acc += deficit; else if (supKind === 1) acc += deficit * deficit; else if (deficit > acc) acc = deficit;
            if (g) {
              const dfds = (ex * dt * -2 * xx + f * dy2 * invS2) * invSigma;
              const b = 5 * e;
              pair[b] = f;
              pair[b + 1] = dfds * k;
              pair[b + 2] = -f * dy * invS2;
              pair[b + 3] = dfds * coef[off + 3] + ex * dt * scale;
              pair[b + 4] = dfds * coef[off + 4] * dx;
            }
          }
          if (turbulence !== null) {
            // Added turbulence, nearest sources first: with sqrmax the largest usually comes first
            // and the bound c₀a^c₁·TI₀^c₂·(dx/D)^c₃ then rules most others out without evaluating them.
            for (let e = end - 1; e >= candStart[p]; e--) {
              const q = candSrc[e];
              let add = 0;
              if (!(sqrMax && tSrc[q] * tiFactor * pDxPow[e] <= tAcc)) {
                const off = q * K;
                const dx = candDx[e], dy = candDy[e], dz = candDz[e];
                const cw = dz === 0 ? Math.abs(dy) : Math.sqrt(dy * dy + dz * dz);
                // Only inside the wake radius 2σ plus the target rotor.
                const reachT = 2 * (coef[off + 1] * dx + coef[off + 2]) + radius;
                const pm = several ? typeAt[q] * nTypes + tp : 0;
                if (cw * cw < reachT * reachT) add = (several ? pairTurbulence![pm] : turbulence).added(dx, cw, ct[q], ti0, several ? pairModels[pm] : model, coef, off, gt);
                if (gt && add !== 0) { tAdd[e] = add; tDx[e] = gt[0]; tDy[e] = dz === 0 ? (dy < 0 ? -gt[1] : gt[1]) : gt[1] * (dy / cw); tCt[e] = gt[2]; tTi[e] = gt[3]; }
              }
              if (gt && add === 0) { tAdd[e] = 0; tDx[e] = 0; tDy[e] = 0; tCt[e] = 0; tTi[e] = 0; }
              if (tiSup === 'sqrmax') { if (add > tAcc) { tAcc = add; arg = e; } } else if (tiSup === 'linear') tAcc += add; else tAcc += add * add;
            }
          }
        } else for (let e = candStart[p]; e < end; e++) {
          const q = candSrc[e];
          const dx = candDx[e], dy = candDy[e], dz = candDz[e];
          const off = q * K;
          const pm = several ? typeAt[q] * nTypes + tp : 0;
          const pairModel = several ? pairModels[pm] : model;
          let f: number;
          if (points === null) {
            f = pairModel.deficit(dx, hubVaries ? dy * dy + dz * dz : dy * dy, coef, off, g);
            if (g) { const b = 5 * e; pair[b + 1] = g[0]; pair[b + 2] = 2 * dy * g[1]; pair[b + 3] = g[2]; pair[b + 4] = g[3]; }
          } else {
            f = 0;
            let fdx = 0, fdy = 0, fct = 0, fti = 0;
            const { y: py, z: pz, w: pw } = points;
            for (let r = 0; r < pw.length; r++) {
              const yy = dy + radius * py[r], zz = hubVaries ? dz + radius * pz[r] : radius * pz[r];
              const v = pairModel.deficit(dx, yy * yy + zz * zz, coef, off, g);
              f += pw[r] * v;
              if (g) { fdx += pw[r] * g[0]; fdy += pw[r] * 2 * yy * g[1]; fct += pw[r] * g[2]; fti += pw[r] * g[3]; }
            }
            if (g) { const b = 5 * e; pair[b + 1] = fdx; pair[b + 2] = fdy; pair[b + 3] = fct; pair[b + 4] = fti; }
          }
          if (mirror) {
            // The source's image below the ground: the same wake, 2·h_source further down. The two
            // deficits of the pair are combined by the superposition rule (PyWake's Mirror).
            const dzm = dz + 2 * types[typeAt[q]].hubHeight;
            let fm: number;
            const mp = mirrorPartials;
            if (points === null) {
              fm = pairModel.deficit(dx, dy * dy + dzm * dzm, coef, off, g);
              if (g) { mp[0] = g[0]; mp[1] = 2 * dy * g[1]; mp[2] = g[2]; mp[3] = g[3]; }
            } else {
              fm = 0;
              if (g) mp.fill(0);
              const { y: py, z: pz, w: pw } = points;
              for (let r = 0; r < pw.length; r++) {
                const yy = dy + radius * py[r], zz = dzm + radius * pz[r];
                const v = pairModel.deficit(dx, yy * yy + zz * zz, coef, off, g);
                fm += pw[r] * v;
                if (g) { mp[0] += pw[r] * g[0]; mp[1] += pw[r] * 2 * yy * g[1]; mp[2] += pw[r] * g[2]; mp[3] += pw[r] * g[3]; }
              }
            }
            f = combineMirror(supKind, f, fm, g ? pair : null, 5 * e, mp);
          }
          const ref = refEff ? u[q] : U;
          const deficit = ref * f;
          if (g) pair[5 * e] = f;
          acc = sup.add(acc, deficit);
          if (turbulence !== null) {
            const cw = dz === 0 ? Math.abs(dy) : Math.sqrt(dy * dy + dz * dz);
            const add = sqrMax && tSrc[q] * tiFactor * pDxPow[e] <= tAcc ? 0 : (several ? pairTurbulence![pm] : turbulence).added(dx, cw, ct[q], ti0, pairModel, coef, off, gt);
            if (gt) { tAdd[e] = add; tDx[e] = gt[0]; tDy[e] = dz === 0 ? (dy < 0 ? -gt[1] : gt[1]) : cw > 0 ? gt[1] * (dy / cw) : 0; tCt[e] = gt[2]; tTi[e] = gt[3]; }
            if (tiSup === 'sqrmax') { if (add > tAcc) { tAcc = add; arg = e; } } else if (tiSup === 'linear') tAcc += add; else tAcc += add * add;
          }
        }
        pairEvaluations += end - candStart[p];
        const tot = sup.finish(acc);
        const up = U - tot;
        let tip = ti0;
        if (turbulence !== null) tip = tiSup === 'sqrmax' ? Math.sqrt(ti0 * ti0 + tAcc * tAcc) : tiSup === 'linear' ? ti0 + tAcc : ti0 + Math.sqrt(tAcc);
        total[p] = tot; u[p] = up; ti[p] = tip; tiAcc[p] = tAcc; tiArg[p] = arg;
        if (tiLearned) {
          if (tip > tiSeen) tiSeen = tip;
          if (tip > tiBound && reachTable !== null) {
            // The screen assumed every source's TI ≤ tiBound: redo the direction without it.
            perTurbineMwh.set(perTurbineBefore);
            tiBound = Infinity;
            continue direction;
          }
        }
        const ctp = freeStream ? ctFreeByType[tp] : thrustCoefficientAt(turb, up);
        ct[p] = ctp;
        (several ? pairModels[tp * (nTypes + 1)] : model).prepareSource(ctp, useEffTi ? tip : ti0, coef, p * K);
        if (turbulence !== null) tSrc[p] = turbulence.sourceFactor(ctp);
        const energy = prob * powerAt(turb, up);
        if (order[p] < own) energyOfDirection += energy;
        perTurbineMwh[order[p]] += energy * MWH_PER_W_YEAR;
      }
      if (!withGradient) continue;

      // Backward: turbines in reverse order (neighbours' power is not the objective: no seed).
      for (let p = 0; p < n; p++) { uBar[p] = order[p] < own ? prob * powerSlopeAt(types[typeAt[p]], u[p]) : 0; ctBar[p] = 0; tiBar[p] = 0; }
      for (let p = n - 1; p >= 0; p--) {
        // Every turbine p wakes has been visited: close p as a source.
        if (!freeStream) uBar[p] += ctBar[p] * thrustSlopeAt(types[typeAt[p]], u[p]);
        const ub = uBar[p];
        const start = candStart[p], end = candStart[p + 1];
        if (ub !== 0) {
          const tot = total[p];
          for (let e = start; e < end; e++) {
            const b = 5 * e;
            const q = candSrc[e];
            const f = pair[b];
            // A pair outside the wake (everything 0) contributes nothing.
            if (f === 0 && pair[b + 1] === 0 && pair[b + 2] === 0 && pair[b + 3] === 0 && pair[b + 4] === 0) continue;
            const ref = refEff ? u[q] : U;
            const deficit = ref * f;
            // ∂S/∂δ inline for the three rules (superposition/*.ts give the same).
            const dBar = supKind === 0 ? -ub : supKind === 1 ? (tot > 0 ? (-ub * deficit) / tot : 0) : deficit === tot && tot > 0 ? -ub : 0;
            if (dBar === 0) continue;
            if (refEff) uBar[q] += dBar * f;
            const fBar = dBar * ref;
            const gx = fBar * pair[b + 1], gy = fBar * pair[b + 2];
            gxw[p] += gx; gxw[q] -= gx; gyw[p] += gy; gyw[q] -= gy;
            ctBar[q] += fBar * pair[b + 3];
            if (tiUsed) tiBar[q] += fBar * pair[b + 4];
          }
        }
        // Effective TI of p feeds p's own wake (when the model uses it).
        const tb = useEffTi && turbulence !== null ? tiBar[p] : 0;
        if (tb !== 0) {
          if (tiSup === 'sqrmax') {
            const e = tiArg[p];
            if (e >= 0) addTurbulenceAdjoint(ws, p, e, (tb * tiAcc[p]) / ti[p]);
          } else {
            const root = Math.sqrt(tiAcc[p]);
            for (let e = start; e < end; e++) {
              const a = tAdd[e];
              if (a === 0) continue;
              addTurbulenceAdjoint(ws, p, e, tiSup === 'linear' ? tb : (tb * a) / root);
            }
          }
        }
      }
    }
    perDirectionMwh[resultDirection[d]] += energyOfDirection * MWH_PER_W_YEAR;
    break;
    }
    if (withGradient) addWindFrameGradient(gxw, gyw, order, n, c, s, invWec, MWH_PER_W_YEAR, gradX, gradY);
  }
  if (tiLearned && tiSeen > 0) setup.hint.tiCap = Math.max(tiSeen * 1.05, tiAmbientMax);
  let aepMwh = 0;
  for (let d = 0; d < nDir; d++) aepMwh += perDirectionMwh[d];
  return { aepMwh, perDirectionMwh, perTurbineMwh, gradX, gradY, pairEvaluations };
}

/** A FarmEvaluator of aep.ts (same shape) with the pair count. */
export interface WakedEvaluator {
  readonly turbine: Turbine;
  readonly wind: WindResource;
  aep(x: Float64Array, y: Float64Array): WakedResult;
  aepWithGradient(x: Float64Array, y: Float64Array): WakedResult;
  /** Pair evaluations of the last call. */
  last(): number;
}

/**
 * The waked engine for a farm model: the native kernel (wakedNative.ts) where it covers the model's
 * options, else (or with kernel 'js') evaluateWaked above.
 */
export function createWakedEvaluator(turbine: Turbine, wind: WindResource, spec: FarmModelSpec, kernel: KernelChoice = defaultKernel(), isa: IsaChoice = 'best'): WakedEvaluator {
  if (spec.superposition === 'weighted') return weightedSumEvaluator(turbine, wind, spec);
  const setup = wakedSetup(turbine, wind, spec);
  const native = kernel === 'native' ? createNativeWakedRunner(turbine, wind, spec, setup, isa) : null;
  let scratch: Workspace | null = null;
  let lastPairs = 0;
  const nDir = wind.directionsDeg.length;
  const evaluate = (x: Float64Array, y: Float64Array, withGradient: boolean): WakedResult => {
    const n = x.length;
    if (y.length !== n) throw new Error(`layout has ${n} x but ${y.length} y coordinates`);
    if (native) {
      const out = allocateByDirection(nDir, n, withGradient);
      lastPairs = native.run(x, y, withGradient, out);
      return { ...sumByDirection(out, n, withGradient), pairEvaluations: lastPairs };
    }
    if (!scratch || scratch.n !== n) scratch = createWorkspace(n, setup.model.coefficientCount, setup.turbulence !== null);
    const r = evaluateWaked(setup, x, y, withGradient, scratch);
    lastPairs = r.pairEvaluations;
    return r;
  };
  return {
    turbine, wind,
    aep: (x, y) => evaluate(x, y, false),
    aepWithGradient: (x, y) => evaluate(x, y, true),
    last: () => lastPairs,
  };
}

/** The weighted-sum setup (superposition/weightedSum.ts): a Gaussian model and the options of wakedSetup. */
export function weightedSumSetup(turbine: Turbine, wind: WindResource, spec: FarmModelSpec): WeightedSumSetup {
  if (wind.series || wind.turbulenceIntensityByBin) throw new InputError("superposition 'weighted': time series and per-bin turbulence are not supported with the weighted sum yet; use 'linear' or 'sos'");
  if ((spec.ground ?? 'none') !== 'none') throw new InputError(`superposition 'weighted': the ground mirror is not supported with the weighted sum; use 'linear' or 'sos'`);
  const setup = wakedSetup(turbine, wind, { ...spec, superposition: 'linear' });
  if (!(setup.model instanceof GaussianLocalWake) || setup.points !== null) {
    throw new Error(`the weighted-sum superposition needs a Gaussian wake model at the rotor centre, not '${spec.wake}'${setup.points ? ` with '${spec.rotorAverage}'` : ''}`);
  }
  if (setup.turbulence && setup.turbulenceSuperposition !== 'sqrmax') throw new Error('the weighted-sum superposition supports the sqrmax added-turbulence superposition only');
  return {
    turbine, wind, model: setup.model, turbulence: setup.turbulence, referenceIsEffective: setup.referenceIsEffective,
    useEffectiveTi: setup.useEffectiveTi, invWec: setup.invWec, cosByDir: setup.cosByDir, sinByDir: setup.sinByDir,
  };
}

function weightedSumEvaluator(turbine: Turbine, wind: WindResource, spec: FarmModelSpec): WakedEvaluator {
  const setup = weightedSumSetup(turbine, wind, spec);
  const evaluate = (x: Float64Array, y: Float64Array): WakedResult => {
    const r = evaluateWeightedSum(setup, x, y);
    return { aepMwh: r.aepMwh, perDirectionMwh: r.perDirectionMwh, perTurbineMwh: r.perTurbineMwh, gradX: new Float64Array(0), gradY: new Float64Array(0), pairEvaluations: 0 };
  };
  return {
    turbine, wind,
    aep: evaluate,
    // The AEP is the solve's own; the gradient replays it condition by condition (weightedSumGradient.ts).
    aepWithGradient: (x, y) => {
      const r = evaluateWeightedSum(setup, x, y);
      const g = weightedSumGradient(setup, x, y, r.iterations);
      return { aepMwh: r.aepMwh, perDirectionMwh: r.perDirectionMwh, perTurbineMwh: r.perTurbineMwh, gradX: g.gradX, gradY: g.gradY, pairEvaluations: 0 };
    },
    last: () => 0,
  };
}

/** Flow at every turbine for one wind direction and speed (for checks against other tools). */
export interface TurbineFlow {
  wsEff: Float64Array;
  ct: Float64Array;
  ti: Float64Array;
  powerW: Float64Array;
}

export function wakedFlow(
  turbines: Turbine | readonly Turbine[], spec: FarmModelSpec, x: Float64Array, y: Float64Array, directionDeg: number, speed: number,
  turbulenceIntensity: number, mix?: TurbineMix,
): TurbineFlow {
  const wind: WindResource = {
    directionsDeg: Float64Array.of(directionDeg), speeds: Float64Array.of(speed), probability: Float64Array.of(1), turbulenceIntensity,
  };
  if (spec.superposition === 'weighted') {
    const turbine = Array.isArray(turbines) ? turbines[0] as Turbine : turbines as Turbine;
    if (Array.isArray(turbines) && turbines.length > 1 || mix) throw new InputError("superposition 'weighted': one turbine model and no neighbours only");
    const r = evaluateWeightedSum(weightedSumSetup(turbine, wind, spec), x, y);
    return { wsEff: r.wsEff, ct: r.ct, ti: r.ti, powerW: r.wsEff.map((v) => powerAt(turbine, v)) };
  }
  return wakedFlowOf(wakedSetup(turbines, wind, spec), x, y, mix);
}

/** wakedFlow for a setup already made (its wind: the one direction and speed). */
export function wakedFlowOf(setup: WakedSetup, x: Float64Array, y: Float64Array, mix?: TurbineMix): TurbineFlow {
  const n = x.length;
  const ws = createWorkspace(n, setup.model.coefficientCount, setup.turbulence !== null);
  evaluateWaked(setup, x, y, false, ws, 0, 1, mix);
  const out: TurbineFlow = { wsEff: new Float64Array(n), ct: new Float64Array(n), ti: new Float64Array(n), powerW: new Float64Array(n) };
  for (let p = 0; p < n; p++) {
    const i = ws.order[p];
    out.wsEff[i] = ws.u[p]; out.ct[i] = ws.ct[p]; out.ti[i] = ws.ti[p]; out.powerW[i] = powerAt(setup.types[ws.typeAt[p]], ws.u[p]);
  }
  return out;
}
