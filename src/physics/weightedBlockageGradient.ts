/**
 * The exact gradient of the AEP of blockage with the weighted sum (weightedBlockageSolve.ts) with
 * respect to every turbine coordinate, on a uniform site: forward-mode differentiation of the
 * fixed point u* = F(u*; X) by its tangent fixed point
 *
 *   u̇ = ∂F/∂u · u̇ + ∂F/∂X · Ẋ        (all 2n wind-frame coordinates at once: tangents 2n long)
 *
 * iterated (Jacobi, as the solve) until no tangent moves by more than 1e-13 of the largest. F is
 * one iteration of the solve with the weighted sum's U_c iteration count fixed at the count the
 * converged solve used (shared by every condition, so given it each condition is independent and
 * is differentiated alone), the same branches (weighted sources, the largest convection speed, the
 * largest added turbulence, min(1, 2a), the wake mask of the induction). It is the derivative of
 * the computed fixed point wherever those choices do not change (almost everywhere); the
 * induction's own partials are blockage/selfSimilarity2020.ts's, the wake's the model's
 * centreWithPartials.
 *
 * Cost: per condition and tangent iteration O(N² · 2N) (each pair's tangent) plus the U_c steps'
 * O(N³ · 2N) at most; a test-sized farm, not the optimizer's fast path.
 */
import { powerSlopeAt, thrustSlopeAt } from './turbine.js';
import type { WeightedSumSetup } from './superposition/weightedSum.js';
import { WEIGHTED_SUM_DEFAULTS } from './superposition/weightedSum.js';
import { induction, pairGeometry, SELF_SIMILARITY_2020 } from './blockage/selfSimilarity2020.js';

const TANGENT_SWEEPS = 500;

/** What the solve (weightedBlockageSolve.ts) hands the gradient: the converged fixed point by condition and position [dk·n + p], the frames [d·n + p], and the U_c steps of the last iteration. */
export interface WeightedBlockageState {
  n: number;
  order: Int32Array;
  xs: Float64Array;
  ys: Float64Array;
  u: Float64Array;
  ti: Float64Array;
  ct: Float64Array;
  coef: Float64Array;
  gam: Float64Array;
  steps: number;
}

/** ∂AEP/∂x, ∂AEP/∂y (MWh per metre) at the converged state of evaluateWeightedBlockage. */
export function weightedBlockageGradient(s: WeightedSumSetup, st: WeightedBlockageState): { gradX: Float64Array; gradY: Float64Array } {
  const { wind, model, turbine, turbulence } = s;
  const { n, order, xs, ys, u, ti, ct, coef, gam, steps } = st;
  const nDir = wind.directionsDeg.length,
    nSpeed = wind.speeds.length,
    m = 2 * n,
    K = model.coefficientCount;
  const ti0 = wind.turbulenceIntensity;
  const { delta } = WEIGHTED_SUM_DEFAULTS;
  const limiterDx = SELF_SIMILARITY_2020.limiter * (turbine.diameter / 2);
  const mwhPerW = (wind.hoursPerYear ?? 8760) * 1e-6;
  const gradX = new Float64Array(n),
    gradY = new Float64Array(n);
  const f = (k: number) => new Float64Array(k);
  // Tangents by position [p·m + c]: speed, TI; the next ones.
  let du = f(n * m),
    dti = f(n * m),
    nu = f(n * m),
    nti = f(n * m);
  // Per source of the current target: values and tangents [q·m + c] of the centre deficit, convection speed, σ², local deficit.
  const vUsc = f(n),
    vUc = f(n),
    vS2 = f(n),
    vUs = f(n),
    vH = f(n),
    w = new Uint8Array(n);
  const tUsc = f(n * m),
    tUc = f(n * m),
    tS2 = f(n * m),
    tUs = f(n * m);
  const ucG = f(m),
    ucStarT = f(m),
    wq = f(n * m),
    acc = f(m),
    sInt = f(m),
    s1 = f(m),
    s2 = f(m),
    tmp = f(m);
  const cp = f(8),
    sl = f(1),
    gt = f(4),
    gb = f(3),
    geom = f(5),
    dct = f(m),
    dtiU = f(m);
  const gw = f(m);
  for (let d = 0; d < nDir; d++) {
    gw.fill(0);
    const row = d * n;
    for (let k = 0; k < nSpeed; k++) {
      const dk = d * nSpeed + k,
        base = dk * n,
        U = wind.speeds[k],
        prob = wind.probability[dk];
      if (!(prob > 0)) continue;
      du.fill(0);
      dti.fill(0);
      for (let sweep = 0; sweep < TANGENT_SWEEPS; sweep++) {
        nu.fill(0);
        nti.fill(0);
        for (let p = 0; p < n; p++) {
          let tMax = 0,
            tArg = -1,
            anyW = false;
          const out = p * m;
          // The target's sources: values, tangents; the plain sum and the induction straight into nu.
          for (let q = 0; q < n; q++) {
            w[q] = 0;
            vUs[q] = 0;
            if (q === p) continue;
            const src = base + q,
              off = src * K,
              qm = q * m;
            const dw = xs[row + p] - xs[row + q],
              h = (ys[row + p] - ys[row + q]) * s.invWec;
            // Tangents of the source's Ct and of the TI its coefficients take.
            const cts = thrustSlopeAt(turbine, Math.max(u[src], 0)) * (u[src] > 0 ? 1 : 0);
            for (let c = 0; c < m; c++) {
              dct[c] = cts * du[qm + c];
              dtiU[c] = s.useEffectiveTi ? dti[qm + c] : 0;
            }
            if (dw > -1e-10) {
              model.centreWithPartials(dw, coef, off, cp);
              const sigma = cp[0],
                x = cp[1];
              const twoA = model.twoAWithSlope(x, sl),
                sA = sl[0];
              const ref = s.referenceIsEffective ? u[src] : U;
              const capped = twoA >= 1;
              const cd = ref * Math.min(1, twoA),
                sq = sigma * sigma;
              const E = Math.exp((-1 / (2 * sq)) * (h * h));
              const local = cd * E;
              vUsc[q] = cd;
              vUc[q] = ref * (1 - twoA / 2);
              vS2[q] = sq;
              vUs[q] = local;
              vH[q] = h;
              const isW = local >= Math.max(delta, 1e-30) * U;
              for (let c = 0; c < m; c++) {
                // Geometry: dw = x'_p − x'_q, h = (y'_p − y'_q)/ξ.
                const ddw = (c === p ? 1 : 0) - (c === q ? 1 : 0);
                const dh = ((c === n + p ? 1 : 0) - (c === n + q ? 1 : 0)) * s.invWec;
                const dsig = cp[2] * ddw + cp[3] * dct[c] + cp[4] * dtiU[c];
                const dx2 = cp[5] * ddw + cp[6] * dct[c] + cp[7] * dtiU[c];
                const dref = s.referenceIsEffective ? du[qm + c] : 0;
                const dtwoA = sA * dx2;
                const dcd = dref * Math.min(1, twoA) + (capped ? 0 : ref * dtwoA);
                const dsq = 2 * sigma * dsig;
                const dE = E * (-(h * dh) / sq + (h * h * dsq) / (2 * sq * sq));
                const dl = dcd * E + cd * dE;
                tUsc[qm + c] = dcd;
                tUc[qm + c] = dref * (1 - twoA / 2) - (ref * dtwoA) / 2;
                tS2[qm + c] = dsq;
                tUs[qm + c] = dl;
                if (!isW) nu[out + c] -= dl;
              }
              if (isW) {
                w[q] = 1;
                anyW = true;
              }
              if (turbulence && dw > 0) {
                const add = turbulence.added(dw, Math.abs(h), ct[src], ti0, model, coef, off, null, model.wakeRadiusOf(sigma));
                if (add > tMax) {
                  tMax = add;
                  tArg = q;
                }
              }
            }
            if (pairGeometry(dw, h, turbine.diameter / 2, geom, 0) && !(dw >= -limiterDx && Math.abs(h) <= model.wakeRadius(dw, coef, off, null))) {
              induction(geom, 0, ct[src], gam, 4 * src, gb);
              for (let c = 0; c < m; c++) {
                const ddw = (c === p ? 1 : 0) - (c === q ? 1 : 0);
                const dh = ((c === n + p ? 1 : 0) - (c === n + q ? 1 : 0)) * s.invWec;
                nu[out + c] -= U * (gb[0] * ddw + gb[1] * dh + gb[2] * dct[c]);
              }
            }
          }
          // The weighted sum's tangent over the converged count of U_c steps.
          if (anyW && steps > 0) {
            let Uc = 0,
              UcStar = 10 * U;
            for (let count = 0; count < steps; count++) {
              if (count === 0) {
                Uc = 0;
                let arg = -1;
                for (let q = 0; q < n; q++)
                  if (w[q] && vUc[q] > Uc) {
                    Uc = vUc[q];
                    arg = q;
                  }
                for (let c = 0; c < m; c++) ucG[c] = arg >= 0 ? tUc[arg * m + c] : 0;
              } else {
                Uc = UcStar;
                ucG.set(ucStarT);
              }
              let sumUs = 0,
                usInt = 0,
                sum1 = 0,
                sum2 = 0;
              acc.fill(0);
              sInt.fill(0);
              s1.fill(0);
              s2.fill(0);
              for (let q = 0; q < n; q++) {
                if (!w[q]) continue;
                const qm = q * m,
                  wv = Uc !== 0 ? vUc[q] / Uc : 1;
                for (let c = 0; c < m; c++) wq[qm + c] = Uc !== 0 ? (tUc[qm + c] * Uc - vUc[q] * ucG[c]) / (Uc * Uc) : 0;
                sumUs += wv * vUs[q];
                const I = vUsc[q] * 2 * Math.PI * vS2[q];
                usInt += wv * I;
                const S = vUsc[q] * vUsc[q] * Math.PI * vS2[q];
                sum1 += wv * wv * S;
                for (let c = 0; c < m; c++) {
                  acc[c] += wq[qm + c] * vUs[q] + wv * tUs[qm + c];
                  const dI = 2 * Math.PI * (tUsc[qm + c] * vS2[q] + vUsc[q] * tS2[qm + c]);
                  sInt[c] += wq[qm + c] * I + wv * dI;
                  const dS = Math.PI * (2 * vUsc[q] * tUsc[qm + c] * vS2[q] + vUsc[q] * vUsc[q] * tS2[qm + c]);
                  s1[c] += 2 * wv * wq[qm + c] * S + wv * wv * dS;
                }
              }
              for (let a = 0; a < n; a++) {
                if (!w[a]) continue;
                const wa = Uc !== 0 ? vUc[a] / Uc : 1,
                  am = a * m;
                for (let b = a + 1; b < n; b++) {
                  if (!w[b]) continue;
                  const wb = Uc !== 0 ? vUc[b] / Uc : 1,
                    bm = b * m;
                  const sa = vS2[a],
                    sb = vS2[b],
                    dhv = Math.abs(vH[a] - vH[b]),
                    sgn = vH[a] - vH[b] < 0 ? -1 : 1;
                  const ssum = sa + sb,
                    ex = Math.exp(-(dhv * dhv) / (2 * ssum));
                  const cross = (2 * ex * Math.PI * sa * sb) / ssum;
                  const A = wa * vUsc[a],
                    B = wb * vUsc[b];
                  sum2 += 2 * A * B * cross;
                  for (let c = 0; c < m; c++) {
                    const dA = wq[am + c] * vUsc[a] + wa * tUsc[am + c],
                      dB = wq[bm + c] * vUsc[b] + wb * tUsc[bm + c];
                    // Δ = |h_a − h_b| and h of a source moves with the target and that source's y′.
                    const dha = ((c === n + p ? 1 : 0) - (c === n + a ? 1 : 0)) * s.invWec,
                      dhb = ((c === n + p ? 1 : 0) - (c === n + b ? 1 : 0)) * s.invWec;
                    const dDh = sgn * (dha - dhb);
                    const dss = tS2[am + c] + tS2[bm + c];
                    const dex = ex * (-(2 * dhv * dDh) / (2 * ssum) + (dhv * dhv * dss) / (2 * ssum * ssum));
                    const dprod = (tS2[am + c] * sb + sa * tS2[bm + c]) / ssum - (sa * sb * dss) / (ssum * ssum);
                    const dcross = 2 * Math.PI * ((dex * sa * sb) / ssum + ex * dprod);
                    s2[c] += 2 * (dA * B * cross + A * dB * cross + A * B * dcross);
                  }
                }
              }
              const den = usInt === 0 ? 1 : usInt;
              UcStar = U - (sum1 + sum2) / den;
              for (let c = 0; c < m; c++) {
                ucStarT[c] = usInt === 0 ? -(s1[c] + s2[c]) : -((s1[c] + s2[c]) * den - (sum1 + sum2) * sInt[c]) / (den * den);
                tmp[c] = acc[c];
              }
              void sumUs;
            }
            for (let c = 0; c < m; c++) nu[out + c] -= tmp[c];
          }
          if (turbulence && tArg >= 0) {
            const q = tArg,
              src = base + q,
              off = src * K,
              qm = q * m;
            const dw = xs[row + p] - xs[row + q],
              h = (ys[row + p] - ys[row + q]) * s.invWec;
            turbulence.added(dw, Math.abs(h), ct[src], ti0, model, coef, off, gt);
            const cts = thrustSlopeAt(turbine, Math.max(u[src], 0)) * (u[src] > 0 ? 1 : 0);
            const scale = tMax / ti[base + p];
            for (let c = 0; c < m; c++) {
              const ddw = (c === p ? 1 : 0) - (c === q ? 1 : 0);
              const dh = ((c === n + p ? 1 : 0) - (c === n + q ? 1 : 0)) * s.invWec;
              const da = gt[0] * ddw + (h < 0 ? -gt[1] : gt[1]) * dh + gt[2] * cts * du[qm + c] + (s.useEffectiveTi ? gt[3] * dti[qm + c] : 0);
              nti[out + c] = scale * da;
            }
          }
        }
        let change = 0,
          size = 0;
        for (let e = 0; e < n * m; e++) {
          change = Math.max(change, Math.abs(nu[e] - du[e]), Math.abs(nti[e] - dti[e]));
          size = Math.max(size, Math.abs(nu[e]));
        }
        [du, nu] = [nu, du];
        [dti, nti] = [nti, dti];
        if (sweep > 0 && change <= 1e-13 * size) break;
      }
      for (let p = 0; p < n; p++) {
        const slope = prob * powerSlopeAt(turbine, u[base + p]);
        for (let c = 0; c < m; c++) gw[c] += slope * du[p * m + c];
      }
    }
    // Wind frame (x′ = x c + y s, y′ = −x s + y c) back to the layout's, by turbine index.
    const c0 = s.cosByDir[d],
      s0 = s.sinByDir[d];
    for (let p = 0; p < n; p++) {
      const i = order[row + p];
      gradX[i] += (gw[p] * c0 - gw[n + p] * s0) * mwhPerW;
      gradY[i] += (gw[p] * s0 + gw[n + p] * c0) * mwhPerW;
    }
  }
  return { gradX, gradY };
}
