/**
 * The exact gradient of the weighted-sum AEP (weightedSum.ts) with respect to every turbine
 * coordinate, by forward-mode differentiation of the same computation.
 *
 * The weighted sum's U_c solve runs, at the j-th turbine of the downstream sweep, a number of
 * iterations shared by every wind direction and speed (weightedSum.ts says why). Given those counts
 * (recorded by evaluateWeightedSum), each condition's computation is independent of the others, so
 * this pass replays one condition at a time with the same counts, the same branches (which sources
 * are weighted, which one has the largest convection speed, which one adds the most turbulence,
 * min(1, 2a)) and the same floating-point expressions, carrying beside each value its tangent: the
 * derivatives with respect to the wind-frame coordinates (x′_p, y′_p) of the turbines at downstream
 * positions p. A quantity at position j depends on positions ≤ j only, so tangents are 2(j + 1)
 * long. The derivative is the exact derivative of the computed AEP wherever those discrete choices
 * do not change (almost everywhere); the fixed iteration count makes it the derivative of the
 * finite iteration, not of its converged limit.
 *
 * Within one iteration the U_c update is differentiated through scalar partials per source
 * (of U_c* with respect to w_i·u_s,i, σ_i² and Δ) before they meet the tangents, so one step costs
 * O(j² + j·2j) and a condition O(n³), like the solve itself. Wind-frame gradients are rotated
 * back to (x, y) per direction.
 */
import { powerAt, powerSlopeAt, thrustCoefficientAt, thrustSlopeAt } from '../turbine.js';
import { WEIGHTED_SUM_DEFAULTS, downstreamFrame, type WeightedSumSetup } from './weightedSum.js';

export interface WeightedSumGradient {
  aepMwh: number;
  perDirectionMwh: Float64Array;
  perTurbineMwh: Float64Array;
  gradX: Float64Array;
  gradY: Float64Array;
}

export function weightedSumGradient(s: WeightedSumSetup, x: Float64Array, y: Float64Array, iterations: Int32Array): WeightedSumGradient {
  const { turbine, wind, model, turbulence } = s;
  const n = x.length, nDir = wind.directionsDeg.length, nSpeed = wind.speeds.length;
  const K = model.coefficientCount;
  const ti0 = wind.turbulenceIntensity;
  const { delta } = WEIGHTED_SUM_DEFAULTS;
  const refEff = s.referenceIsEffective, effTi = s.useEffectiveTi, invWec = s.invWec;
  const L = 2 * n;
  const mwhPerW = (wind.hoursPerYear ?? 8760) * 1e-6;
  const perDirectionMwh = new Float64Array(nDir), perTurbineMwh = new Float64Array(n);
  const gradX = new Float64Array(n), gradY = new Float64Array(n);

  const order = new Int32Array(n), xs = new Float64Array(n), ys = new Float64Array(n);
  const idx = Array.from({ length: n }, (_, i) => i);
  const xw = new Float64Array(n);
  // By position: state and its tangents ([p·L + t]).
  const u = new Float64Array(n), ct = new Float64Array(n), coef = new Float64Array(n * K);
  const uT = new Float64Array(n * L), ctT = new Float64Array(n * L), tiT = new Float64Array(n * L);
  // By source position at the current step: values and tangents.
  const usc = new Float64Array(n), uc = new Float64Array(n), s2 = new Float64Array(n), us = new Float64Array(n), hcw = new Float64Array(n);
  const inWeighted = new Uint8Array(n);
  const uscT = new Float64Array(n * L), ucT = new Float64Array(n * L), s2T = new Float64Array(n * L), usT = new Float64Array(n * L), hT = new Float64Array(n * L);
  // Per-source partials of one iteration's U_c* (and of Σ w u) with respect to that source's quantities.
  const gUsc = new Float64Array(n), gUc = new Float64Array(n), gS2 = new Float64Array(n), gH = new Float64Array(n);
  const sigT = new Float64Array(L), xT = new Float64Array(L), refT = new Float64Array(L);
  const GT = new Float64Array(L), ucStarT = new Float64Array(L), nextT = new Float64Array(L), UsT = new Float64Array(L), restT = new Float64Array(L);
  const gw = new Float64Array(L);
  const cp = new Float64Array(8), tg = new Float64Array(1), ag = new Float64Array(4), agBest = new Float64Array(4);

  for (let d = 0; d < nDir; d++) {
    const c = s.cosByDir[d], sn = s.sinByDir[d];
    downstreamFrame(x, y, c, sn, idx, xw, order, xs, ys);
    gw.fill(0);
    let energy = 0;
    for (let k = 0; k < nSpeed; k++) {
      const dk = d * nSpeed + k, prob = wind.probability[dk];
      if (!(prob > 0)) continue;
      const U = wind.speeds[k];
      uT.fill(0); ctT.fill(0); tiT.fill(0);
      for (let j = 0; j < n; j++) {
        const Lj = 2 * (j + 1);
        let linear = 0, hasWeighted = false;
        restT.fill(0, 0, Lj);
        for (let q = 0; q < j; q++) {
          const dw = xs[j] - xs[q];
          const h = (ys[j] - ys[q]) * invWec;
          model.centreWithPartials(dw, coef, q * K, cp);
          const sigma = cp[0], twoA = model.twoAWithSlope(cp[1], tg), slope = tg[0];
          const ref = refEff ? u[q] : U;
          const inside = dw > -1e-10;
          const t = Math.min(1, twoA), dt = twoA < 1 ? slope : 0;
          const centreDeficit = inside ? ref * t : 0;
          const sq = sigma * sigma;
          const ex = Math.exp((-1 / (2 * sq)) * (h * h));
          const local = centreDeficit * ex;
          usc[q] = centreDeficit; uc[q] = ref * (1 - twoA / 2); s2[q] = sq; us[q] = local; hcw[q] = h;
          const weighted = local >= Math.max(delta, 1e-30) * U;
          inWeighted[q] = weighted ? 1 : 0;
          if (weighted) hasWeighted = true; else linear += local;
          // Tangents of σ, x (through dx, Ct_q, TI_q) and of the reference speed.
          const o = q * L;
          for (let a = 0; a < Lj; a++) {
            const cT = ctT[o + a], tT = effTi ? tiT[o + a] : 0;
            sigT[a] = cp[3] * cT + cp[4] * tT;
            xT[a] = cp[6] * cT + cp[7] * tT;
            refT[a] = refEff ? uT[o + a] : 0;
          }
          sigT[2 * j] += cp[2]; sigT[2 * q] -= cp[2];
          xT[2 * j] += cp[5]; xT[2 * q] -= cp[5];
          const dUsDsq = local * (h * h) / (2 * sq * sq), dUsDh = -local * h / sq;
          for (let a = 0; a < Lj; a++) {
            const hTa = a === 2 * j + 1 ? invWec : a === 2 * q + 1 ? -invWec : 0;
            const cdT = inside ? t * refT[a] + ref * dt * xT[a] : 0;
            const sqT = 2 * sigma * sigT[a];
            uscT[o + a] = cdT;
            ucT[o + a] = (1 - twoA / 2) * refT[a] - (ref / 2) * slope * xT[a];
            s2T[o + a] = sqT;
            hT[o + a] = hTa;
            const lT = ex * cdT + dUsDsq * sqT + dUsDh * hTa;
            usT[o + a] = lT;
            if (!weighted) restT[a] += lT;
          }
        }
        // The U_c solve, for the recorded number of iterations.
        let Us = 0;
        UsT.fill(0, 0, Lj);
        const count = hasWeighted ? iterations[j] : 0;
        let UcStar = 10 * U;
        for (let it = 0; it < count; it++) {
          let G: number;
          if (it === 0) {
            G = 0;
            let best = -1;
            for (let q = 0; q < j; q++) if (inWeighted[q] && uc[q] > G) { G = uc[q]; best = q; }
            if (best >= 0) GT.set(ucT.subarray(best * L, best * L + Lj)); else GT.fill(0, 0, Lj);
          } else {
            G = UcStar;
            GT.set(ucStarT.subarray(0, Lj));
          }
          const wConst = G === 0;
          const w = (q: number) => (G !== 0 ? uc[q] / G : 1);
          let sumUs = 0, usInt = 0, sum1 = 0, sum2 = 0;
          for (let q = 0; q < j; q++) {
            if (!inWeighted[q]) continue;
            const wq = w(q);
            sumUs += wq * us[q];
            usInt += wq * (usc[q] * 2 * Math.PI * s2[q]);
            sum1 += wq * wq * (usc[q] * usc[q] * Math.PI * s2[q]);
          }
          // Partials of N = sum1 + sum2 by source: mN (∂/∂m_q, m_q = w_q u_s,q), s2N, hN.
          for (let q = 0; q < j; q++) { gUsc[q] = 0; gS2[q] = 0; gH[q] = 0; }
          for (let a = 0; a < j; a++) {
            if (!inWeighted[a]) continue;
            const wa = w(a);
            let inner = 0;
            for (let b = a + 1; b < j; b++) {
              if (!inWeighted[b]) continue;
              const sa = s2[a], sb = s2[b], dh = Math.abs(hcw[a] - hcw[b]);
              const S = sa + sb;
              const E = Math.exp(-(dh * dh) / (2 * S));
              const cross = 2 * E * Math.PI * sa * sb / (sa + sb);
              const ma = wa * usc[a], mb = w(b) * usc[b];
              inner += 2 * ma * mb * cross;
              // ∂(2 m_a m_b cross)/∂m_a, ∂m_b, ∂s_a, ∂s_b, ∂h_a (= −∂h_b).
              gUsc[a] += 2 * mb * cross; gUsc[b] += 2 * ma * cross;
              const mm = 2 * ma * mb;
              const P = sa * sb / S, dd = hcw[a] - hcw[b];
              const common = P * (dh * dh) / (2 * S * S);
              gS2[a] += mm * 2 * Math.PI * E * (common + (sb * sb) / (S * S));
              gS2[b] += mm * 2 * Math.PI * E * (common + (sa * sa) / (S * S));
              const dCrossDh = -cross / (2 * S) * 2 * dd;
              gH[a] += mm * dCrossDh; gH[b] -= mm * dCrossDh;
            }
            sum2 += inner;
          }
          const N = sum1 + sum2, D = usInt === 0 ? 1 : usInt;
          const next = U - N / D;
          const dN = -1 / D, dD = usInt === 0 ? 0 : N / (D * D);
          // Combine: ∂U_c*/∂m_q, ∂/∂s2_q, then m_q = w_q·usc_q, w_q = uc_q / G.
          nextT.fill(0, 0, Lj);
          let gG = 0, sG = 0;
          for (let q = 0; q < j; q++) {
            if (!inWeighted[q]) continue;
            const wq = w(q), m = wq * usc[q];
            const gm = dN * (gUsc[q] + 2 * m * Math.PI * s2[q]) + dD * (2 * Math.PI * s2[q]);
            const gs = dN * (gS2[q] + m * m * Math.PI) + dD * (2 * Math.PI * m);
            const gh = dN * gH[q];
            const gwq = gm * usc[q];
            const gu = gm * wq;
            const gucq = wConst ? 0 : gwq / G;
            if (!wConst) { gG -= gwq * uc[q] / (G * G); sG -= us[q] * uc[q] / (G * G); }
            const o = q * L;
            const wUs = wConst ? 0 : us[q] / G;
            for (let a = 0; a < Lj; a++) nextT[a] += gu * uscT[o + a] + gucq * ucT[o + a] + gs * s2T[o + a] + gh * hT[o + a];
            gUc[q] = wUs; // ∂Σwu/∂uc_q
          }
          // Σ w_q u_q of this iteration (the last one is kept).
          UsT.fill(0, 0, Lj);
          for (let q = 0; q < j; q++) {
            if (!inWeighted[q]) continue;
            const wq = w(q), o = q * L;
            for (let a = 0; a < Lj; a++) UsT[a] += wq * usT[o + a] + gUc[q] * ucT[o + a];
          }
          for (let a = 0; a < Lj; a++) { nextT[a] += gG * GT[a]; UsT[a] += sG * GT[a]; }
          Us = sumUs;
          UcStar = next;
          ucStarT.set(nextT.subarray(0, Lj));
        }
        // Close step j: effective speed, turbulence, Ct and the source coefficients of turbine j.
        const uj = U - (Us + linear);
        u[j] = uj;
        const oj = j * L;
        for (let a = 0; a < Lj; a++) uT[oj + a] = -(UsT[a] + restT[a]);
        let tip = ti0;
        if (turbulence) {
          let tMax = 0, best = -1;
          for (let q = 0; q < j; q++) {
            const dw = xs[j] - xs[q], h = (ys[j] - ys[q]) * invWec;
            const add = turbulence.added(dw, Math.abs(h), ct[q], ti0, model, coef, q * K, ag);
            if (add > tMax) { tMax = add; best = q; agBest.set(ag); agBest[1] *= h < 0 ? -1 : 1; }
          }
          tip = Math.sqrt(ti0 * ti0 + tMax * tMax);
          if (effTi && best >= 0) {
            const f = tMax / tip, o = best * L;
            for (let a = 0; a < Lj; a++) tiT[oj + a] = f * (agBest[2] * ctT[o + a] + agBest[3] * tiT[o + a]);
            tiT[oj + 2 * j] += f * agBest[0]; tiT[oj + 2 * best] -= f * agBest[0];
            tiT[oj + 2 * j + 1] += f * agBest[1] * invWec; tiT[oj + 2 * best + 1] -= f * agBest[1] * invWec;
          }
        }
        ct[j] = thrustCoefficientAt(turbine, uj);
        const ctSlope = thrustSlopeAt(turbine, uj);
        for (let a = 0; a < Lj; a++) ctT[oj + a] = ctSlope * uT[oj + a];
        model.prepareSource(ct[j], effTi ? tip : ti0, coef, j * K);
        // Power of turbine j in this condition.
        const en = prob * powerAt(turbine, uj);
        energy += en;
        perTurbineMwh[order[j]] += en * mwhPerW;
        const pSlope = prob * powerSlopeAt(turbine, uj) * mwhPerW;
        if (pSlope !== 0) for (let a = 0; a < Lj; a++) gw[a] += pSlope * uT[oj + a];
      }
    }
    perDirectionMwh[d] = energy * mwhPerW;
    for (let p = 0; p < n; p++) {
      const i = order[p];
      gradX[i] += gw[2 * p] * c - gw[2 * p + 1] * sn;
      gradY[i] += gw[2 * p] * sn + gw[2 * p + 1] * c;
    }
  }
  let aepMwh = 0;
  for (let d = 0; d < nDir; d++) aepMwh += perDirectionMwh[d];
  return { aepMwh, perDirectionMwh, perTurbineMwh, gradX, gradY };
}
