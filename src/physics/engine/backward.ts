/**
 * The adjoint of one condition's forward pass (reverse mode, by hand). It starts from the
 * objective's partials ∂J/∂u_p (ws.uBar, written by the objective term: engine/objective.ts) and
 * visits the turbines in reverse downstream order, so that when turbine p is reached every turbine
 * it wakes has already pushed ∂J/∂δ_qp into p's adjoints ū_p, C̄t_p, T̄I_p; p is closed with
 * ū_p += C̄t_p · Ct′(u_p) before ū_p goes to p's own sources:
 *
 *   δ̄ = ∂S/∂δ · (−ū_p),   ū_q += δ̄ f (effective reference),   C̄t_q += δ̄ r ∂δ/∂Ct,   T̄I_q += δ̄ r ∂δ/∂TI
 *
 * and the pair's ∂/∂dx, ∂/∂dy to both ends in the wind frame (ws.gxw, ws.gyw), which the solve
 * turns to the layout frame once per direction. The effective TI of p feeds p's own wake through
 * the added turbulence (engine/turbulenceAdjoint.ts).
 */
import { thrustSlopeAt } from '../turbine.js';
import type { WakedPass } from './pass.js';
import { addTurbulenceAdjoint } from './turbulenceAdjoint.js';

export function backwardCondition(pass: WakedPass, k: number): void {
  const { setup, ws, n } = pass;
  const { types, freeStream, supKind, turbulence, useEffectiveTi: useEffTi, turbulenceSuperposition: tiSup } = setup;
  const refEff = setup.referenceIsEffective,
    refTarget = setup.referenceIsTarget;
  const U = setup.conditions.speed[k];
  const { candStart, candSrc, pair, u, ti, total, tiAcc, tiArg, tAdd, uBar, ctBar, tiBar, gxw, gyw, typeAt } = ws;
  // A site that is not uniform (engine/siteWork.ts): U_q and TI₀_q are the turbines' own and carry adjoints.
  const site = ws.site;
  // The source TI adjoint matters only when it feeds back into wakes (effective TI with added turbulence) or the site's TI varies.
  const tiUsed = (useEffTi && turbulence !== null) || site !== null;
  for (let p = 0; p < n; p++) {
    ctBar[p] = 0;
    tiBar[p] = 0;
  }
  for (let p = n - 1; p >= 0; p--) {
    // Every turbine p wakes has been visited: close p as a source.
    if (!freeStream) uBar[p] += ctBar[p] * thrustSlopeAt(types[typeAt[p]], u[p]);
    const ub = uBar[p];
    const start = candStart[p],
      end = candStart[p + 1];
    if (ub !== 0) {
      const tot = total[p];
      for (let e = start; e < end; e++) {
        const b = 5 * e;
        const q = candSrc[e];
        const f = pair[b];
        // A pair outside the wake (everything 0) contributes nothing.
        if (f === 0 && pair[b + 1] === 0 && pair[b + 2] === 0 && pair[b + 3] === 0 && pair[b + 4] === 0) continue;
        const ref = refEff ? u[q] : site !== null ? site.uFree[refTarget ? p : q] : U;
        const deficit = ref * f;
        // ∂S/∂δ inline for the three rules (superposition/*.ts give the same).
        const dBar = supKind === 0 ? -ub : supKind === 1 ? (tot > 0 ? (-ub * deficit) / tot : 0) : deficit === tot && tot > 0 ? -ub : 0;
        if (dBar === 0) continue;
        if (refEff) uBar[q] += dBar * f;
        else if (site !== null) site.refBar[refTarget ? p : q] += dBar * f;
        const fBar = dBar * ref;
        const gx = fBar * pair[b + 1],
          gy = fBar * pair[b + 2];
        gxw[p] += gx;
        gxw[q] -= gx;
        gyw[p] += gy;
        gyw[q] -= gy;
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
