/**
 * Blockage with the weighted wake sum: the fixed point of PyWake's All2AllIterative with
 * `WeightedSum()` and a blockage model (py_wake/wind_farm_models/engineering_models.py: the wakes of every turbine at every
 * other superposed by Zong & Porté-Agel's weighted sum, superposition/weightedSum.ts, and the
 * induction of every turbine, blockage/selfSimilarity2020.ts, summed linearly beside them):
 *
 *   u_p  = U − WeightedSum_q(u_s,qp, u_c,qp, σ_qp, cw_qp) − U · Σ_{q ≠ p} β_qp(Ct_q)
 *   TI_p = √(TI₀² + max_q I₊,qp²)
 *
 * with each source's centre deficit, convection speed and σ from its Ct and TI, β as in
 * blockageSolve.ts (0 inside the source's wake downstream, |cw| ≤ 2σ). PyWake iterates the whole
 * farm at once (Jacobi): every pair from the previous iterate's speeds, Ct and TI, then every
 * target's weighted sum in one call, whose U_c iteration count is shared by every target and
 * condition of the call (the largest relative change of U_c over all of them against max_err,
 * at most max_iter). The fixed point depends on that count, so this solve iterates the same way —
 * all conditions and all targets together — until no speed changes by more than
 * BLOCKAGE_TOLERANCE_MS (blockageSolve.ts), at most BLOCKAGE_MAX_SWEEPS iterations (`unconverged`
 * then true). Only the deficits of sources with dw > −1e-10 count (PyWake's rotor_pos).
 *
 * On a site that is not uniform (site/site.ts) each turbine has its own free stream U_p = U·s_p and
 * ambient TI₀_p, as PyWake's All2AllIterative on an XRSite: the target's U_p is the weighted sum's
 * `WS_xxx` (the δ·U_p threshold, U_c's start, U_c* = U_p − …) and its speed's, the source's U_q
 * (`WS_ilk`) scales its deficit, convection speed and induction (SelfSimilarityDeficit2020's
 * WS_ref), TI_p = √(TI₀_p² + max I₊²) with the added turbulence from the source's TI₀_q; with a
 * per-point Weibull each turbine's power weighs by its own probability P_p.
 *
 * Scope (the solve plan's blockage declaration, blockageCovers.ts): what the weighted sum takes
 * (one turbine model without neighbours, a Gaussian wake at the rotor centre, the sqrmax added
 * turbulence, a rose with one TI). The exact gradient on a uniform site: weightedBlockageGradient.ts.
 *
 * Memory: O(conditions · N²) (every target's sources of every condition are held for the shared
 * U_c solve, as PyWake's I × I × L × K arrays).
 */
import { powerAt, thrustCoefficientAt } from './turbine.js';
import { createSiteSamples, sampleSite } from './site/site.js';
import { weibullProbability } from './site/siteWeibull.js';
import type { WeightedSumSetup } from './superposition/weightedSum.js';
import { WEIGHTED_SUM_DEFAULTS, convectionUpdate, downstreamFrame } from './superposition/weightedSum.js';
import { induction, pairGeometry, sourceGamma, SELF_SIMILARITY_2020 } from './blockage/selfSimilarity2020.js';
import { BLOCKAGE_MAX_SWEEPS, BLOCKAGE_TOLERANCE_MS } from './blockageSolve.js';
import type { SolvePlan } from './solvePlanTypes.js';
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import { weightedSumSetup, type WakedEvaluator } from './wakedAep.js';
import type { WakedResult } from './engine/solveWaked.js';
import { FarmConflictError } from './farmConflictError.js';
import { weightedBlockageGradient, type WeightedBlockageState } from './weightedBlockageGradient.js';

export interface WeightedBlockageResult {
  aepMwh: number;
  perDirectionMwh: Float64Array;
  perTurbineMwh: Float64Array;
  /** Effective speed by [(d·nSpeed + k)·n + turbine]. */
  wsEff: Float64Array;
  /** Iterations of the farm and whether the last one still moved a speed by more than the tolerance. */
  sweeps: number;
  unconverged: boolean;
  /** The converged state the gradient (weightedBlockageGradient.ts) differentiates. */
  state: WeightedBlockageState;
}

/** The fixed point of every condition of the setup's rose, and its energy. */
export function evaluateWeightedBlockage(s: WeightedSumSetup, x: Float64Array, y: Float64Array): WeightedBlockageResult {
  const { wind, model, turbine, turbulence } = s;
  const n = x.length,
    nDir = wind.directionsDeg.length,
    nSpeed = wind.speeds.length,
    nDk = nDir * nSpeed,
    nn = n * n;
  const K = model.coefficientCount;
  const f = (m: number) => new Float64Array(m);
  const order = new Int32Array(nDir * n),
    xs = f(nDir * n),
    ys = f(nDir * n);
  const idx = Array.from({ length: n }, (_, i) => i),
    xw = f(n);
  for (let d = 0; d < nDir; d++) downstreamFrame(x, y, s.cosByDir[d], s.sinByDir[d], idx, xw, order, xs, ys, d * n);
  const ti0 = wind.turbulenceIntensity;
  // Each turbine's free-stream factor s_p and ambient TI₀_p by [d·n + p] (1 and the rose's TI on a uniform site), P_p by [dk·n + p].
  const speedAt = f(nDir * n).fill(1),
    tiAt = f(nDir * n).fill(ti0);
  const bins = s.weibullBins;
  const probAt = s.site && bins ? f(nDk * n) : null;
  if (s.site) {
    const samples = createSiteSamples(n),
      dP = f(2);
    for (let d = 0; d < nDir; d++) {
      sampleSite(s.site, x, y, order.subarray(d * n, (d + 1) * n), () => turbine.hubHeight, wind.directionsDeg[d], samples);
      for (let p = 0; p < n; p++) {
        speedAt[d * n + p] = samples.speed[p];
        if (s.site.ti) tiAt[d * n + p] = samples.ti[p];
      }
      if (probAt) {
        for (let k = 0; k < nSpeed; k++) {
          const dk = d * nSpeed + k;
          for (let p = 0; p < n; p++) {
            probAt[dk * n + p] = weibullProbability(
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
  }
  /** The free stream and ambient TI of position p in condition dk. */
  const freeAt = (dk: number, p: number): number => wind.speeds[dk % nSpeed] * speedAt[Math.floor(dk / nSpeed) * n + p];
  const tiAmbAt = (dk: number, p: number): number => tiAt[Math.floor(dk / nSpeed) * n + p];
  // The iterate by condition and position [dk·n + p], the next one, and the sources' coefficients.
  const u = f(nDk * n),
    ti = f(nDk * n),
    ct = f(nDk * n),
    coef = f(nDk * n * K),
    gam = f(4 * nDk * n);
  const uNext = f(nDk * n),
    tiNext = f(nDk * n),
    block = f(nDk * n),
    rest = f(nDk * n);
  // Every (condition, target p, source q) at [(dk·n + p)·n + q]: centre deficit, convection speed, σ², local deficit, crosswind offset; weighted.
  const usc = f(nDk * nn),
    ucv = f(nDk * nn),
    s2 = f(nDk * nn),
    us = f(nDk * nn),
    hcw = f(nDk * nn),
    inW = new Uint8Array(nDk * nn);
  // By (condition, target): U_c, U_c*, Σ w u; whether it has weighted sources.
  const Uc = f(nDk * n),
    UcStar = f(nDk * n),
    Us = f(nDk * n),
    active = new Uint8Array(nDk * n);
  const geom = f(5),
    centre = f(2);
  const { delta, maxErr, maxIter } = WEIGHTED_SUM_DEFAULTS;
  const limiterDx = SELF_SIMILARITY_2020.limiter * (turbine.diameter / 2);
  for (let dk = 0; dk < nDk; dk++) {
    for (let p = 0; p < n; p++) {
      const e = dk * n + p,
        Up = freeAt(dk, p),
        c0 = thrustCoefficientAt(turbine, Up);
      u[e] = Up;
      ti[e] = tiAmbAt(dk, p);
      ct[e] = c0;
      model.prepareSource(c0, ti[e], coef, e * K);
      sourceGamma(c0, gam, 4 * e);
    }
  }
  let sweeps = 0,
    unconverged = true,
    steps = 0;
  for (let it = 0; it < BLOCKAGE_MAX_SWEEPS; it++) {
    sweeps++;
    // Every pair of every condition from the current iterate.
    for (let d = 0; d < nDir; d++) {
      const row = d * n;
      for (let k = 0; k < nSpeed; k++) {
        const dk = d * nSpeed + k,
          base = dk * n;
        for (let p = 0; p < n; p++) {
          let linear = 0,
            tMax = 0,
            beta = 0,
            weighted = false;
          const U = freeAt(dk, p),
            ti0p = tiAmbAt(dk, p);
          const tp = (base + p) * n;
          for (let q = 0; q < n; q++) {
            const e = tp + q;
            usc[e] = 0;
            us[e] = 0;
            inW[e] = 0;
            if (q === p) continue;
            const dw = xs[row + p] - xs[row + q],
              h = (ys[row + p] - ys[row + q]) * s.invWec;
            const src = base + q,
              off = src * K;
            if (dw > -1e-10) {
              model.centre(dw, model.growthAt(dw), coef, off, centre);
              const sigma = centre[0],
                twoA = model.twoAOf(centre[1]);
              const ref = s.referenceIsEffective ? u[src] : freeAt(dk, q);
              const cd = ref * Math.min(1, twoA),
                sq = sigma * sigma;
              const local = cd * Math.exp((-1 / (2 * sq)) * (h * h));
              usc[e] = cd;
              ucv[e] = ref * (1 - twoA / 2);
              s2[e] = sq;
              us[e] = local;
              hcw[e] = h;
              if (local >= Math.max(delta, 1e-30) * U) {
                inW[e] = 1;
                weighted = true;
              } else linear += local;
              if (turbulence && dw > 0) {
                const add = turbulence.added(dw, Math.abs(h), ct[src], tiAmbAt(dk, q), model, coef, off, null, model.wakeRadiusOf(sigma));
                if (add > tMax) tMax = add;
              }
            }
            // The induction, linear, but not inside the source's wake downstream.
            if (pairGeometry(dw, h, turbine.diameter / 2, geom, 0) && !(dw >= -limiterDx && Math.abs(h) <= model.wakeRadius(dw, coef, off, null))) {
              beta += freeAt(dk, q) * induction(geom, 0, ct[src], gam, 4 * src, null);
            }
          }
          const t = base + p;
          rest[t] = linear;
          block[t] = beta;
          active[t] = weighted ? 1 : 0;
          Us[t] = 0;
          Uc[t] = U;
          UcStar[t] = 10 * U;
          tiNext[t] = turbulence ? Math.sqrt(ti0p * ti0p + tMax * tMax) : ti0p;
        }
      }
    }
    // The weighted sum of every target of every condition in one call: its U_c iterations shared.
    steps = 0;
    for (let count = 0; count < maxIter; count++) {
      let worst = 0;
      for (let t = 0; t < nDk * n; t++) if (active[t]) worst = Math.max(worst, Math.abs((Uc[t] - UcStar[t]) / UcStar[t]));
      if (!(worst > maxErr)) break;
      steps++;
      for (let t = 0; t < nDk * n; t++)
        if (active[t]) convectionStep(freeAt(Math.floor(t / n), t % n), t, n, count, Uc, UcStar, Us, usc, ucv, s2, us, hcw, inW);
    }
    let change = 0;
    for (let t = 0; t < nDk * n; t++) {
      // The induction is already in m/s: each source's β times its own free stream.
      uNext[t] = freeAt(Math.floor(t / n), t % n) - (Us[t] + rest[t]) - block[t];
      change = Math.max(change, Math.abs(uNext[t] - u[t]));
    }
    for (let t = 0; t < nDk * n; t++) {
      u[t] = uNext[t];
      ti[t] = tiNext[t];
      ct[t] = thrustCoefficientAt(turbine, Math.max(u[t], 0));
      model.prepareSource(ct[t], s.useEffectiveTi ? ti[t] : tiAmbAt(Math.floor(t / n), t % n), coef, t * K);
      sourceGamma(ct[t], gam, 4 * t);
    }
    if (change < BLOCKAGE_TOLERANCE_MS) {
      unconverged = false;
      break;
    }
  }
  const mwhPerW = (wind.hoursPerYear ?? 8760) * 1e-6;
  const perDirectionMwh = f(nDir),
    perTurbineMwh = f(n),
    wsEff = f(nDk * n);
  for (let d = 0; d < nDir; d++) {
    let energy = 0;
    for (let k = 0; k < nSpeed; k++) {
      // A per-point Weibull site weighs each turbine by its own probability (the table is not used).
      const dk = d * nSpeed + k,
        prob = probAt !== null ? 1 : wind.probability[dk];
      for (let p = 0; p < n; p++) {
        const i = order[d * n + p],
          e = dk * n + p;
        wsEff[dk * n + i] = u[e];
        if (!(prob > 0)) continue;
        const en = (probAt !== null ? probAt[e] : prob) * powerAt(turbine, u[e]);
        energy += en;
        perTurbineMwh[i] += en * mwhPerW;
      }
    }
    perDirectionMwh[d] = energy * mwhPerW;
  }
  let aepMwh = 0;
  for (let d = 0; d < nDir; d++) aepMwh += perDirectionMwh[d];
  return { aepMwh, perDirectionMwh, perTurbineMwh, wsEff, sweeps, unconverged, state: { n, order, xs, ys, u, ti, ct, coef, gam, steps } };
}

/**
 * One U_c iteration (number `count`) of target t (= condition·n + position) over its weighted
 * sources: superposition/weightedSum.ts's convectionStep with the sources of every position.
 */
function convectionStep(
  U: number,
  t: number,
  n: number,
  count: number,
  Uc: Float64Array,
  UcStar: Float64Array,
  Us: Float64Array,
  usc: Float64Array,
  ucv: Float64Array,
  s2: Float64Array,
  us: Float64Array,
  hcw: Float64Array,
  inW: Uint8Array,
): void {
  convectionUpdate(U, t, t * n, n, count, Uc, UcStar, Us, usc, ucv, s2, us, hcw, inW);
}

/**
 * The evaluator of blockage with the weighted sum (aep.ts's FarmEvaluator): the AEP, and on a
 * uniform site its exact gradient (weightedBlockageGradient.ts); on a site that is not uniform the
 * gradient is not derived yet, so asking for it is refused in one line (exit 2) rather than approximated.
 */
export function createWeightedBlockageEvaluator(turbine: Turbine, wind: WindResource, plan: SolvePlan): WakedEvaluator {
  const spec = plan.model;
  const setup = weightedSumSetup(turbine, wind, spec);
  const evaluate = (x: Float64Array, y: Float64Array): WakedResult => {
    const r = evaluateWeightedBlockage(setup, x, y);
    return {
      aepMwh: r.aepMwh,
      perDirectionMwh: r.perDirectionMwh,
      perTurbineMwh: r.perTurbineMwh,
      gradX: new Float64Array(0),
      gradY: new Float64Array(0),
      pairEvaluations: 0,
    };
  };
  return {
    turbine,
    wind,
    plan,
    aep: evaluate,
    aepWithGradient: (x, y) => {
      if (setup.site)
        throw new FarmConflictError(
          {
            field: 'superposition',
            message:
              "blockage with the weighted sum on a site that is not uniform gives the AEP but not its gradient yet: optimize with 'linear' or 'sos', or without blockage",
          },
          spec,
        );
      const r = evaluateWeightedBlockage(setup, x, y);
      const g = weightedBlockageGradient(setup, r.state);
      return { aepMwh: r.aepMwh, perDirectionMwh: r.perDirectionMwh, perTurbineMwh: r.perTurbineMwh, gradX: g.gradX, gradY: g.gradY, pairEvaluations: 0 };
    },
    last: () => 0,
    atHubHeight: (h) => createWeightedBlockageEvaluator({ ...turbine, hubHeight: h }, wind, plan),
  };
}
