/**
 * The forward pass of one flow condition (free-stream speed U, ambient TI₀): turbines in
 * downstream order, each one's deficit from its candidate sources folded by the superposition
 * rule, its added turbulence, then its speed, TI and Ct (which make it a source for the turbines
 * after it):
 *
 *   u_p  = U − S_q( r_q · δ_qp )      r_q = U, or u_q with the source's effective speed as reference
 *   TI_p = TI₀ ⊕ I₊_qp                 (turbulence/crespoHernandez.ts; sqrmax, linear or sos)
 *   Ct_p = Ct(u_p)                     (Ct(U) with free-stream inflow)
 *
 * The deficits come from the linear-width Gaussian's batch form (wake/gaussianLocal.ts) when the
 * setup chose it, else pairwise (engine/pairDeficit.ts: rotor average and ground). With the
 * gradient every pair's δ and partials, and every added turbulence and its partials, are kept in the
 * workspace for the backward pass (engine/backward.ts).
 *
 * On a site that is not uniform (ws.site, engine/siteWork.ts) U and TI₀ are each turbine's own:
 * U_p (the target's free stream, and r_q = U_q, or U_p for a model whose free-stream reference is
 * the target's: TurbOPark, PyWake's WS_jlk), TI₀_p (its TI, and the source's TI in its wake and
 * added turbulence). The pointwise path only (the setup chooses no batch form then).
 */
import { thrustCoefficientAt } from '../turbine.js';
import { accumulateLinearGaussian, linearGaussianWakeRadius } from '../wake/gaussianLocal.js';
import { combineMirror, rotorAveragedDeficit } from './pairDeficit.js';
import type { WakedPass } from './pass.js';
import { fillLocalFreeStream } from './siteWork.js';

/**
 * Solves condition k. Returns false, leaving the condition unfinished, when a turbine's effective TI
 * exceeds `tiBound`, the bound the candidate screen assumed (`screened`): the direction must then be
 * solved again without it.
 */
export function forwardCondition(pass: WakedPass, k: number, tiBound: number, screened: boolean): boolean {
  const { setup, ws, n, several, nTypes, batch, withGradient, ctFreeByType } = pass;
  const { types, turbulence, pairModels, model, freeStream, useEffectiveTi: useEffTi, turbulenceSuperposition: tiSup } = setup;
  const { candStart, u, ti, ct, total, tiAcc, tiArg, coef, tSrc, typeAt } = ws;
  const U = setup.conditions.speed[k],
    ti0 = setup.conditions.turbulenceIntensity[k];
  const K = model.coefficientCount;
  const tiFactor = turbulence !== null ? turbulence.ambientFactor(ti0) : 0;
  for (let t = 0; t < nTypes; t++) ctFreeByType[t] = thrustCoefficientAt(types[t], U);
  const site = ws.site;
  if (site !== null) fillLocalFreeStream(pass, U, ti0, k);
  for (let p = 0; p < n; p++) {
    const tp = typeAt[p];
    const from = candStart[p],
      end = candStart[p + 1];
    let acc: number;
    if (batch !== null) {
      acc = accumulateLinearGaussian(batch, from, end, U, withGradient);
      if (turbulence !== null) batchTurbulence(pass, p, ti0, tiFactor);
      else {
        tiAcc[p] = 0;
        tiArg[p] = -1;
      }
    } else acc = pointwiseTarget(pass, p, U, ti0, tiFactor);
    pass.pairEvaluations += end - from;
    const tot = setup.superposition.finish(acc);
    const up = (site !== null ? site.uFree[p] : U) - tot;
    const tAcc = tiAcc[p];
    const ti0p = site !== null ? site.tiAmb[p] : ti0;
    let tip = ti0p;
    if (turbulence !== null) tip = tiSup === 'sqrmax' ? Math.sqrt(ti0p * ti0p + tAcc * tAcc) : tiSup === 'linear' ? ti0p + tAcc : ti0p + Math.sqrt(tAcc);
    total[p] = tot;
    u[p] = up;
    ti[p] = tip;
    if (pass.tiLearned) {
      if (tip > pass.tiSeen) pass.tiSeen = tip;
      if (tip > tiBound && screened) return false;
    }
    const ctp = freeStream ? ctFreeByType[tp] : thrustCoefficientAt(types[tp], up);
    ct[p] = ctp;
    (several ? pairModels[tp * (nTypes + 1)] : model).prepareSource(ctp, useEffTi ? tip : ti0p, coef, p * K);
    if (turbulence !== null) tSrc[p] = turbulence.sourceFactor(ctp);
  }
  return true;
}

/**
 * Deficits (and, interleaved, added turbulence) of target p from its candidates, pair by pair;
 * returns the superposition accumulator and leaves the turbulence accumulator and its argmax in
 * ws.tiAcc[p], ws.tiArg[p].
 */
function pointwiseTarget(pass: WakedPass, p: number, U: number, ti0: number, tiFactor: number): number {
  const { setup, ws, several, nTypes, hubVaries, sqrMax, withGradient } = pass;
  const { types, pairModels, model, points, mirror, supKind, superposition: sup, turbulence, pairTurbulence, turbulenceSuperposition: tiSup } = setup;
  const { candStart, candSrc, candDx, candDy, candDz, coef, typeAt, pair, u, ct, tSrc, pDxPow, tAdd, tDx, tDy, tCt, tTi, mirrorPartials: mp } = ws;
  const refEff = setup.referenceIsEffective,
    refTarget = setup.referenceIsTarget;
  const g = withGradient ? ws.g : null,
    gt = withGradient ? ws.gt : null;
  const K = model.coefficientCount;
  const tp = typeAt[p];
  const radius = setup.radiusByType[tp];
  const centre = points === null;
  const shared = centre && mirror && model.atDistance !== undefined;
  const site = ws.site; // a site that is not uniform: the source's own U_q and TI₀_q
  let acc = 0,
    tAcc = 0,
    arg = -1;
  for (let e = candStart[p], end = candStart[p + 1]; e < end; e++) {
    const q = candSrc[e];
    const dx = candDx[e],
      dy = candDy[e],
      dz = candDz[e];
    const off = q * K;
    const pm = several ? typeAt[q] * nTypes + tp : 0;
    const pairModel = several ? pairModels[pm] : model;
    let f: number;
    if (centre) {
      // At the rotor centre the pair is one model call (rotorAveragedDeficit's centre case, kept
      // here so that the hot loop calls the model directly).
      if (shared) {
        // With the ground, the direct wake and the image share dx: the model's dx part once.
        pairModel.atDistance!(dx, coef, off, g !== null);
        f = pairModel.deficitAtRadius!(hubVaries ? dy * dy + dz * dz : dy * dy, g);
      } else f = pairModel.deficit(dx, hubVaries ? dy * dy + dz * dz : dy * dy, coef, off, g);
      if (g) {
        const b = 5 * e;
        pair[b + 1] = g[0];
        pair[b + 2] = 2 * dy * g[1];
        pair[b + 3] = g[2];
        pair[b + 4] = g[3];
      }
    } else f = rotorAveragedDeficit(pairModel, points, radius, dx, dy, dz, hubVaries, coef, off, g, pair, 5 * e + 1);
    if (mirror) {
      // The source's image below the ground: the same wake, 2·h_source further down. The two
      // deficits of the pair are combined by the superposition rule (PyWake's Mirror).
      const dzm = dz + 2 * types[typeAt[q]].hubHeight;
      let fm: number;
      if (centre) {
        fm = shared ? pairModel.deficitAtRadius!(dy * dy + dzm * dzm, g) : pairModel.deficit(dx, dy * dy + dzm * dzm, coef, off, g);
        if (g) {
          mp[0] = g[0];
          mp[1] = 2 * dy * g[1];
          mp[2] = g[2];
          mp[3] = g[3];
        }
      } else fm = rotorAveragedDeficit(pairModel, points, radius, dx, dy, dzm, true, coef, off, g, mp, 0);
      f = combineMirror(supKind, f, fm, g ? pair : null, 5 * e, mp);
    }
    const ref = refEff ? u[q] : site !== null ? site.uFree[refTarget ? p : q] : U;
    const deficit = ref * f;
    if (g) pair[5 * e] = f;
    acc = sup.add(acc, deficit);
    if (turbulence !== null) {
      const cw = dz === 0 ? Math.abs(dy) : Math.sqrt(dy * dy + dz * dz);
      const add =
        sqrMax && tSrc[q] * (site !== null ? site.tiFac[q] : tiFactor) * pDxPow[e] <= tAcc
          ? 0
          : (several ? pairTurbulence![pm] : turbulence).added(dx, cw, ct[q], site !== null ? site.tiAmb[q] : ti0, pairModel, coef, off, gt);
      if (gt) {
        tAdd[e] = add;
        tDx[e] = gt[0];
        tDy[e] = dz === 0 ? (dy < 0 ? -gt[1] : gt[1]) : cw > 0 ? gt[1] * (dy / cw) : 0;
        tCt[e] = gt[2];
        tTi[e] = gt[3];
      }
      if (tiSup === 'sqrmax') {
        if (add > tAcc) {
          tAcc = add;
          arg = e;
        }
      } else if (tiSup === 'linear') tAcc += add;
      else tAcc += add * add;
    }
  }
  ws.tiAcc[p] = tAcc;
  ws.tiArg[p] = arg;
  return acc;
}

/**
 * Added turbulence of target p on the batch path, nearest sources first: with sqrmax the largest
 * usually comes first and the bound c₀a^c₁·TI₀^c₂·(dx/D)^c₃ then rules most others out without
 * evaluating them. Only inside the wake radius 2σ plus the target rotor.
 */
function batchTurbulence(pass: WakedPass, p: number, ti0: number, tiFactor: number): void {
  const { setup, ws, several, nTypes, sqrMax, withGradient } = pass;
  const { pairModels, model, turbulence, pairTurbulence, turbulenceSuperposition: tiSup } = setup;
  const { candStart, candSrc, candDx, candDy, candDz, coef, typeAt, ct, tSrc, pDxPow, tAdd, tDx, tDy, tCt, tTi } = ws;
  const gt = withGradient ? ws.gt : null;
  const K = model.coefficientCount;
  const tp = typeAt[p];
  const radius = setup.radiusByType[tp];
  let tAcc = 0,
    arg = -1;
  for (let e = candStart[p + 1] - 1; e >= candStart[p]; e--) {
    const q = candSrc[e];
    let add = 0;
    if (!(sqrMax && tSrc[q] * tiFactor * pDxPow[e] <= tAcc)) {
      const off = q * K;
      const dx = candDx[e],
        dy = candDy[e],
        dz = candDz[e];
      const cw = dz === 0 ? Math.abs(dy) : Math.sqrt(dy * dy + dz * dz);
      const reachT = linearGaussianWakeRadius(coef, off, dx) + radius;
      const pm = several ? typeAt[q] * nTypes + tp : 0;
      if (cw * cw < reachT * reachT)
        add = (several ? pairTurbulence![pm] : turbulence!).added(dx, cw, ct[q], ti0, several ? pairModels[pm] : model, coef, off, gt);
      if (gt && add !== 0) {
        tAdd[e] = add;
        tDx[e] = gt[0];
        tDy[e] = dz === 0 ? (dy < 0 ? -gt[1] : gt[1]) : gt[1] * (dy / cw);
        tCt[e] = gt[2];
        tTi[e] = gt[3];
      }
    }
    if (gt && add === 0) {
      tAdd[e] = 0;
      tDx[e] = 0;
      tDy[e] = 0;
      tCt[e] = 0;
      tTi[e] = 0;
    }
    if (tiSup === 'sqrmax') {
      if (add > tAcc) {
        tAcc = add;
        arg = e;
      }
    } else if (tiSup === 'linear') tAcc += add;
    else tAcc += add * add;
  }
  ws.tiAcc[p] = tAcc;
  ws.tiArg[p] = arg;
}
