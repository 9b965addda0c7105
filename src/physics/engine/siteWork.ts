/**
 * The waked solve on a site that is not uniform (physics/site/site.ts): each turbine's local free
 * stream U_p = U·s_p and ambient TI₀_p for the condition being solved, and their adjoints. The
 * deficits are PyWake's (py_wake/wind_farm_models/engineering_models.py, PropagateDownwind):
 *
 *   u_p  = U_p − S_q( r_q · δ_qp )        r_q = U_q (the source's local free stream, `WS_ilk`)
 *                                          or u_q (its effective speed, `WS_eff_ilk`) by the model's reference
 *   TI_p = TI₀_p ⊕ I₊_qp                  I₊_qp from the source's ambient TI₀_q (`TI_ilk`)
 *   wake of q from TI₀_q, or from TI_q with effective TI (`TI_eff_ilk`)
 *
 * The adjoint (after the reverse pass of engine/backward.ts, which has left ū_p, the reference
 * adjoints r̄_q of the free-stream reference and T̄I_q, the adjoint of the TI each source's wake was
 * made from) gives Ū_p and T̄I₀_p, and the layout-frame gradient through the fields:
 * ∂J/∂x_p += U·Ū_p·∂s_p/∂x + T̄I₀_p·∂T_p/∂x (ws.site.gsx, by position), and with respect to the
 * turbine's hub height ∂J/∂h_p = U·Ū_p·∂S_p/∂h + T̄I₀_p·∂T_p/∂h with S_p = s·f_shear, ∂S_p/∂h =
 * ∂s/∂h·f + s·f'(h) (ws.site.gsh). The deficits themselves do not depend on h when every turbine has
 * the same hub height and there is no ground mirror (the vertical offsets are 0); the optimizer
 * refuses hub-height variables otherwise (optimize/hubHeight.ts), so gsh is the whole ∂J/∂h_p there.
 *
 * A per-point Weibull (site/siteWeibull.ts) gives each turbine its own probability P_p of the
 * condition (work.prob, handed to the objective term as ConditionFlow.weightAt); the term returns
 * ∂J/∂P_p (work.probBar) and ∂J/∂x_p gains P̄_p·∂P_p/∂x (not ∂/∂h: the optimizer refuses hub-height
 * variables on a Weibull site).
 */
import { sampleSite } from '../site/site.js';
import { weibullProbability } from '../site/siteWeibull.js';
import type { WakedPass } from './pass.js';
import type { SiteWork } from './siteWorkspace.js';

/** Samples the site at every turbine for direction d (after the ordering). */
export function sampleSiteForDirection(pass: WakedPass, x: Float64Array, y: Float64Array, d: number): void {
  const { setup, ws } = pass;
  const work = ws.site!;
  const { types } = setup;
  sampleSite(setup.site!, x, y, ws.order, (p) => types[ws.typeAt[p]].hubHeight, setup.conditions.directionsDeg[d], work.samples);
  if (pass.withGradient) {
    work.gsx.fill(0);
    work.gsy.fill(0);
    work.gsh.fill(0);
  }
}

const dP = new Float64Array(2);

/** U_p, TI₀_p (and the screen's TI₀_p^c₂) of condition k, (U, ti0), at every position; with a per-point Weibull, P_p. */
export function fillLocalFreeStream(pass: WakedPass, U: number, ti0: number, k: number): void {
  const { setup, ws, n } = pass;
  const work = ws.site!;
  const { samples } = work;
  const tiField = setup.site!.ti !== null;
  const bins = setup.weibullBins;
  if (bins !== null) {
    const uLo = bins.lower[k],
      uHi = bins.upper[k];
    const { wf, wfDx, wfDy, wa, waDx, waDy, wk, wkDx, wkDy } = samples;
    for (let p = 0; p < n; p++) {
      work.prob[p] = weibullProbability(wf[p], wfDx[p], wfDy[p], wa[p], waDx[p], waDy[p], wk[p], wkDx[p], wkDy[p], uLo, uHi, bins.scale, dP);
      work.probDx[p] = dP[0];
      work.probDy[p] = dP[1];
    }
  }
  // Without a TI field every turbine has the rose's TI: its factor TI₀^c₂ once, not per turbine.
  const turbulence = setup.turbulence;
  const roseFactor = turbulence !== null && !tiField ? turbulence.ambientFactor(ti0) : 0;
  for (let p = 0; p < n; p++) {
    work.uFree[p] = U * samples.speed[p];
    const t = tiField ? samples.ti[p] : ti0;
    work.tiAmb[p] = t;
    if (turbulence !== null) work.tiFac[p] = tiField ? turbulence.ambientFactor(t) : roseFactor;
    work.refBar[p] = 0;
  }
}

/**
 * The site's part of condition k's adjoint, after backwardCondition: Ū_p and T̄I₀_p, and the
 * gradient through the fields into ws.site.gsx/gsy.
 */
export function siteAdjoint(pass: WakedPass, k: number): void {
  const { setup, ws, n, several, nTypes } = pass;
  const work = ws.site!;
  const { samples, tiAmb, tiAmbBar, refBar, gsx, gsy, gsh } = work;
  const { turbulence, pairTurbulence, useEffectiveTi: useEffTi, turbulenceSuperposition: tiSup } = setup;
  const { uBar, tiBar, ti, tiAcc, tiArg, tAdd, candStart, candSrc, typeAt } = ws;
  const U = setup.conditions.speed[k];
  const tiField = setup.site!.ti !== null;
  tiAmbBar.fill(0);
  if (tiField) {
    for (let p = 0; p < n; p++) {
      const tb = tiBar[p];
      if (tb === 0) continue;
      if (!useEffTi || turbulence === null) {
        tiAmbBar[p] += tb;
        continue;
      }
      // TI_p = TI₀_p ⊕ I₊: its partial with respect to TI₀_p, and the sources' TI₀ in I₊ (∂I₊/∂TI₀_q = c₂·I₊/TI₀_q).
      tiAmbBar[p] += tiSup === 'sqrmax' ? (tb * tiAmb[p]) / ti[p] : tb;
      const pushSource = (e: number, aBar: number): void => {
        const q = candSrc[e];
        const c2 = (several ? pairTurbulence![typeAt[q] * nTypes + typeAt[p]] : turbulence).ambientExponent;
        tiAmbBar[q] += (aBar * c2 * tAdd[e]) / tiAmb[q];
      };
      if (tiSup === 'sqrmax') {
        const e = tiArg[p];
        if (e >= 0) pushSource(e, (tb * tiAcc[p]) / ti[p]);
      } else {
        const root = Math.sqrt(tiAcc[p]);
        for (let e = candStart[p], end = candStart[p + 1]; e < end; e++) {
          const a = tAdd[e];
          if (a === 0) continue;
          pushSource(e, tiSup === 'linear' ? tb : (tb * a) / root);
        }
      }
    }
  }
  const weibull = setup.weibullBins !== null;
  const { probBar, probDx, probDy } = work;
  for (let p = 0; p < n; p++) {
    const ub = (uBar[p] + refBar[p]) * U;
    const tb = tiAmbBar[p];
    gsx[p] += ub * samples.speedDx[p] + (tiField ? tb * samples.tiDx[p] : 0) + (weibull ? probBar[p] * probDx[p] : 0);
    gsy[p] += ub * samples.speedDy[p] + (tiField ? tb * samples.tiDy[p] : 0) + (weibull ? probBar[p] * probDy[p] : 0);
    gsh[p] += ub * samples.speedDh[p] + (tiField ? tb * samples.tiDh[p] : 0);
  }
}

/** Adds the direction's gradient through the fields to the layout frame's gradX/gradY (and by turbine to gradH), times `scale`. */
export function addSiteGradient(
  work: SiteWork,
  order: Int32Array,
  n: number,
  scale: number,
  gradX: Float64Array,
  gradY: Float64Array,
  gradH: Float64Array,
): void {
  for (let p = 0; p < n; p++) {
    const i = order[p];
    gradX[i] += work.gsx[p] * scale;
    gradY[i] += work.gsy[p] * scale;
    gradH[i] += work.gsh[p] * scale;
  }
}
