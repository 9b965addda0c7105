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
 *
 * On a site that is not uniform (weightedSum.ts) the turbine at position p has its own free stream
 * U_p = U·s_p and ambient TI₀_p (and, on a per-point Weibull, its own probability P_p), functions of
 * its own coordinates only: their tangents are the fields' ∂/∂x, ∂/∂y turned into the wind frame,
 * in p's own two components; they enter where U and TI₀ enter the solve.
 */
import { powerAt, powerSlopeAt, thrustCoefficientAt, thrustSlopeAt } from '../turbine.js';
import { WEIGHTED_SUM_DEFAULTS, conditionSpeed, conditionTi, downstreamFrame, type WeightedSumSetup } from './weightedSum.js';
import { createSiteSamples, sampleSite, type SiteSamples } from '../site/site.js';
import { weibullProbability } from '../site/siteWeibull.js';

export interface WeightedSumGradient {
  aepMwh: number;
  perDirectionMwh: Float64Array;
  perTurbineMwh: Float64Array;
  gradX: Float64Array;
  gradY: Float64Array;
}

/**
 * The weighted-sum AEP and its gradient with respect to every turbine coordinate, given the
 * iteration counts recorded by evaluateWeightedSum: one condition at a time, the energy and its
 * wind-frame gradient, rotated back to (x, y) per direction.
 */
export function weightedSumGradient(s: WeightedSumSetup, x: Float64Array, y: Float64Array, iterations: Int32Array): WeightedSumGradient {
  const { wind } = s;
  const n = x.length,
    nDir = wind.directionsDeg.length,
    nSpeed = wind.speeds.length;
  const mwhPerW = (wind.hoursPerYear ?? 8760) * 1e-6;
  const perDirectionMwh = new Float64Array(nDir),
    perTurbineMwh = new Float64Array(n);
  const gradX = new Float64Array(n),
    gradY = new Float64Array(n);
  const g = tangentState(s, n);
  const { order, xs, ys, idx, xw, gw } = g;

  for (let d = 0; d < nDir; d++) {
    const c = s.cosByDir[d],
      sn = s.sinByDir[d];
    downstreamFrame(x, y, c, sn, idx, xw, order, xs, ys);
    if (g.site !== null) siteOfDirection(s, g, x, y, d, c, sn);
    gw.fill(0);
    let energy = 0;
    for (let k = 0; k < nSpeed; k++) {
      // A per-point Weibull site weighs each turbine by its own probability (conditionEnergy), not by the table.
      const dk = d * nSpeed + k,
        prob = s.weibullBins !== null ? 1 : wind.probability[dk];
      if (!(prob > 0)) continue;
      if (s.weibullBins !== null) weibullOfCondition(s, g, dk);
      if (g.site !== null && s.site!.ti === null) g.site.ti.fill(conditionTi(wind, dk));
      g.ti0 = conditionTi(wind, dk);
      energy = conditionEnergy(s, g, iterations, conditionSpeed(s, dk), prob, mwhPerW, perTurbineMwh, energy);
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

/**
 * The state of one weightedSumGradient call, made once per call and reused by every condition.
 * Tangents are by downstream position p at [p·L + t], t over the wind-frame coordinates
 * (x′_0, y′_0, x′_1, …), L = 2n.
 */
interface TangentState {
  n: number;
  K: number;
  L: number;
  /** The direction's downstream order and wind-frame coordinates by position; idx, xw: scratch of downstreamFrame. */
  order: Int32Array;
  xs: Float64Array;
  ys: Float64Array;
  idx: number[];
  xw: Float64Array;
  /** By position: effective speed, Ct, source coefficients, and the tangents of speed, Ct and TI. */
  u: Float64Array;
  ct: Float64Array;
  coef: Float64Array;
  uT: Float64Array;
  ctT: Float64Array;
  tiT: Float64Array;
  /** By source position at the current step: centre deficit, convection speed, σ², local deficit, crosswind offset, weighted; and their tangents. */
  usc: Float64Array;
  uc: Float64Array;
  s2: Float64Array;
  us: Float64Array;
  hcw: Float64Array;
  inWeighted: Uint8Array;
  uscT: Float64Array;
  ucT: Float64Array;
  s2T: Float64Array;
  usT: Float64Array;
  hT: Float64Array;
  /** Per-source partials of one iteration's U_c* (and of Σ w u) with respect to that source's quantities. */
  gUsc: Float64Array;
  gUc: Float64Array;
  gS2: Float64Array;
  gH: Float64Array;
  /** Tangents of one source's σ, x and reference speed; of U_c, U_c*, the next U_c*, Σ w u, the plain sum. */
  sigT: Float64Array;
  xT: Float64Array;
  refT: Float64Array;
  GT: Float64Array;
  ucStarT: Float64Array;
  nextT: Float64Array;
  UsT: Float64Array;
  restT: Float64Array;
  /** Wind-frame gradient of the direction's energy (MWh). */
  gw: Float64Array;
  /** Scratch of the model's and the turbulence model's partials. */
  cp: Float64Array;
  tg: Float64Array;
  ag: Float64Array;
  agBest: Float64Array;
  /** The current direction's cos and sin (the site's partials turn with them). */
  cosSin: Float64Array;
  /** Scalars of the current step: plain sum of the unweighted sources, whether any is weighted, Σ w u, U_c*. */
  linear: number;
  hasWeighted: boolean;
  Us: number;
  UcStar: number;
  /** The current condition's ambient TI (its bin's, or the rose's). */
  ti0: number;
  /**
   * On a site, for the current direction by position: the speed factor s_p, the ambient TI₀_p and
   * P_p (per-point Weibull, for the current condition), each with its ∂/∂x′_p, ∂/∂y′_p (wind frame). Null on a uniform site.
   */
  site: {
    samples: SiteSamples;
    sp: Float64Array;
    spX: Float64Array;
    spY: Float64Array;
    ti: Float64Array;
    tiX: Float64Array;
    tiY: Float64Array;
    P: Float64Array;
    PX: Float64Array;
    PY: Float64Array;
  } | null;
}

/** Allocates the state of one call for n turbines. */
function tangentState(s: WeightedSumSetup, n: number): TangentState {
  const K = s.model.coefficientCount,
    L = 2 * n;
  const f = (m: number) => new Float64Array(m);
  return {
    n,
    K,
    L,
    order: new Int32Array(n),
    xs: f(n),
    ys: f(n),
    idx: Array.from({ length: n }, (_, i) => i),
    xw: f(n),
    u: f(n),
    ct: f(n),
    coef: f(n * K),
    uT: f(n * L),
    ctT: f(n * L),
    tiT: f(n * L),
    usc: f(n),
    uc: f(n),
    s2: f(n),
    us: f(n),
    hcw: f(n),
    inWeighted: new Uint8Array(n),
    uscT: f(n * L),
    ucT: f(n * L),
    s2T: f(n * L),
    usT: f(n * L),
    hT: f(n * L),
    gUsc: f(n),
    gUc: f(n),
    gS2: f(n),
    gH: f(n),
    sigT: f(L),
    xT: f(L),
    refT: f(L),
    GT: f(L),
    ucStarT: f(L),
    nextT: f(L),
    UsT: f(L),
    restT: f(L),
    gw: f(L),
    cp: f(8),
    tg: f(1),
    ag: f(4),
    agBest: f(4),
    cosSin: f(2),
    linear: 0,
    hasWeighted: false,
    Us: 0,
    UcStar: 0,
    ti0: s.wind.turbulenceIntensity,
    site: s.site ? { samples: createSiteSamples(n), sp: f(n), spX: f(n), spY: f(n), ti: f(n), tiX: f(n), tiY: f(n), P: f(n), PX: f(n), PY: f(n) } : null,
  };
}

/** The site at every turbine of direction d (by downstream position), its partials turned into the wind frame (cos c, sin sn). */
function siteOfDirection(s: WeightedSumSetup, g: TangentState, x: Float64Array, y: Float64Array, d: number, c: number, sn: number): void {
  const site = g.site!,
    sm = site.samples;
  const tiField = s.site!.ti !== null;
  sampleSite(s.site!, x, y, g.order, () => s.turbine.hubHeight, s.wind.directionsDeg[d], sm);
  for (let p = 0; p < g.n; p++) {
    site.sp[p] = sm.speed[p];
    site.spX[p] = sm.speedDx[p] * c + sm.speedDy[p] * sn;
    site.spY[p] = -sm.speedDx[p] * sn + sm.speedDy[p] * c;
    site.ti[p] = tiField ? sm.ti[p] : NaN; // without a TI field: the condition's (conditionEnergy)
    site.tiX[p] = tiField ? sm.tiDx[p] * c + sm.tiDy[p] * sn : 0;
    site.tiY[p] = tiField ? -sm.tiDx[p] * sn + sm.tiDy[p] * c : 0;
  }
  g.cosSin[0] = c;
  g.cosSin[1] = sn;
}

/** P_p of condition dk on a per-point Weibull site, with its wind-frame partials. */
function weibullOfCondition(s: WeightedSumSetup, g: TangentState, dk: number): void {
  const site = g.site!,
    sm = site.samples,
    bins = s.weibullBins!;
  const c = g.cosSin[0],
    sn = g.cosSin[1];
  const dP = g.cp;
  for (let p = 0; p < g.n; p++) {
    site.P[p] = weibullProbability(
      sm.wf[p],
      sm.wfDx[p],
      sm.wfDy[p],
      sm.wa[p],
      sm.waDx[p],
      sm.waDy[p],
      sm.wk[p],
      sm.wkDx[p],
      sm.wkDy[p],
      bins.lower[dk],
      bins.upper[dk],
      bins.scale,
      dP,
    );
    site.PX[p] = dP[0] * c + dP[1] * sn;
    site.PY[p] = -dP[0] * sn + dP[1] * c;
  }
}

/**
 * The energy of one condition (speed U, probability prob) of the current direction, with its
 * tangents: the downstream sweep (sources of turbine j, the recorded number of U_c iterations,
 * closing turbine j), adding each turbine's energy to `energy` (the running total of the direction,
 * returned), perTurbineMwh, and its wind-frame gradient to gw.
 */
function conditionEnergy(
  s: WeightedSumSetup,
  g: TangentState,
  iterations: Int32Array,
  U: number,
  prob: number,
  mwhPerW: number,
  perTurbineMwh: Float64Array,
  energy: number,
): number {
  const { turbine } = s;
  const { n, L, order, uT, ctT, tiT, UsT, gw, site } = g;
  uT.fill(0);
  ctT.fill(0);
  tiT.fill(0);
  for (let j = 0; j < n; j++) {
    const Lj = 2 * (j + 1);
    // The target's own free stream (on a site U·s_j, its tangent in j's own components).
    const Uj = site !== null ? U * site.sp[j] : U;
    sourcesWithTangents(s, g, j, U, Uj);
    // The U_c solve, for the recorded number of iterations.
    g.Us = 0;
    UsT.fill(0, 0, Lj);
    const count = g.hasWeighted ? iterations[j] : 0;
    g.UcStar = 10 * Uj;
    for (let it = 0; it < count; it++) {
      convectionIteration(g, j, it, Uj);
      if (site !== null) {
        g.ucStarT[2 * j] += U * site.spX[j];
        g.ucStarT[2 * j + 1] += U * site.spY[j];
      }
    }
    const uj = Uj - (g.Us + g.linear);
    closeTurbine(s, g, j, uj, U);
    // Power of turbine j in this condition (on a per-point Weibull site weighed by its own P_j).
    const oj = j * L;
    const Pj = site !== null && s.weibullBins !== null ? site.P[j] : 1;
    const power = powerAt(turbine, uj);
    const en = prob * Pj * power;
    energy += en;
    perTurbineMwh[order[j]] += en * mwhPerW;
    const pSlope = prob * Pj * powerSlopeAt(turbine, uj) * mwhPerW;
    if (pSlope !== 0) for (let a = 0; a < Lj; a++) gw[a] += pSlope * uT[oj + a];
    if (site !== null && s.weibullBins !== null) {
      gw[2 * j] += prob * power * site!.PX[j] * mwhPerW;
      gw[2 * j + 1] += prob * power * site!.PY[j] * mwhPerW;
    }
  }
  return energy;
}

/**
 * The sources of target j (speed U) and their tangents: for each upstream position q its centre
 * deficit, convection speed, σ², local deficit, crosswind offset and whether it is weighted, with
 * the tangents of each (through the distances, Ct_q, TI_q and the reference speed); sets the plain
 * sum of the unweighted sources (g.linear) and its tangent (restT), and g.hasWeighted.
 */
function sourcesWithTangents(s: WeightedSumSetup, g: TangentState, j: number, Uw: number, U: number): void {
  const { model } = s;
  const { K, L, xs, ys, u, coef, uT, ctT, tiT, usc, uc, s2, us, hcw, inWeighted, uscT, ucT, s2T, usT, hT, sigT, xT, refT, restT, cp, tg, site } = g;
  const { delta } = WEIGHTED_SUM_DEFAULTS;
  const refEff = s.referenceIsEffective,
    effTi = s.useEffectiveTi,
    invWec = s.invWec;
  const Lj = 2 * (j + 1);
  let linear = 0,
    hasWeighted = false;
  restT.fill(0, 0, Lj);
  for (let q = 0; q < j; q++) {
    const dw = xs[j] - xs[q];
    const h = (ys[j] - ys[q]) * invWec;
    model.centreWithPartials(dw, coef, q * K, cp);
    const sigma = cp[0],
      twoA = model.twoAWithSlope(cp[1], tg),
      slope = tg[0];
    // The reference: the source's effective speed, else its own free stream (on a site U·s_q).
    const ref = refEff ? u[q] : site !== null ? Uw * site.sp[q] : U;
    const inside = dw > -1e-10;
    const t = Math.min(1, twoA),
      dt = twoA < 1 ? slope : 0;
    const centreDeficit = inside ? ref * t : 0;
    const sq = sigma * sigma;
    const ex = Math.exp((-1 / (2 * sq)) * (h * h));
    const local = centreDeficit * ex;
    usc[q] = centreDeficit;
    uc[q] = ref * (1 - twoA / 2);
    s2[q] = sq;
    us[q] = local;
    hcw[q] = h;
    const weighted = local >= Math.max(delta, 1e-30) * U;
    inWeighted[q] = weighted ? 1 : 0;
    if (weighted) hasWeighted = true;
    else linear += local;
    // Tangents of σ, x (through dx, Ct_q, TI_q) and of the reference speed.
    const o = q * L;
    // tiT holds the tangent of the TI each source's wake was made from (effective, or on a site its ambient TI₀_q).
    for (let a = 0; a < Lj; a++) {
      const cT = ctT[o + a],
        tT = effTi || site !== null ? tiT[o + a] : 0;
      sigT[a] = cp[3] * cT + cp[4] * tT;
      xT[a] = cp[6] * cT + cp[7] * tT;
      refT[a] = refEff ? uT[o + a] : 0;
    }
    if (!refEff && site !== null) {
      refT[2 * q] += Uw * site.spX[q];
      refT[2 * q + 1] += Uw * site.spY[q];
    }
    sigT[2 * j] += cp[2];
    sigT[2 * q] -= cp[2];
    xT[2 * j] += cp[5];
    xT[2 * q] -= cp[5];
    const dUsDsq = (local * (h * h)) / (2 * sq * sq),
      dUsDh = (-local * h) / sq;
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
  g.linear = linear;
  g.hasWeighted = hasWeighted;
}

/**
 * Iteration `it` of the U_c solve at step j (speed U) with its tangents: U_c (G) is the largest
 * convection speed of the weighted sources at the first iteration, the previous U_c* after; with
 * weights w_q = u_c,q / G it sets g.Us = Σ w u and its tangent UsT, and g.UcStar = the new U_c*
 * and its tangent ucStarT.
 */
function convectionIteration(g: TangentState, j: number, it: number, U: number): void {
  const { L, usc, uc, s2, us, inWeighted, ucT, GT, ucStarT, nextT } = g;
  const Lj = 2 * (j + 1);
  let G: number;
  if (it === 0) {
    G = 0;
    let best = -1;
    for (let q = 0; q < j; q++)
      if (inWeighted[q] && uc[q] > G) {
        G = uc[q];
        best = q;
      }
    if (best >= 0) GT.set(ucT.subarray(best * L, best * L + Lj));
    else GT.fill(0, 0, Lj);
  } else {
    G = g.UcStar;
    GT.set(ucStarT.subarray(0, Lj));
  }
  let sumUs = 0,
    usInt = 0,
    sum1 = 0;
  for (let q = 0; q < j; q++) {
    if (!inWeighted[q]) continue;
    const wq = G !== 0 ? uc[q] / G : 1;
    sumUs += wq * us[q];
    usInt += wq * (usc[q] * 2 * Math.PI * s2[q]);
    sum1 += wq * wq * (usc[q] * usc[q] * Math.PI * s2[q]);
  }
  const sum2 = crossSumWithPartials(g, j, G);
  const N = sum1 + sum2,
    D = usInt === 0 ? 1 : usInt;
  const next = U - N / D;
  const dN = -1 / D,
    dD = usInt === 0 ? 0 : N / (D * D);
  convectionTangents(g, j, G, dN, dD);
  g.Us = sumUs;
  g.UcStar = next;
  ucStarT.set(nextT.subarray(0, Lj));
}

/**
 * The pair term of one iteration, sum2 = 2 Σ_{a<b} m_a m_b cross_ab over the weighted sources
 * (m_q = w_q u_s,q, w_q = u_c,q / G), returned; and its partials by source: gUsc (∂/∂m_q), gS2
 * (∂/∂σ_q²), gH (∂/∂Δ_q).
 */
function crossSumWithPartials(g: TangentState, j: number, G: number): number {
  const { usc, uc, s2, hcw, inWeighted, gUsc, gS2, gH } = g;
  let sum2 = 0;
  for (let q = 0; q < j; q++) {
    gUsc[q] = 0;
    gS2[q] = 0;
    gH[q] = 0;
  }
  for (let a = 0; a < j; a++) {
    if (!inWeighted[a]) continue;
    const wa = G !== 0 ? uc[a] / G : 1;
    let inner = 0;
    for (let b = a + 1; b < j; b++) {
      if (!inWeighted[b]) continue;
      const sa = s2[a],
        sb = s2[b],
        dh = Math.abs(hcw[a] - hcw[b]);
      const S = sa + sb;
      const E = Math.exp(-(dh * dh) / (2 * S));
      const cross = (2 * E * Math.PI * sa * sb) / (sa + sb);
      const ma = wa * usc[a],
        mb = (G !== 0 ? uc[b] / G : 1) * usc[b];
      inner += 2 * ma * mb * cross;
      // ∂(2 m_a m_b cross)/∂m_a, ∂m_b, ∂s_a, ∂s_b, ∂h_a (= −∂h_b).
      gUsc[a] += 2 * mb * cross;
      gUsc[b] += 2 * ma * cross;
      const mm = 2 * ma * mb;
      const P = (sa * sb) / S,
        dd = hcw[a] - hcw[b];
      const common = (P * (dh * dh)) / (2 * S * S);
      gS2[a] += mm * 2 * Math.PI * E * (common + (sb * sb) / (S * S));
      gS2[b] += mm * 2 * Math.PI * E * (common + (sa * sa) / (S * S));
      const dCrossDh = (-cross / (2 * S)) * 2 * dd;
      gH[a] += mm * dCrossDh;
      gH[b] -= mm * dCrossDh;
    }
    sum2 += inner;
  }
  return sum2;
}

/**
 * The tangents of one iteration, from U_c* = U − N/D (dN, dD its partials in N and D) and the pair
 * partials: the tangent of the new U_c* (nextT) and of Σ w u (UsT), through each weighted source's
 * u_s, u_c, σ², Δ and local deficit, and through G (tangent GT).
 */
function convectionTangents(g: TangentState, j: number, G: number, dN: number, dD: number): void {
  const { L, usc, uc, s2, us, inWeighted, uscT, ucT, s2T, usT, hT, gUsc, gUc, gS2, gH, GT, nextT, UsT } = g;
  const Lj = 2 * (j + 1);
  const wConst = G === 0;
  // Combine: ∂U_c*/∂m_q, ∂/∂s2_q, then m_q = w_q·usc_q, w_q = uc_q / G.
  nextT.fill(0, 0, Lj);
  let gG = 0,
    sG = 0;
  for (let q = 0; q < j; q++) {
    if (!inWeighted[q]) continue;
    const wq = G !== 0 ? uc[q] / G : 1,
      m = wq * usc[q];
    const gm = dN * (gUsc[q] + 2 * m * Math.PI * s2[q]) + dD * (2 * Math.PI * s2[q]);
    const gs = dN * (gS2[q] + m * m * Math.PI) + dD * (2 * Math.PI * m);
    const gh = dN * gH[q];
    const gwq = gm * usc[q];
    const gu = gm * wq;
    const gucq = wConst ? 0 : gwq / G;
    if (!wConst) {
      gG -= (gwq * uc[q]) / (G * G);
      sG -= (us[q] * uc[q]) / (G * G);
    }
    const o = q * L;
    const wUs = wConst ? 0 : us[q] / G;
    for (let a = 0; a < Lj; a++) nextT[a] += gu * uscT[o + a] + gucq * ucT[o + a] + gs * s2T[o + a] + gh * hT[o + a];
    gUc[q] = wUs; // ∂Σwu/∂uc_q
  }
  // Σ w_q u_q of this iteration (the last one is kept).
  UsT.fill(0, 0, Lj);
  for (let q = 0; q < j; q++) {
    if (!inWeighted[q]) continue;
    const wq = G !== 0 ? uc[q] / G : 1,
      o = q * L;
    for (let a = 0; a < Lj; a++) UsT[a] += wq * usT[o + a] + gUc[q] * ucT[o + a];
  }
  for (let a = 0; a < Lj; a++) {
    nextT[a] += gG * GT[a];
    UsT[a] += sG * GT[a];
  }
}

/**
 * Closes turbine j (effective speed uj) with tangents: its speed tangent −(tangent of Σ w u + of the
 * plain sum), its turbulence (ambient with the largest added turbulence of its upstream sources)
 * and that tangent when the effective TI is used, its Ct and Ct tangent, and its source coefficients.
 */
function closeTurbine(s: WeightedSumSetup, g: TangentState, j: number, uj: number, U: number): void {
  const { turbine, model, turbulence } = s;
  const { K, L, xs, ys, u, ct, coef, uT, ctT, tiT, UsT, restT, ag, agBest, site } = g;
  // On a site the turbine's own ambient TI₀_j (and each source's its own in its added turbulence).
  const ti0 = site !== null ? site.ti[j] : g.ti0;
  const effTi = s.useEffectiveTi,
    invWec = s.invWec;
  const Lj = 2 * (j + 1);
  u[j] = uj;
  const oj = j * L;
  for (let a = 0; a < Lj; a++) uT[oj + a] = -(UsT[a] + restT[a]);
  if (site !== null) {
    uT[oj + 2 * j] += U * site.spX[j];
    uT[oj + 2 * j + 1] += U * site.spY[j];
  }
  let tip = ti0,
    dTipDti0 = 1;
  if (turbulence) {
    let tMax = 0,
      best = -1;
    for (let q = 0; q < j; q++) {
      const dw = xs[j] - xs[q],
        h = (ys[j] - ys[q]) * invWec;
      const add = turbulence.added(dw, Math.abs(h), ct[q], site !== null ? site.ti[q] : ti0, model, coef, q * K, ag);
      if (add > tMax) {
        tMax = add;
        best = q;
        agBest.set(ag);
        agBest[1] *= h < 0 ? -1 : 1;
      }
    }
    tip = Math.sqrt(ti0 * ti0 + tMax * tMax);
    dTipDti0 = ti0 / tip;
    if (effTi && best >= 0) {
      const f = tMax / tip,
        o = best * L;
      for (let a = 0; a < Lj; a++) tiT[oj + a] = f * (agBest[2] * ctT[o + a] + agBest[3] * tiT[o + a]);
      tiT[oj + 2 * j] += f * agBest[0];
      tiT[oj + 2 * best] -= f * agBest[0];
      tiT[oj + 2 * j + 1] += f * agBest[1] * invWec;
      tiT[oj + 2 * best + 1] -= f * agBest[1] * invWec;
      // The added turbulence from the source's ambient TI₀_q: ∂I₊/∂TI₀_q = c₂·I₊/TI₀_q.
      if (site !== null) {
        const dA = (f * (turbulence.ambientExponent * tMax)) / site.ti[best];
        tiT[oj + 2 * best] += dA * site.tiX[best];
        tiT[oj + 2 * best + 1] += dA * site.tiY[best];
      }
    }
  }
  // On a site: the tangent of the TI the turbine's wake is made from (its effective TI, through its ambient TI₀_j; or TI₀_j itself).
  if (site !== null) {
    if (effTi) {
      tiT[oj + 2 * j] += dTipDti0 * site.tiX[j];
      tiT[oj + 2 * j + 1] += dTipDti0 * site.tiY[j];
    } else {
      tiT[oj + 2 * j] = site.tiX[j];
      tiT[oj + 2 * j + 1] = site.tiY[j];
    }
  }
  ct[j] = thrustCoefficientAt(turbine, uj);
  const ctSlope = thrustSlopeAt(turbine, uj);
  for (let a = 0; a < Lj; a++) ctT[oj + a] = ctSlope * uT[oj + a];
  model.prepareSource(ct[j], effTi ? tip : ti0, coef, j * K);
}
