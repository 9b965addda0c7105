/**
 * AEP with blockage: the wakes of the waked solve (wakedAep.ts's setup: deficit model,
 * superposition, added turbulence, rotor averaging, Ct→a, deficit reference) together with an
 * induction model (blockage/selfSimilarity2020.ts), and the exact gradient with respect to every
 * turbine coordinate.
 *
 * With blockage a turbine's speed depends on turbines downstream of it too, so the speeds are no
 * longer solved in one downstream pass. For every flow condition (direction, speed U, ambient TI)
 * the speeds u, effective turbulence intensities TI and thrust coefficients Ct = Ct(u) are the
 * fixed point of (PyWake's All2AllIterative)
 *
 *   u_j  = U − S_{i upstream}( r_i · δ_ij(Ct_i, TI_i) ) − U · Σ_{i ≠ j} β_ij(Ct_i)
 *   TI_j = TI₀ ⊕ added turbulence from upstream turbines
 *
 * with δ the wake deficit fraction (rotor-averaged as in the waked solve), S the superposition
 * rule, r_i the deficit's reference speed, and β the induction of turbine i at turbine j (linear
 * sum; taken as 0 where j lies inside i's wake, |cw| ≤ the wake model's wake radius downstream).
 * Solve: sweeps in downstream order, each turbine from the current values of all others
 * (Gauss–Seidel); the first sweep is the waked solve with the blockage of the turbines already
 * visited. Converged when no speed changed by more than BLOCKAGE_TOLERANCE_MS (1e-10 m/s) in a
 * sweep, at most BLOCKAGE_MAX_SWEEPS sweeps (`unconverged` counts the conditions that ran out).
 * PyWake's All2AllIterative stops at 1e-6 m/s (its default); both approach the same fixed point.
 *
 * Gradient (reverse mode, by hand): the fixed point's adjoint λ = ∇_u E + (∂F/∂u)ᵀ λ, solved by
 * reverse sweeps (targets downstream of a turbine are already final when it is reached, so
 * without blockage one sweep is exact), then ∂E/∂(x, y) = λᵀ ∂F/∂(x, y) from the pair partials
 * of the converged state. It is the derivative of the fixed point itself, so it matches central
 * differences of converged AEPs (test/physics/blockageGradient.test.ts).
 *
 * On a site that is not uniform (site/site.ts: speed-up and TI fields, shear, a per-point Weibull)
 * each turbine has its own free stream U_p and ambient TI₀_p, as in PyWake's All2AllIterative with
 * an XRSite: the target's own U_p, the wake scaled by the source's U_q (`WS_ilk`; or its effective
 * speed, or for TurbOPark the target's U_p, `WS_jlk`), the induction by the source's U_q
 * (SelfSimilarityDeficit2020's `WS_ref_ilk` is `WS_ilk`), TI_p = TI₀_p ⊕ added turbulence made
 * from the source's TI₀_q; with a per-point Weibull each turbine's power weighs by its own P_p.
 * The adjoint then gives Ū_p and T̄I₀_p, chained through the fields (engine/siteWork.ts's
 * addSiteGradient).
 *
 * Several turbine types and fixed neighbours (mixedFarm.ts), as PyWake's All2AllIterative with
 * WindTurbines of several types and the neighbours as extra turbines: each pair's wake model,
 * added turbulence and wake radius are its (source type, target type)'s, the induction scales with
 * the source's radius and its Ct curve, the target's rotor radius sets the rotor average, and hub
 * heights that differ add dz = h_p − h_q to the crosswind distance (cw = √(dy² + dz²) in the wake,
 * the added turbulence, the induction and the wake mask). Neighbours are solved in the fixed point
 * (blockage runs upstream, so they are slowed by the farm too) but their energy is not the AEP and
 * their positions have no gradient (AepTerm seeds them with 0).
 *
 * Memory: O(N²) per condition (pair geometry and partials), nothing kept between calls.
 */
import { powerAt, thrustCoefficientAt, thrustSlopeAt, type Turbine } from './turbine.js';
import type { TurbineMix } from './turbineMix.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import type { WakedEvaluator } from './wakedAep.js';
import { wakedSetup, type WakedSetup } from './engine/wakedSetup.js';
import { addWindFrameGradient, type WakedResult } from './engine/solveWaked.js';
import { rotorAveragedDeficit } from './engine/pairDeficit.js';
import { AepTerm, type ConditionFlow } from './engine/objective.js';
import { induction, pairGeometry, sourceGamma, SELF_SIMILARITY_2020 } from './blockage/selfSimilarity2020.js';
import { farmConflict } from './solvePlan.js';
import { FarmConflictError } from './farmConflictError.js';
import type { SolvePlan } from './solvePlanTypes.js';
import { sampleSite } from './site/site.js';
import { weibullProbability } from './site/siteWeibull.js';
import { createSiteWork, type SiteWork } from './engine/siteWorkspace.js';
import { addSiteGradient } from './engine/siteWork.js';

export const BLOCKAGE_TOLERANCE_MS = 1e-10;
export const BLOCKAGE_MAX_SWEEPS = 200;

export interface BlockageResult extends WakedResult {
  /** Forward sweeps over all conditions of the call. */
  sweeps: number;
  /** Conditions that reached BLOCKAGE_MAX_SWEEPS without converging. */
  unconverged: number;
}

/** Scratch memory for one layout size (flat pair arrays are source-major: [q * n + p], q source, p target). */
interface Scratch {
  n: number;
  xw: Float64Array;
  yw: Float64Array;
  order: Int32Array;
  xs: Float64Array;
  ys: Float64Array;
  geom: Float64Array;
  geomOk: Uint8Array;
  wakeCand: Uint8Array;
  u: Float64Array;
  ti: Float64Array;
  ct: Float64Array;
  coef: Float64Array;
  gam: Float64Array;
  known: Uint8Array;
  total: Float64Array;
  tiAcc: Float64Array;
  tiArg: Int32Array;
  wF: Float64Array;
  wDx: Float64Array;
  wDy: Float64Array;
  wCt: Float64Array;
  wTi: Float64Array;
  tA: Float64Array;
  tDx: Float64Array;
  tDy: Float64Array;
  tCt: Float64Array;
  tTi: Float64Array;
  bV: Float64Array;
  bDx: Float64Array;
  bDy: Float64Array;
  bCt: Float64Array;
  lu: Float64Array;
  lti: Float64Array;
  gxw: Float64Array;
  gyw: Float64Array;
  /** The objective's ∂J/∂u by position (the adjoint's start), every turbine's type and hub height by position. */
  seed: Float64Array;
  typeAt: Int32Array;
  hub: Float64Array;
  /** A site that is not uniform: U_p, TI₀_p (uFree, tiAmb), P_p and the adjoints by position; null on a uniform site. */
  site: SiteWork | null;
}

function createScratch(n: number, coefCount: number, onSite: boolean): Scratch {
  const f = (m: number) => new Float64Array(m);
  const nn = n * n;
  return {
    n,
    xw: f(n),
    yw: f(n),
    order: new Int32Array(n),
    xs: f(n),
    ys: f(n),
    geom: f(5 * nn),
    geomOk: new Uint8Array(nn),
    wakeCand: new Uint8Array(nn),
    u: f(n),
    ti: f(n),
    ct: f(n),
    coef: f(n * coefCount),
    gam: f(4 * n),
    known: new Uint8Array(n),
    total: f(n),
    tiAcc: f(n),
    tiArg: new Int32Array(n),
    wF: f(nn),
    wDx: f(nn),
    wDy: f(nn),
    wCt: f(nn),
    wTi: f(nn),
    tA: f(nn),
    tDx: f(nn),
    tDy: f(nn),
    tCt: f(nn),
    tTi: f(nn),
    bV: f(nn),
    bDx: f(nn),
    bDy: f(nn),
    bCt: f(nn),
    lu: f(n),
    lti: f(n),
    gxw: f(n),
    gyw: f(n),
    seed: f(n),
    typeAt: new Int32Array(n),
    hub: f(n),
    site: onSite ? createSiteWork(n) : null,
  };
}

/** Checks that the model can be solved with blockage; returns the waked setup of the turbine type(s). */
export function blockageSetup(turbines: Turbine | readonly Turbine[], wind: WindResource, spec: FarmModelSpec): WakedSetup {
  if (spec.blockage !== 'selfsimilarity2020') throw new Error(`unknown blockage model '${String(spec.blockage)}' (known: selfsimilarity2020)`);
  const conflict = farmConflict(spec);
  if (conflict) throw new FarmConflictError(conflict, spec);
  return wakedSetup(turbines, wind, spec);
}

/** One evaluation with blockage: the setup, the scratch and what every component reads. */
interface BlockagePass {
  setup: WakedSetup;
  sc: Scratch;
  n: number;
  /** Turbines [0, own) are the farm's (their energy is the AEP); [own, n) fixed neighbours (mixedFarm.ts). */
  own: number;
  /** Every turbine's type by index (null: all type 0), and whether hub heights differ (then dz ≠ 0 in pairs). */
  typeOf: Int32Array | null;
  hubVaries: boolean;
  /** More than one type: each pair's model is its (source type, target type)'s. */
  several: boolean;
  nTypes: number;
  /** Ct at the condition's free stream, by type (free-stream inflow). */
  ctFreeByType: Float64Array;
  withGradient: boolean;
  /** Effective TI fed back through added turbulence (the TI adjoint matters). */
  tiUsed: boolean;
  /** Screening TI bound: with effective TI fed back no bound is known, nothing is screened. */
  tiBound: number;
  /** Partial scratch: the pair deficit's, the added turbulence's, the induction's. */
  g: Float64Array;
  gt: Float64Array;
  gb: Float64Array;
  idx: number[];
  pairEvaluations: number;
  sweeps: number;
  unconverged: number;
}

/**
 * AEP (and gradient) of a layout with blockage, over every condition of the setup's wind. With a
 * mix (mixedFarm.ts) each turbine has its type's curves, diameter and hub height, and turbines from
 * mix.own on are neighbours: solved in the fixed point (their induction and wakes reach the farm),
 * their energy by turbine but not in the AEP, their adjoint seeded with 0.
 */
export function evaluateBlockage(setup: WakedSetup, x: Float64Array, y: Float64Array, withGradient: boolean, sc: Scratch, mix?: TurbineMix): BlockageResult {
  const { wind, turbulence, cosByDir, sinByDir, conditions, types } = setup;
  const n = x.length;
  const tiUsed = setup.useEffectiveTi && turbulence !== null;
  const typeOf = mix?.typeOf ?? null;
  let hubVaries = false;
  if (typeOf)
    for (let i = 1; i < n; i++)
      if (types[typeOf[i]].hubHeight !== types[typeOf[0]].hubHeight) {
        hubVaries = true;
        break;
      }
  const pass: BlockagePass = {
    setup,
    sc,
    n,
    own: mix ? mix.own : n,
    typeOf,
    hubVaries,
    several: types.length > 1,
    nTypes: types.length,
    ctFreeByType: new Float64Array(types.length),
    withGradient,
    tiUsed,
    tiBound: tiUsed ? Infinity : setup.ambientTiMax,
    g: new Float64Array(4),
    gt: new Float64Array(4),
    gb: new Float64Array(3),
    idx: Array.from({ length: n }, (_, i) => i),
    pairEvaluations: 0,
    sweeps: 0,
    unconverged: 0,
  };
  const term = new AepTerm(wind.hoursPerYear);
  term.begin(n, wind.directionsDeg.length);
  const site = sc.site;
  const flow: ConditionFlow = {
    k: 0,
    weight: 0,
    weightAt: setup.weibullBins !== null ? site!.prob : null,
    n,
    own: pass.own,
    types,
    order: sc.order,
    typeAt: sc.typeAt,
    u: sc.u,
    ti: sc.ti,
    ct: sc.ct,
  };
  const gradX = new Float64Array(withGradient ? n : 0),
    gradY = new Float64Array(withGradient ? n : 0);
  const gradH = new Float64Array(withGradient && site !== null ? n : 0);
  for (let d = 0; d < conditions.directionsDeg.length; d++) {
    const c = cosByDir[d],
      s = sinByDir[d];
    directionGeometry(pass, x, y, c, s);
    if (withGradient) {
      sc.gxw.fill(0);
      sc.gyw.fill(0);
    }
    if (site !== null) {
      sampleSite(setup.site!, x, y, sc.order, (p) => sc.hub[p], conditions.directionsDeg[d], site.samples);
      if (withGradient) {
        site.gsx.fill(0);
        site.gsy.fill(0);
        site.gsh.fill(0);
      }
    }
    term.startDirection();
    for (let k = conditions.start[d]; k < conditions.start[d + 1]; k++) {
      const prob = conditions.weight[k];
      if (!(prob > 0)) continue;
      if (site !== null) localFreeStream(setup, site, n, k);
      solveCondition(pass, k);
      flow.k = k;
      flow.weight = prob;
      term.condition(flow, withGradient ? sc.seed : null, site !== null ? site.probBar : null);
      if (withGradient) adjointCondition(pass, conditions.speed[k]);
    }
    term.endDirection(conditions.resultDirection[d]);
    if (withGradient) addWindFrameGradient(sc.gxw, sc.gyw, sc.order, n, c, s, setup.invWec, term.gradientScale, gradX, gradY);
    if (withGradient && site !== null) addSiteGradient(site, sc.order, n, term.gradientScale, gradX, gradY, gradH);
  }
  return {
    aepMwh: term.total(),
    perDirectionMwh: term.perDirectionMwh,
    perTurbineMwh: term.perTurbineMwh,
    gradX,
    gradY,
    ...(site !== null ? { gradH } : {}),
    pairEvaluations: pass.pairEvaluations,
    sweeps: pass.sweeps,
    unconverged: pass.unconverged,
  };
}

const dP = new Float64Array(2);

/** U_p = U·s_p, TI₀_p (the TI field's, else the condition's) and, with a per-point Weibull, P_p of condition k, by position. */
function localFreeStream(setup: WakedSetup, site: SiteWork, n: number, k: number): void {
  const U = setup.conditions.speed[k],
    ti0 = setup.conditions.turbulenceIntensity[k];
  const { samples } = site;
  const tiField = setup.site!.ti !== null;
  const bins = setup.weibullBins;
  for (let p = 0; p < n; p++) {
    site.uFree[p] = U * samples.speed[p];
    site.tiAmb[p] = tiField ? samples.ti[p] : ti0;
    if (bins !== null) {
      site.prob[p] = weibullProbability(
        samples.wf[p],
        samples.wfDx[p],
        samples.wfDy[p],
        samples.wa[p],
        samples.waDx[p],
        samples.waDy[p],
        samples.wk[p],
        samples.wkDx[p],
        samples.wkDy[p],
        bins.lower[k],
        bins.upper[k],
        bins.scale,
        dP,
      );
      site.probDx[p] = dP[0];
      site.probDy[p] = dP[1];
    }
  }
}

/** Downstream order of the direction and its layout terms: induction geometry of every ordered pair, wake candidates. */
function directionGeometry(pass: BlockagePass, x: Float64Array, y: Float64Array, c: number, s: number): void {
  const { setup, sc, n, idx, tiBound, typeOf, hubVaries, several, nTypes } = pass;
  const { pairModels, points, turbulence, invWec, ctMaxByType, radiusByType, types } = setup;
  const margin = points !== null || turbulence !== null ? setup.maxRadius * (1 + 1e-12) : 0;
  const { xw, yw, order, xs, ys, geom, geomOk, wakeCand, typeAt, hub } = sc;
  for (let i = 0; i < n; i++) {
    xw[i] = x[i] * c + y[i] * s;
    yw[i] = -x[i] * s + y[i] * c;
  }
  idx.sort((a, b) => xw[a] - xw[b] || a - b);
  for (let p = 0; p < n; p++) {
    order[p] = idx[p];
    xs[p] = xw[idx[p]];
    ys[p] = yw[idx[p]];
    typeAt[p] = typeOf ? typeOf[idx[p]] : 0;
    hub[p] = types[typeAt[p]].hubHeight;
  }
  // Wake pairs beyond the model's reach give exactly 0 (and lie outside the wake radius).
  for (let q = 0; q < n; q++) {
    const tq = typeAt[q];
    for (let p = 0; p < n; p++) {
      const e = q * n + p;
      if (p === q) {
        geomOk[e] = 0;
        wakeCand[e] = 0;
        continue;
      }
      const dx = xs[p] - xs[q],
        dy = (ys[p] - ys[q]) * invWec;
      const dz = hubVaries ? hub[p] - hub[q] : 0;
      // The induction at the target's hub: the crosswind distance includes the hub heights' difference
      // (PyWake's cw = hypot(hcw, dh)), ∂/∂dy = ∂/∂cw · dy/cw; the source's radius scales it.
      if (dz === 0) geomOk[e] = pairGeometry(dx, dy, radiusByType[tq], geom, 5 * e) ? 1 : 0;
      else {
        const cw = Math.sqrt(dy * dy + dz * dz);
        geomOk[e] = pairGeometry(dx, cw, radiusByType[tq], geom, 5 * e) ? 1 : 0;
        geom[5 * e + 2] *= dy / cw;
      }
      const pairModel = several ? pairModels[tq * nTypes + typeAt[p]] : pairModels[0];
      wakeCand[e] = p > q && Math.abs(dy) <= pairModel.reach(dx, ctMaxByType[tq], tiBound) + margin ? 1 : 0;
    }
  }
}

/**
 * The fixed point of condition k by Gauss–Seidel sweeps in downstream order; with the gradient, one
 * more sweep after convergence records the partials of every pair.
 */
function solveCondition(pass: BlockagePass, k: number): void {
  const { setup, sc, n, withGradient, ctFreeByType } = pass;
  const { conditions, types } = setup;
  const U = conditions.speed[k];
  for (let t = 0; t < types.length; t++) ctFreeByType[t] = thrustCoefficientAt(types[t], U);
  sc.known.fill(0);
  let converged = false;
  for (let sweep = 0; sweep < BLOCKAGE_MAX_SWEEPS + 1; sweep++) {
    const grad = converged;
    let change = 0;
    for (let p = 0; p < n; p++) change = Math.max(change, solveTurbine(pass, p, k, grad));
    pass.sweeps++;
    if (grad) break;
    if (sweep > 0 && change <= BLOCKAGE_TOLERANCE_MS) converged = true;
    else if (sweep === BLOCKAGE_MAX_SWEEPS - 1) {
      converged = true;
      pass.unconverged++;
    }
    if (converged && !withGradient) break;
  }
}

/** One turbine of a sweep from the current values of all others; returns how much its speed changed (0 the first time). */
function solveTurbine(pass: BlockagePass, p: number, k: number, grad: boolean): number {
  const { setup, sc, n, g, gt, gb, several, nTypes, hubVaries, ctFreeByType } = pass;
  const { model, pairModels, points, superposition: sup, turbulence, pairTurbulence, types, invWec, freeStream, turbulenceSuperposition: tiSup } = setup;
  const { xs, ys, geom, geomOk, wakeCand, u, ti, ct, coef, gam, known, total, tiAcc, tiArg, typeAt, hub } = sc;
  const { wF, wDx, wDy, wCt, wTi, tA, tDx, tDy, tCt, tTi, bV, bDx, bDy, bCt } = sc;
  const site = sc.site;
  // On a site each turbine's own free stream and ambient TI (the target's, and the source's in its wake); else the condition's.
  const uFree = site !== null ? site.uFree : null,
    tiAmb = site !== null ? site.tiAmb : null;
  const U = uFree !== null ? uFree[p] : setup.conditions.speed[k],
    ti0 = tiAmb !== null ? tiAmb[p] : setup.conditions.turbulenceIntensity[k];
  const K = model.coefficientCount;
  const tp = typeAt[p];
  const radius = setup.radiusByType[tp];
  const refEff = setup.referenceIsEffective,
    refTarget = setup.referenceIsTarget;
  let acc = 0,
    tAcc = 0,
    arg = -1,
    block = 0;
  for (let q = 0; q < n; q++) {
    if (q === p) continue;
    const e = q * n + p;
    const dx = xs[p] - xs[q],
      dy = (ys[p] - ys[q]) * invWec;
    // Hub heights that differ: the pair's vertical offset (target above source positive), in the wake, the added turbulence and the mask.
    const dz = hubVaries ? hub[p] - hub[q] : 0;
    const cw = dz === 0 ? Math.abs(dy) : Math.sqrt(dy * dy + dz * dz);
    const pm = several ? typeAt[q] * nTypes + tp : 0;
    const pairModel = several ? pairModels[pm] : model;
    if (wakeCand[e]) {
      const f = rotorAveragedDeficit(pairModel, points, radius, dx, dy, dz, hubVaries, coef, q * K, grad ? g : null, g, 0);
      acc = sup.add(acc, (refEff ? u[q] : uFree !== null && !refTarget ? uFree[q] : U) * f);
      if (grad) {
        wF[e] = f;
        wDx[e] = g[0];
        wDy[e] = g[1];
        wCt[e] = g[2];
        wTi[e] = g[3];
      }
      if (turbulence !== null) {
        const add = (several ? pairTurbulence![pm] : turbulence).added(
          dx,
          cw,
          ct[q],
          tiAmb !== null ? tiAmb[q] : ti0,
          pairModel,
          coef,
          q * K,
          grad ? gt : null,
        );
        if (grad) {
          tA[e] = add;
          tDx[e] = gt[0];
          tDy[e] = dz === 0 ? (dy < 0 ? -gt[1] : gt[1]) : cw > 0 ? gt[1] * (dy / cw) : 0;
          tCt[e] = gt[2];
          tTi[e] = gt[3];
        }
        if (tiSup === 'sqrmax') {
          if (add > tAcc) {
            tAcc = add;
            arg = q;
          }
        } else if (tiSup === 'linear') tAcc += add;
        else tAcc += add * add;
      }
      pass.pairEvaluations++;
    }
    let beta = 0;
    // Induction, but not inside the source's wake downstream (nor from a source not yet solved); the limiter scales with the source's radius.
    const limiterDx = SELF_SIMILARITY_2020.limiter * setup.radiusByType[typeAt[q]];
    if (geomOk[e] && known[q] && !(dx >= -limiterDx && cw <= pairModel.wakeRadius(dx, coef, q * K, null))) {
      beta = induction(geom, 5 * e, ct[q], gam, 4 * q, grad ? gb : null);
      block += uFree !== null ? uFree[q] * beta : beta;
      pass.pairEvaluations++;
    }
    if (grad) {
      bV[e] = beta;
      bDx[e] = beta !== 0 ? gb[0] : 0;
      bDy[e] = beta !== 0 ? gb[1] : 0;
      bCt[e] = beta !== 0 ? gb[2] : 0;
    }
  }
  const tot = sup.finish(acc);
  const up = U - tot - (uFree !== null ? block : U * block);
  let tip = ti0;
  if (turbulence !== null) tip = tiSup === 'sqrmax' ? Math.sqrt(ti0 * ti0 + tAcc * tAcc) : tiSup === 'linear' ? ti0 + tAcc : ti0 + Math.sqrt(tAcc);
  const change = known[p] ? Math.abs(up - u[p]) : 0;
  u[p] = up;
  ti[p] = tip;
  total[p] = tot;
  tiAcc[p] = tAcc;
  tiArg[p] = arg;
  const ctp = freeStream ? ctFreeByType[tp] : thrustCoefficientAt(types[tp], Math.max(up, 0));
  ct[p] = ctp;
  (several ? pairModels[tp * (nTypes + 1)] : model).prepareSource(ctp, setup.useEffectiveTi ? tip : ti0, coef, p * K);
  sourceGamma(ctp, gam, 4 * p);
  known[p] = 1;
  return change;
}

/**
 * The adjoint of one condition's fixed point, λ = ∇_u J + (∂F/∂u)ᵀ λ by reverse sweeps from the
 * objective's seeds (sc.seed), then λᵀ ∂F/∂(xs, ys) added to gxw, gyw; on a site, Ū_p and T̄I₀_p
 * chained through the fields into the site's gsx, gsy, gsh.
 */
function adjointCondition(pass: BlockagePass, U: number): void {
  const { setup, sc, n, tiUsed } = pass;
  const { superposition: sup, types, freeStream } = setup;
  const refEff = setup.referenceIsEffective,
    refTarget = setup.referenceIsTarget;
  const { u, total, wakeCand, wF, wDx, wDy, wCt, wTi, tCt, tTi, tDx, tDy, bV, bDx, bDy, bCt, lu, lti, gxw, gyw, seed, typeAt } = sc;
  const uFree = sc.site !== null ? sc.site.uFree : null;
  // The deficit's reference speed of pair (q → p): the source's effective speed, its free stream, or (TurbOPark) the target's.
  const refOf = (q: number, p: number): number => (refEff ? u[q] : uFree === null ? U : refTarget ? uFree[p] : uFree[q]);
  const uSource = (q: number): number => (uFree === null ? U : uFree[q]);
  lu.fill(0);
  lti.fill(0);
  let scale = 0;
  for (let sweep = 0; sweep < 2 * BLOCKAGE_MAX_SWEEPS; sweep++) {
    let change = 0;
    for (let q = n - 1; q >= 0; q--) {
      let ub = seed[q],
        cb = 0,
        tb = 0;
      const uq = uSource(q);
      for (let p = 0; p < n; p++) {
        if (p === q) continue;
        const e = q * n + p;
        const lp = lu[p];
        if (wakeCand[e]) {
          const f = wF[e];
          if (f !== 0 || wDx[e] !== 0 || wDy[e] !== 0 || wCt[e] !== 0 || wTi[e] !== 0) {
            const ref = refOf(q, p);
            const dBar = -lp * sup.derivative(ref * f, total[p]);
            if (refEff) ub += dBar * f;
            const fBar = dBar * ref;
            cb += fBar * wCt[e];
            if (tiUsed) tb += fBar * wTi[e];
          }
          if (tiUsed) {
            const aBar = lti[p] * tiSlope(sc, setup.turbulenceSuperposition, p, q, e);
            cb += aBar * tCt[e];
            tb += aBar * tTi[e];
          }
        }
        if (bV[e] !== 0 || bCt[e] !== 0) cb += -lp * uq * bCt[e];
      }
      if (!freeStream) ub += cb * thrustSlopeAt(types[typeAt[q]], Math.max(u[q], 0));
      change = Math.max(change, Math.abs(ub - lu[q]));
      scale = Math.max(scale, Math.abs(ub));
      lu[q] = ub;
      lti[q] = tb;
    }
    if (sweep > 0 && change <= 1e-13 * scale) break;
  }
  // λᵀ ∂F/∂(dx, dy) of every pair, to both ends.
  for (let q = 0; q < n; q++) {
    const uq = uSource(q);
    for (let p = 0; p < n; p++) {
      if (p === q) continue;
      const e = q * n + p;
      let gx = 0,
        gy = 0;
      if (wakeCand[e]) {
        const ref = refOf(q, p);
        const fBar = -lu[p] * sup.derivative(ref * wF[e], total[p]) * ref;
        gx += fBar * wDx[e];
        gy += fBar * wDy[e];
        if (tiUsed) {
          const aBar = lti[p] * tiSlope(sc, setup.turbulenceSuperposition, p, q, e);
          gx += aBar * tDx[e];
          gy += aBar * tDy[e];
        }
      }
      const bBar = -lu[p] * uq;
      gx += bBar * bDx[e];
      gy += bBar * bDy[e];
      gxw[p] += gx;
      gxw[q] -= gx;
      gyw[p] += gy;
      gyw[q] -= gy;
    }
  }
  if (sc.site !== null) siteAdjointCondition(pass, U, refOf);
}

/**
 * On a site, after the adjoint of condition (U, …): Ū_p = ∂J/∂U_p (the target's own free stream,
 * the source's as the wake's reference and in its induction) and T̄I₀_p = ∂J/∂TI₀_p (the target's
 * ambient under its added turbulence, the source's in its wake and added turbulence), chained
 * through the fields: gsx_p += U·Ū_p·∂s_p/∂x + T̄I₀_p·∂T_p/∂x + P̄_p·∂P_p/∂x (and y; h without P).
 */
function siteAdjointCondition(pass: BlockagePass, U: number, refOf: (q: number, p: number) => number): void {
  const { setup, sc, n, tiUsed } = pass;
  const site = sc.site!;
  const { superposition: sup, turbulence, turbulenceSuperposition: tiSup } = setup;
  const refEff = setup.referenceIsEffective,
    refTarget = setup.referenceIsTarget;
  const { ti, total, wakeCand, wF, wTi, tA, bV, lu, lti } = sc;
  const { samples, tiAmb, tiAmbBar, refBar: uBar, gsx, gsy, gsh, probBar, probDx, probDy } = site;
  const tiField = setup.site!.ti !== null;
  for (let p = 0; p < n; p++) {
    uBar[p] = lu[p];
    tiAmbBar[p] = 0;
  }
  for (let q = 0; q < n; q++) {
    for (let p = 0; p < n; p++) {
      if (p === q) continue;
      const e = q * n + p;
      if (bV[e] !== 0) uBar[q] -= lu[p] * bV[e];
      if (!wakeCand[e]) continue;
      const f = wF[e];
      const ref = refOf(q, p);
      const dBar = -lu[p] * sup.derivative(ref * f, total[p]);
      if (!refEff) uBar[refTarget ? p : q] += dBar * f;
      if (!tiField) continue;
      // The source's wake from its ambient TI₀_q (without the effective TI fed back).
      if (!tiUsed) tiAmbBar[q] += dBar * ref * wTi[e];
      else if (tA[e] !== 0) {
        // Its added turbulence from TI₀_q: ∂I₊/∂TI₀_q = c₂·I₊/TI₀_q.
        const aBar = lti[p] * tiSlope(sc, tiSup, p, q, e);
        tiAmbBar[q] += (aBar * turbulence!.ambientExponent * tA[e]) / tiAmb[q];
      }
    }
  }
  // The target's TI_p = TI₀_p ⊕ I₊ (only fed back with the effective TI).
  if (tiField && tiUsed) for (let p = 0; p < n; p++) tiAmbBar[p] += lti[p] * (tiSup === 'sqrmax' ? tiAmb[p] / ti[p] : 1);
  const weibull = setup.weibullBins !== null;
  for (let p = 0; p < n; p++) {
    const ub = uBar[p] * U,
      tb = tiAmbBar[p];
    gsx[p] += ub * samples.speedDx[p] + (tiField ? tb * samples.tiDx[p] : 0) + (weibull ? probBar[p] * probDx[p] : 0);
    gsy[p] += ub * samples.speedDy[p] + (tiField ? tb * samples.tiDy[p] : 0) + (weibull ? probBar[p] * probDy[p] : 0);
    gsh[p] += ub * samples.speedDh[p] + (tiField ? tb * samples.tiDh[p] : 0);
  }
}

/** ∂TI_p / ∂(added turbulence from q). */
function tiSlope(sc: Scratch, tiSup: string, p: number, q: number, e: number): number {
  const a = sc.tA[e];
  if (a === 0) return 0;
  if (tiSup === 'sqrmax') return sc.tiArg[p] === q ? sc.tiAcc[p] / sc.ti[p] : 0;
  if (tiSup === 'linear') return 1;
  return a / Math.sqrt(sc.tiAcc[p]);
}

/** A WakedEvaluator (the FarmEvaluator of aep.ts) with blockage. */
export function createBlockageEvaluator(
  turbine: Turbine,
  wind: WindResource,
  plan: SolvePlan,
): WakedEvaluator & { lastSolve(): { sweeps: number; unconverged: number } } {
  const setup = blockageSetup(turbine, wind, plan.model);
  let scratch: Scratch | null = null;
  let last = { pairs: 0, sweeps: 0, unconverged: 0 };
  const evaluate = (x: Float64Array, y: Float64Array, withGradient: boolean): BlockageResult => {
    const n = x.length;
    if (y.length !== n) throw new Error(`layout has ${n} x but ${y.length} y coordinates`);
    if (!scratch || scratch.n !== n) scratch = createScratch(n, setup.model.coefficientCount, setup.site !== null);
    const r = evaluateBlockage(setup, x, y, withGradient, scratch);
    last = { pairs: r.pairEvaluations, sweeps: r.sweeps, unconverged: r.unconverged };
    return r;
  };
  return {
    turbine,
    wind,
    plan,
    aep: (x, y) => evaluate(x, y, false),
    aepWithGradient: (x, y) => evaluate(x, y, true),
    last: () => last.pairs,
    lastSolve: () => ({ sweeps: last.sweeps, unconverged: last.unconverged }),
  };
}

/**
 * The blockage solve over several turbine types and fixed neighbours (mixedFarm.ts): each call
 * solves the turbines of `mix` (own first, then neighbours) on `setup`'s types.
 */
export function createBlockageMixSolve(setup: WakedSetup): (x: Float64Array, y: Float64Array, withGradient: boolean, mix: TurbineMix) => BlockageResult {
  let scratch: Scratch | null = null;
  return (x, y, withGradient, mix) => {
    const n = x.length;
    if (!scratch || scratch.n !== n) scratch = createScratch(n, setup.model.coefficientCount, setup.site !== null);
    return evaluateBlockage(setup, x, y, withGradient, scratch, mix);
  };
}

/** Flow at every turbine for one direction, speed and turbulence intensity with blockage (checks against other tools). */
export function blockageFlow(
  turbine: Turbine,
  spec: FarmModelSpec,
  x: Float64Array,
  y: Float64Array,
  directionDeg: number,
  speed: number,
  turbulenceIntensity: number,
): { wsEff: Float64Array; ct: Float64Array; ti: Float64Array; powerW: Float64Array } {
  const wind: WindResource = {
    directionsDeg: Float64Array.of(directionDeg),
    speeds: Float64Array.of(speed),
    probability: Float64Array.of(1),
    turbulenceIntensity,
  };
  const setup = blockageSetup(turbine, wind, spec);
  const n = x.length;
  const sc = createScratch(n, setup.model.coefficientCount, setup.site !== null);
  evaluateBlockage(setup, x, y, false, sc);
  const out = { wsEff: new Float64Array(n), ct: new Float64Array(n), ti: new Float64Array(n), powerW: new Float64Array(n) };
  for (let p = 0; p < n; p++) {
    const i = sc.order[p];
    out.wsEff[i] = sc.u[p];
    out.ct[i] = sc.ct[p];
    out.ti[i] = sc.ti[p];
    out.powerW[i] = powerAt(turbine, sc.u[p]);
  }
  return out;
}
