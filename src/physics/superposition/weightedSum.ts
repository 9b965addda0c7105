/**
 * Zong & Porté-Agel's momentum-conserving weighted sum of wakes, with the waked-inflow solve it
 * needs (its gradient: weightedSumGradient.ts).
 *
 * H. Zong, F. Porté-Agel, "A momentum-conserving wake superposition method for wind farm power
 * prediction", J. Fluid Mech. 889 (2020) A8, in PyWake's WeightedSum form (defaults δ = 0.01,
 * max_err = 1e-3, max_iter = 5). At a target, each upstream source i has a centre-line deficit
 * u_s,i = U_ref,i·min(1, 2a(x_i)), a convection velocity u_c,i = U_ref,i·(1 − a(x_i)), a width σ_i
 * and a local deficit u_i = u_s,i·exp(−cw_i²/(2σ_i²)). Sources with u_i ≥ δ·U are combined with
 * weights u_c,i/U_c, where the global convection velocity U_c solves
 *
 *   U_c = U − (Σ_i w_i² u_s,i² π σ_i² + 2 Σ_{i<j} w_i w_j u_s,i u_s,j · 2π σ_i² σ_j²/(σ_i² + σ_j²) · e^(−Δ_ij²/(2(σ_i² + σ_j²))))
 *             / Σ_i w_i u_s,i 2π σ_i²,        w_i = u_c,i / U_c,
 *
 * (Δ_ij the crosswind distance between the two wake centres), iterated from U_c = max u_c,i; the
 * total deficit is Σ w_i u_i over those sources plus the plain sum of the others.
 *
 * The iteration stops when the largest relative change of U_c over every wind direction and speed
 * at that step of the downstream sweep is at most max_err (or after max_iter steps): PyWake solves
 * all conditions of one call together, and so the number of iterations at the j-th turbine in
 * downstream order is shared by all directions and speeds. To reproduce it, this solver sweeps the
 * j-th turbine of every direction and speed in lockstep.
 *
 * On a site that is not uniform (site/site.ts) each turbine has its own free stream U_p = U·s_p and
 * ambient TI₀_p, as in PyWake's PropagateDownwind with an XRSite: the target's U_p is the `WS_xxx`
 * of the weighted sum (the δ·U_p threshold, U_c's start and U_c* = U_p − …) and of its effective
 * speed, the source's U_q (`WS_ilk`) scales its deficit and convection speed unless the model takes
 * the source's effective speed, TI_p = TI₀_p ⊕ the added turbulence made from the source's TI₀_q;
 * with a per-point Weibull each turbine's power weighs by its own probability P_p.
 */
import { powerAt, thrustCoefficientAt, type Turbine } from '../turbine.js';
import type { WindResource } from '../windResource.js';
import type { GaussianLocalWake } from '../wake/gaussianLocal.js';
import type { CrespoHernandez } from '../turbulence/crespoHernandez.js';
import { createSiteSamples, sampleSite, type Site } from '../site/site.js';
import { weibullProbability } from '../site/siteWeibull.js';
import type { WakedSetup } from '../engine/wakedSetup.js';

export const WEIGHTED_SUM_DEFAULTS = { delta: 0.01, maxErr: 1e-3, maxIter: 5 };

export interface WeightedSumSetup {
  turbine: Turbine;
  wind: WindResource;
  model: GaussianLocalWake;
  turbulence: CrespoHernandez | null;
  referenceIsEffective: boolean;
  useEffectiveTi: boolean;
  invWec: number;
  cosByDir: Float64Array;
  sinByDir: Float64Array;
  /** A site that is not uniform, or null; with a per-point Weibull, its speed bins (wakedSetup's). */
  site: Site | null;
  weibullBins: WakedSetup['weibullBins'];
  /**
   * A time series (wakedAep.ts weightedSumSetup): `wind` is then a rose of one "speed" whose every
   * direction is one sample (its probability the sample's weight, its bin TI the sample's TI), and
   * this is each sample's speed; null for a rose.
   */
  speedOf?: Float64Array | null;
}

export interface WeightedSumResult {
  aepMwh: number;
  perDirectionMwh: Float64Array;
  perTurbineMwh: Float64Array;
  /** Effective speed, Ct and TI by [(d·nSpeed + k)·n + turbine]. */
  wsEff: Float64Array;
  ct: Float64Array;
  ti: Float64Array;
  /** Iterations of the U_c solve done at the j-th step of the sweep (shared by every condition). */
  iterations: Int32Array;
}

/**
 * The weighted-sum AEP of a layout: the downstream sweep, at each step j finding the sources of
 * turbine j in every condition, solving U_c in lockstep and closing turbine j; then the energy.
 */
export function evaluateWeightedSum(s: WeightedSumSetup, x: Float64Array, y: Float64Array): WeightedSumResult {
  const st = weightedSumState(s, x, y);
  const { n, nDir, nSpeed, nDk } = st;
  for (let j = 0; j < n; j++) {
    let anyWeighted = false;
    for (let d = 0; d < nDir; d++) {
      pairsOfDirection(s, st, j, d);
      for (let k = 0; k < nSpeed; k++) if (sourcesOfTarget(s, st, j, d * nSpeed + k)) anyWeighted = true;
    }
    if (anyWeighted) solveConvection(s, st, j);
    for (let dk = 0; dk < nDk; dk++) closeTurbine(s, st, j, dk);
  }
  return weightedSumEnergy(s, st);
}

/**
 * The state of one evaluateWeightedSum call, made once per call. Indices: condition dk = d·nSpeed + k,
 * downstream position p; by direction [d·n + p], by condition [dk·n + p].
 */
interface WeightedSumState {
  n: number;
  nDir: number;
  nSpeed: number;
  nDk: number;
  K: number;
  /** Downstream order and wind-frame coordinates of every direction, by position: [d·n + p]. */
  order: Int32Array;
  xs: Float64Array;
  ys: Float64Array;
  /** Effective speed, TI, Ct by condition and position [dk·n + p]; source coefficients at [(dk·n + p)·K]. */
  u: Float64Array;
  ti: Float64Array;
  ct: Float64Array;
  coef: Float64Array;
  /** Per condition, of the current step: U_c, U_c*, Σ w u of the weighted sources, plain sum of the others; has weighted sources. */
  Uc: Float64Array;
  UcStar: Float64Array;
  Us: Float64Array;
  rest: Float64Array;
  active: Uint8Array;
  /** Per condition and source position of the current step: centre deficit, convection speed, σ², local deficit, crosswind offset; weighted. */
  usc: Float64Array;
  uc: Float64Array;
  s2: Float64Array;
  us: Float64Array;
  hcw: Float64Array;
  inWeighted: Uint8Array;
  /** σ by condition and source position of the current step (closeTurbine's added turbulence needs the wake radius 2σ). */
  sig: Float64Array;
  /** By source position, of the current step and direction: downwind and crosswind distance (the latter divided by the WEC factor), thrust growth. */
  pairDw: Float64Array;
  pairH: Float64Array;
  pairGrowth: Float64Array;
  /** Scratch of model.centre. */
  centre: Float64Array;
  /** Iterations of the U_c solve done at the j-th step of the sweep. */
  iterations: Int32Array;
  /** On a site, by direction and position [d·n + p]: the speed factor s_p and (a TI field) the ambient TI₀_p; with a per-point Weibull P_p by [dk·n + p]. Null on a uniform site. */
  siteSpeed: Float64Array | null;
  siteTi: Float64Array | null;
  siteProb: Float64Array | null;
}

/** Allocates the state of one call and fills the downstream order and wind-frame coordinates of every direction. */
function weightedSumState(s: WeightedSumSetup, x: Float64Array, y: Float64Array): WeightedSumState {
  const { wind, model } = s;
  const n = x.length,
    nDir = wind.directionsDeg.length,
    nSpeed = wind.speeds.length,
    nDk = nDir * nSpeed;
  const K = model.coefficientCount;
  const order = new Int32Array(nDir * n),
    xs = new Float64Array(nDir * n),
    ys = new Float64Array(nDir * n);
  const idx = Array.from({ length: n }, (_, i) => i);
  const xw = new Float64Array(n);
  for (let d = 0; d < nDir; d++) downstreamFrame(x, y, s.cosByDir[d], s.sinByDir[d], idx, xw, order, xs, ys, d * n);
  const f = (m: number) => new Float64Array(m);
  const site = s.site ? siteOfState(s, x, y, order, n, nDir, nSpeed) : null;
  return {
    siteSpeed: site?.speed ?? null,
    siteTi: site?.ti ?? null,
    siteProb: site?.prob ?? null,
    n,
    nDir,
    nSpeed,
    nDk,
    K,
    order,
    xs,
    ys,
    u: f(nDk * n),
    ti: f(nDk * n),
    ct: f(nDk * n),
    coef: f(nDk * n * K),
    Uc: f(nDk),
    UcStar: f(nDk),
    Us: f(nDk),
    rest: f(nDk),
    active: new Uint8Array(nDk),
    usc: f(nDk * n),
    uc: f(nDk * n),
    s2: f(nDk * n),
    us: f(nDk * n),
    hcw: f(nDk * n),
    inWeighted: new Uint8Array(nDk * n),
    sig: f(nDk * n),
    pairDw: f(n),
    pairH: f(n),
    pairGrowth: f(n),
    centre: f(2),
    iterations: new Int32Array(n),
  };
}

/** The site sampled at every turbine of every direction (by downstream position), and per-point Weibull probabilities by condition. */
function siteOfState(s: WeightedSumSetup, x: Float64Array, y: Float64Array, order: Int32Array, n: number, nDir: number, nSpeed: number) {
  const site = s.site!,
    bins = s.weibullBins;
  const samples = createSiteSamples(n);
  const speed = new Float64Array(nDir * n),
    ti = site.ti ? new Float64Array(nDir * n) : null,
    prob = bins ? new Float64Array(nDir * nSpeed * n) : null;
  const dP = new Float64Array(2);
  for (let d = 0; d < nDir; d++) {
    sampleSite(site, x, y, order.subarray(d * n, (d + 1) * n), () => s.turbine.hubHeight, s.wind.directionsDeg[d], samples);
    for (let p = 0; p < n; p++) {
      speed[d * n + p] = samples.speed[p];
      if (ti !== null) ti[d * n + p] = samples.ti[p];
    }
    if (prob) {
      for (let k = 0; k < nSpeed; k++) {
        const dk = d * nSpeed + k;
        for (let p = 0; p < n; p++) {
          prob[dk * n + p] = weibullProbability(
            samples.wf[p],
            samples.wfDx[p],
            samples.wfDy[p],
            samples.wa[p],
            samples.waDx[p],
            samples.waDy[p],
            samples.wk[p],
            samples.wkDx[p],
            samples.wkDy[p],
            bins!.lower[dk],
            bins!.upper[dk],
            bins!.scale,
            dP,
          );
        }
      }
    }
  }
  return { speed, ti, prob };
}

/**
 * What the pairs (q, j), q upstream of target j, have in common at every speed of direction d: the
 * downwind distance, the crosswind distance (divided by the WEC factor) and the thrust growth.
 */
function pairsOfDirection(s: WeightedSumSetup, st: WeightedSumState, j: number, d: number): void {
  const { model } = s;
  const { n, xs, ys, pairDw, pairH, pairGrowth } = st;
  const invWec = s.invWec,
    row = d * n;
  for (let q = 0; q < j; q++) {
    const dw = xs[row + j] - xs[row + q];
    pairDw[q] = dw;
    pairH[q] = (ys[row + j] - ys[row + q]) * invWec;
    pairGrowth[q] = model.growthAt(dw);
  }
}

/**
 * The sources of target j (downstream position) in condition dk (pairsOfDirection done for its direction): for each upstream position q its
 * centre deficit, convection speed, σ², local deficit and crosswind offset, and whether it is
 * weighted (local deficit ≥ δ·U). Sets the condition's plain sum of the unweighted sources, whether
 * it has weighted ones, and the start of its U_c solve (Σ w u = 0, U_c = U, U_c* = 10 U). Returns
 * whether any source is weighted.
 */
function sourcesOfTarget(s: WeightedSumSetup, st: WeightedSumState, j: number, dk: number): boolean {
  const { model } = s;
  const { n, nSpeed, K, u, coef, usc, uc, s2, us, hcw, inWeighted, sig, pairDw, pairH, pairGrowth, centre, rest, active, Us, Uc, UcStar } = st;
  const { delta } = WEIGHTED_SUM_DEFAULTS;
  const refEff = s.referenceIsEffective;
  const base = dk * n;
  // On a site the target's own free stream (WS_xxx), and each source's its own (WS_ilk).
  const Uw = conditionSpeed(s, dk),
    siteSpeed = st.siteSpeed,
    row = Math.floor(dk / nSpeed) * n;
  const U = siteSpeed !== null ? Uw * siteSpeed[row + j] : Uw;
  let linear = 0,
    hasWeighted = false;
  for (let q = 0; q < j; q++) {
    const dw = pairDw[q],
      h = pairH[q];
    model.centre(dw, pairGrowth[q], coef, (base + q) * K, centre);
    const sigma = centre[0],
      twoA = model.twoAOf(centre[1]);
    const ref = refEff ? u[base + q] : siteSpeed !== null ? Uw * siteSpeed[row + q] : U;
    const centreDeficit = dw > -1e-10 ? ref * Math.min(1, twoA) : 0;
    const sq = sigma * sigma;
    const local = centreDeficit * Math.exp((-1 / (2 * sq)) * (h * h));
    const e = base + q;
    usc[e] = centreDeficit;
    uc[e] = ref * (1 - twoA / 2);
    s2[e] = sq;
    us[e] = local;
    hcw[e] = h;
    sig[e] = sigma;
    const weighted = local >= Math.max(delta, 1e-30) * U;
    inWeighted[e] = weighted ? 1 : 0;
    if (weighted) hasWeighted = true;
    else linear += local;
  }
  rest[dk] = linear;
  active[dk] = hasWeighted ? 1 : 0;
  Us[dk] = 0;
  Uc[dk] = U;
  UcStar[dk] = 10 * U;
  return hasWeighted;
}

/**
 * The U_c solve at step j, every condition in lockstep: iterates while the largest relative change
 * of U_c over the conditions with weighted sources exceeds max_err, at most max_iter times, and
 * records the count in iterations[j].
 */
function solveConvection(s: WeightedSumSetup, st: WeightedSumState, j: number): void {
  const { nDk, Uc, UcStar, active, iterations } = st;
  const { maxErr, maxIter } = WEIGHTED_SUM_DEFAULTS;
  for (let count = 0; count < maxIter; count++) {
    let worst = 0;
    for (let dk = 0; dk < nDk; dk++) if (active[dk]) worst = Math.max(worst, Math.abs((Uc[dk] - UcStar[dk]) / UcStar[dk]));
    if (!(worst > maxErr)) break;
    iterations[j] = count + 1;
    for (let dk = 0; dk < nDk; dk++) if (active[dk]) convectionStep(st, targetFreeStream(s, st, j, dk), j, dk, count);
  }
}

/** The free stream of the turbine at downstream position j in condition dk: the condition's speed, on a site times s_j. */
function targetFreeStream(s: WeightedSumSetup, st: WeightedSumState, j: number, dk: number): number {
  const U = conditionSpeed(s, dk);
  return st.siteSpeed !== null ? U * st.siteSpeed[Math.floor(dk / st.nSpeed) * st.n + j] : U;
}

/**
 * One iteration (number `count`) of the U_c solve of condition dk at step j: U_c is the largest
 * convection speed of the weighted sources at the first iteration, the previous U_c* after; with
 * weights w_q = u_c,q / U_c it sets Σ w u and the new U_c* (the formula at the top of this file).
 */
function convectionStep(st: WeightedSumState, U: number, j: number, dk: number, count: number): void {
  const { n, Uc, UcStar, Us, usc, uc, s2, us, hcw, inWeighted } = st;
  convectionUpdate(U, dk, dk * n, j, count, Uc, UcStar, Us, usc, uc, s2, us, hcw, inWeighted);
}

/**
 * One U_c iteration of target t over the sources base … base + m − 1 that are in the weighted sum
 * (inW): convectionStep's arithmetic, shared with blockage around the weighted sum
 * (weightedBlockageSolve.ts, whose targets take the sources of every position). Writes Uc[t], Us[t]
 * and the new UcStar[t].
 */
export function convectionUpdate(
  U: number,
  t: number,
  base: number,
  m: number,
  count: number,
  Uc: Float64Array,
  UcStar: Float64Array,
  Us: Float64Array,
  usc: Float64Array,
  uc: Float64Array,
  s2: Float64Array,
  us: Float64Array,
  hcw: Float64Array,
  inW: Uint8Array,
): void {
  let ucGlobal: number;
  if (count === 0) {
    ucGlobal = 0;
    for (let q = 0; q < m; q++) if (inW[base + q] && uc[base + q] > ucGlobal) ucGlobal = uc[base + q];
  } else ucGlobal = UcStar[t];
  Uc[t] = ucGlobal;
  let sumUs = 0,
    usInt = 0,
    sum1 = 0,
    sum2 = 0;
  for (let q = 0; q < m; q++) {
    if (!inW[base + q]) continue;
    const e = base + q,
      wq = ucGlobal !== 0 ? uc[e] / ucGlobal : 1;
    sumUs += wq * us[e];
    usInt += wq * (usc[e] * 2 * Math.PI * s2[e]);
    sum1 += wq * wq * (usc[e] * usc[e] * Math.PI * s2[e]);
  }
  for (let a = 0; a < m; a++) {
    if (!inW[base + a]) continue;
    const ea = base + a,
      wa = ucGlobal !== 0 ? uc[ea] / ucGlobal : 1;
    let inner = 0;
    for (let b = a + 1; b < m; b++) {
      if (!inW[base + b]) continue;
      const eb = base + b,
        wb = ucGlobal !== 0 ? uc[eb] / ucGlobal : 1;
      const sa = s2[ea],
        sb = s2[eb],
        dh = Math.abs(hcw[ea] - hcw[eb]);
      const cross = (2 * Math.exp(-(dh * dh) / (2 * (sa + sb))) * Math.PI * sa * sb) / (sa + sb);
      inner += 2 * (wa * usc[ea]) * (wb * usc[eb]) * cross;
    }
    sum2 += inner;
  }
  Us[t] = sumUs;
  UcStar[t] = U - (sum1 + sum2) / (usInt === 0 ? 1 : usInt);
}

/**
 * Closes turbine j in condition dk: its effective speed U − (Σ w u + plain sum), its turbulence
 * (ambient with the largest added turbulence of its upstream sources), its Ct, and its source
 * coefficients for the targets downstream.
 */
function closeTurbine(s: WeightedSumSetup, st: WeightedSumState, j: number, dk: number): void {
  const { turbine, model, turbulence } = s;
  const { n, nSpeed, K, xs, u, ti, ct, coef, Us, rest, hcw, sig } = st;
  const d = Math.floor(dk / nSpeed),
    U = targetFreeStream(s, st, j, dk);
  const siteTi = st.siteTi;
  const ti0 = siteTi !== null ? siteTi[d * n + j] : conditionTi(s.wind, dk);
  const base = dk * n;
  const e = base + j;
  u[e] = U - (Us[dk] + rest[dk]);
  let tip = ti0;
  if (turbulence) {
    let tMax = 0;
    for (let q = 0; q < j; q++) {
      // The pair's σ and crosswind offset as sourcesOfTarget found them (added() would compute σ again).
      const dw = xs[d * n + j] - xs[d * n + q];
      if (!(dw > 0)) continue;
      const add = turbulence.added(
        dw,
        Math.abs(hcw[base + q]),
        ct[base + q],
        siteTi !== null ? siteTi[d * n + q] : ti0,
        model,
        coef,
        (base + q) * K,
        null,
        model.wakeRadiusOf(sig[base + q]),
      );
      if (add > tMax) tMax = add;
    }
    tip = Math.sqrt(ti0 * ti0 + tMax * tMax);
  }
  ti[e] = tip;
  ct[e] = thrustCoefficientAt(turbine, u[e]);
  model.prepareSource(ct[e], s.useEffectiveTi ? tip : ti0, coef, e * K);
}

/**
 * The energy of every condition once the sweep is done: per direction, per turbine and the AEP
 * (MWh), and the effective speed, Ct and TI reordered from downstream position to turbine index.
 */
function weightedSumEnergy(s: WeightedSumSetup, st: WeightedSumState): WeightedSumResult {
  const { turbine, wind } = s;
  const { n, nDir, nSpeed, nDk, order, u, ct, ti, iterations, siteProb } = st;
  const mwhPerW = (wind.hoursPerYear ?? 8760) * 1e-6;
  const perDirectionMwh = new Float64Array(nDir),
    perTurbineMwh = new Float64Array(n);
  const wsEff = new Float64Array(nDk * n),
    ctOut = new Float64Array(nDk * n),
    tiOut = new Float64Array(nDk * n);
  for (let d = 0; d < nDir; d++) {
    let energy = 0;
    for (let k = 0; k < nSpeed; k++) {
      // A per-point Weibull site weighs each turbine by its own probability (the table is not used).
      const dk = d * nSpeed + k,
        p = siteProb !== null ? 1 : wind.probability[dk];
      for (let pos = 0; pos < n; pos++) {
        const i = order[d * n + pos],
          e = dk * n + pos;
        wsEff[dk * n + i] = u[e];
        ctOut[dk * n + i] = ct[e];
        tiOut[dk * n + i] = ti[e];
        if (!(p > 0)) continue;
        const en = (siteProb !== null ? siteProb[e] : p) * powerAt(turbine, u[e]);
        energy += en;
        perTurbineMwh[i] += en * mwhPerW;
      }
    }
    perDirectionMwh[d] = energy * mwhPerW;
  }
  let aepMwh = 0;
  for (let d = 0; d < nDir; d++) aepMwh += perDirectionMwh[d];
  return { aepMwh, perDirectionMwh, perTurbineMwh, wsEff, ct: ctOut, ti: tiOut, iterations };
}

/** The free-stream speed of condition dk: the rose's speed bin, or the time series sample's speed. */
export function conditionSpeed(s: WeightedSumSetup, dk: number): number {
  return s.speedOf ? s.speedOf[dk] : s.wind.speeds[dk % s.wind.speeds.length];
}

/** The ambient TI of condition dk: its bin's (a turbulence intensity per bin), else the rose's. */
export function conditionTi(wind: WindResource, dk: number): number {
  return wind.turbulenceIntensityByBin ? wind.turbulenceIntensityByBin[dk] : wind.turbulenceIntensity;
}

/**
 * The downstream order of the turbines for one direction (cos c, sin sn of the wind-frame angle;
 * ties by index) and their wind-frame coordinates by position, written at [offset, offset + n).
 * `idx` and `xw` are scratch of length n.
 */
export function downstreamFrame(
  x: Float64Array,
  y: Float64Array,
  c: number,
  sn: number,
  idx: number[],
  xw: Float64Array,
  order: Int32Array,
  xs: Float64Array,
  ys: Float64Array,
  offset = 0,
): void {
  const n = x.length;
  for (let i = 0; i < n; i++) xw[i] = x[i] * c + y[i] * sn;
  idx.sort((a, b) => xw[a] - xw[b] || a - b);
  for (let p = 0; p < n; p++) {
    const i = idx[p];
    order[offset + p] = i;
    xs[offset + p] = xw[i];
    ys[offset + p] = -x[i] * sn + y[i] * c;
  }
}
