/**
 * The Gaussian wake deficit shared by the waked-inflow forms of the Bastankhah-type models
 * (IEA37, Bastankhah & Porté-Agel 2014, Niayifar & Porté-Agel 2016, TurbOPark, Zong & Porté-Agel
 * 2020), as PyWake writes it (BastankhahGaussianDeficit._calc_deficit):
 *
 *   x  = Ct_x · D² / (8 σ²),    δ = min(1, 2a(x)) · exp(−cw² / (2 σ²))
 *
 * with 2a(·) the chosen Ct→induction relation (inductionFactor.ts), σ(dx; Ct, TI) the model's wake
 * width (a `GaussianWidth`), and Ct_x = Ct · h(dx) where a model lets the thrust grow downstream
 * (Zong: h = (1 + erf(dx / (√2 δ_w D))) / 2; otherwise h = 1). The wake radius (for added
 * turbulence) is 2σ (Niayifar & Porté-Agel 2016). Far outside the wake (exponent below −32, e^−32 ≈ 1e−14) the
 * deficit is taken as 0 and not evaluated.
 *
 * Derivatives (exact, for the reverse-mode gradient), with e = exp(−cw²/(2σ²)), t = min(1, 2a(x)):
 *   ∂δ/∂σ = e · t′(x) · (−2x/σ) + δ · cw²/σ³,   ∂δ/∂cw² = −δ/(2σ²),
 *   ∂δ/∂Ct = ∂δ/∂σ · ∂σ/∂Ct + e · t′(x) · h · D²/(8σ²),  ∂δ/∂dx = ∂δ/∂σ · ∂σ/∂dx + e · t′(x) · Ct h′ D²/(8σ²)
 */
import { twoAFunction, type TwoAFunction, type InductionName } from '../inductionFactor.js';
import type { LocalWakeModel } from './localWake.js';

/** A wake width law σ(dx; Ct, TI) with its per-source coefficients. */
export interface GaussianWidth {
  readonly coefficientCount: number;
  readonly usesTurbulence: boolean;
  prepare(ct: number, ti: number, coef: Float64Array, offset: number): void;
  /** σ in metres; g[0] = ∂σ/∂dx, g[1] = ∂σ/∂Ct, g[2] = ∂σ/∂TI. */
  sigma(dx: number, coef: Float64Array, offset: number, g: Float64Array | null): number;
  /** An upper bound of σ(dx) over Ct ≤ ctMax and every TI the evaluation can produce (or Infinity). */
  upperSigma(dx: number, ctMax: number, tiMax: number): number;
  /** Thrust growth factor h(dx) (g[0] = dh/dx); absent means h = 1. */
  growth?(dx: number, g: Float64Array | null): number;
}

/** ε(Ct) = c_ε √β, β = ½ (1 + √(1 − Ct')) / √(1 − Ct'), Ct' = min(Ct, ctlim); out[0] = dε/dCt. */
export function epsilonOfCt(ct: number, ceps: number, ctlim: number, out: Float64Array): number {
  const clipped = ct >= ctlim;
  const r = Math.sqrt(1 - (clipped ? ctlim : ct));
  const beta = (0.5 * (1 + r)) / r;
  const sqrtBeta = Math.sqrt(beta);
  out[0] = clipped ? 0 : (ceps / (2 * sqrtBeta)) * (1 / (4 * r * r * r));
  return ceps * sqrtBeta;
}

export class GaussianLocalWake implements LocalWakeModel {
  readonly coefficientCount: number;
  readonly usesTurbulence: boolean;
  readonly averagesOverRotor = false;
  private readonly twoA: TwoAFunction;
  readonly d2over8: number;
  /**
   * Set when σ = k·dx + εD (LinearGaussianWidth, no thrust growth): the engine then evaluates the
   * deficit inline from the coefficients [Ct, k, εD, ∂(εD)/∂Ct, k_TI] (same formulas as deficit()).
   */
  readonly inlineLinear: InductionName | null;
  private readonly sg = new Float64Array(3);
  private readonly hg = new Float64Array(1);
  private readonly tg = new Float64Array(1);

  constructor(
    readonly name: string,
    private readonly width: GaussianWidth,
    diameter: number,
    induction: InductionName,
  ) {
    this.coefficientCount = 1 + width.coefficientCount;
    this.usesTurbulence = width.usesTurbulence;
    this.twoA = twoAFunction(induction);
    this.d2over8 = (diameter * diameter) / 8;
    this.inlineLinear = width instanceof LinearGaussianWidth ? induction : null;
  }

  prepareSource(ct: number, ti: number, coef: Float64Array, offset: number): void {
    coef[offset] = ct;
    this.width.prepare(ct, ti, coef, offset + 1);
  }

  reach(dx: number, ctMax: number, tiMax: number): number {
    // deficit() returns 0 for cw² > 64σ² (exponent below −32); the wake radius 2σ is inside that.
    return 8 * this.width.upperSigma(dx, ctMax, tiMax) * (1 + 1e-12);
  }

  /**
   * σ (out[0]) and the thrust term x = Ct_x·D²/(8σ²) (out[1]) at dx: the centre-line quantities of
   * the weighted sum; `growth` is growthAt(dx) (it depends on dx alone, so the sum computes it once
   * per pair and direction for every speed).
   */
  centre(dx: number, growth: number, coef: Float64Array, offset: number, out: Float64Array): void {
    const sigma = this.width.sigma(dx, coef, offset + 1, null);
    out[0] = sigma;
    out[1] = coef[offset] * growth * (this.d2over8 / (sigma * sigma));
  }

  /** The width's thrust growth factor at dx (1 for widths without one). */
  growthAt(dx: number): number {
    const growth = this.width.growth;
    return growth ? growth(dx, null) : 1;
  }

  /**
   * centre() with partials (the weighted sum's gradient): out[0] = σ, out[1] = x, out[2..4] =
   * ∂σ/∂dx, ∂σ/∂Ct, ∂σ/∂TI, out[5..7] = ∂x/∂dx, ∂x/∂Ct, ∂x/∂TI. The values equal centre()'s bit for bit.
   */
  centreWithPartials(dx: number, coef: Float64Array, offset: number, out: Float64Array): void {
    const sg = this.sg;
    const sigma = this.width.sigma(dx, coef, offset + 1, sg);
    const growth = this.width.growth;
    const h = growth ? growth(dx, this.hg) : 1;
    const ct = coef[offset];
    const scale = this.d2over8 / (sigma * sigma);
    const x = ct * h * scale;
    const dxdSigma = (-2 * x) / sigma;
    out[0] = sigma;
    out[1] = x;
    out[2] = sg[0];
    out[3] = sg[1];
    out[4] = sg[2];
    out[5] = dxdSigma * sg[0] + (growth ? ct * this.hg[0] * scale : 0);
    out[6] = dxdSigma * sg[1] + h * scale;
    out[7] = dxdSigma * sg[2];
  }

  /** 2a(x) of the model's Ct→induction relation. */
  twoAOf(x: number): number {
    return this.twoA(x, null);
  }

  /** 2a(x) with its slope in out[0]. */
  twoAWithSlope(x: number, out: Float64Array): number {
    return this.twoA(x, out);
  }

  wakeRadius(dx: number, coef: Float64Array, offset: number, g: Float64Array | null): number {
    const s = this.width.sigma(dx, coef, offset + 1, g);
    if (g) {
      g[0] *= 2;
      g[1] *= 2;
      g[2] *= 2;
    }
    return this.wakeRadiusOf(s);
  }

  /** The wake radius of a wake of width σ (wakeRadius() without computing σ again). */
  wakeRadiusOf(sigma: number): number {
    return 2 * sigma;
  }

  /** The pair's thrust term at one distance: [h, D²/(8σ²), x, min(1, 2a(x)), its slope] (pairThrust). */
  private readonly pt = new Float64Array(5);
  /** The pair set by atDistance: [σ, σ², Ct, dx, thrust computed (1) or not (0)]. */
  private readonly pd = new Float64Array(5);
  private pGradient = false;

  deficit(dx: number, cw2: number, coef: Float64Array, offset: number, g: Float64Array | null): number {
    const sigma = this.width.sigma(dx, coef, offset + 1, g ? this.sg : null);
    const s2 = sigma * sigma;
    if (cw2 > 64 * s2) {
      if (g) {
        g[0] = 0;
        g[1] = 0;
        g[2] = 0;
        g[3] = 0;
      }
      return 0;
    }
    const ct = coef[offset];
    this.pairThrust(dx, ct, s2, g !== null, this.pt);
    return this.atRadius(cw2, sigma, s2, ct, this.pt, g);
  }

  /**
   * The part of deficit() that depends on dx only, for one source: kept in the model until the next
   * call, then deficitAtRadius(cw², g) for each point at that distance (bit for bit deficit()).
   */
  atDistance(dx: number, coef: Float64Array, offset: number, withGradient: boolean): void {
    const sigma = this.width.sigma(dx, coef, offset + 1, withGradient ? this.sg : null);
    const pd = this.pd;
    pd[0] = sigma;
    pd[1] = sigma * sigma;
    pd[2] = coef[offset];
    pd[3] = dx;
    pd[4] = 0;
    this.pGradient = withGradient;
  }

  /** δ at squared crosswind distance cw² of the pair set by atDistance (g as in deficit(); the gradient asked there). */
  deficitAtRadius(cw2: number, g: Float64Array | null): number {
    const pd = this.pd;
    if (cw2 > 64 * pd[1]) {
      if (g) {
        g[0] = 0;
        g[1] = 0;
        g[2] = 0;
        g[3] = 0;
      }
      return 0;
    }
    // The thrust term only once a point is inside the wake (as deficit() skips it outside).
    if (pd[4] === 0) {
      this.pairThrust(pd[3], pd[2], pd[1], this.pGradient, this.pt);
      pd[4] = 1;
    }
    return this.atRadius(cw2, pd[0], pd[1], pd[2], this.pt, g);
  }

  /** The thrust term of a pair at dx with σ² = s2 into out: [h, D²/(8σ²), x = Ct·h·D²/(8σ²), t = min(1, 2a(x)), dt/dx]. */
  private pairThrust(dx: number, ct: number, s2: number, withGradient: boolean, out: Float64Array): void {
    const growth = this.width.growth;
    const h = growth ? growth(dx, withGradient ? this.hg : null) : 1;
    const scale = this.d2over8 / s2;
    const x = ct * h * scale;
    let t = this.twoA(x, withGradient ? this.tg : null);
    let dt = withGradient ? this.tg[0] : 0;
    if (t >= 1) {
      t = 1;
      dt = 0;
    }
    out[0] = h;
    out[1] = scale;
    out[2] = x;
    out[3] = t;
    out[4] = dt;
  }

  /** δ = t·exp(−cw²/(2σ²)) of a pair inside the wake, with its partials into g (header). */
  private atRadius(cw2: number, sigma: number, s2: number, ct: number, th: Float64Array, g: Float64Array | null): number {
    const e = Math.exp(-cw2 / (2 * s2));
    const f = th[3] * e;
    if (g) {
      const sg = this.sg,
        dt = th[4],
        x = th[2],
        scale = th[1];
      const dfds = e * dt * ((-2 * x) / sigma) + (f * cw2) / (s2 * sigma);
      const edt = e * dt * scale;
      g[0] = dfds * sg[0] + (this.width.growth ? edt * ct * this.hg[0] : 0);
      g[1] = -f / (2 * s2);
      g[2] = dfds * sg[1] + edt * th[0];
      g[3] = dfds * sg[2];
    }
    return f;
  }
}

/** Madsen's polynomial a = c₁Ct + c₂Ct² + c₃Ct³ (inductionFactor.ts), for the batch form below. */
const MADSEN = [0.246, 0.0586, 0.0883];

/** What the batch form reads of one target's candidate sources (engine/workspace.ts arrays). */
export interface LinearGaussianBatch {
  candSrc: Int32Array;
  candDx: Float64Array;
  candDy: Float64Array;
  candDz: Float64Array;
  coef: Float64Array;
  coefCount: number;
  /** D²/8 of the source by position (several types), else null with `d2over8` the one type's. */
  d2At: Float64Array | null;
  d2over8: number;
  hubVaries: boolean;
  madsen: boolean;
  /** Source effective speeds by position when the deficit's reference is the source's speed, else null. */
  uRef: Float64Array | null;
  /** 0 linear, 1 squared sum, 2 max (engine/wakedSetup.ts superpositionKind). */
  supKind: number;
  /** Per candidate pair e: [5e] δ, [5e+1..4] ∂δ/∂dx, ∂δ/∂dy, ∂δ/∂Ct, ∂δ/∂TI (written when `withGradient`). */
  pair: Float64Array;
}

/**
 * The deficits of candidate pairs [from, to) on one target, folded into the superposition
 * accumulator `acc0` (returned): the linear-width Gaussian (LinearGaussianWidth, no thrust growth) at
 * the rotor centre, from the coefficients [Ct, k, εD, ∂(εD)/∂Ct, k_TI] that prepareSource wrote. It
 * is `deficit()` above for this width, evaluated with 1/σ² computed once per pair (the waked
 * engine's fast path, chosen once at setup); exponent below −32 gives 0 as there.
 */
export function accumulateLinearGaussian(b: LinearGaussianBatch, from: number, to: number, U: number, withGradient: boolean): number {
  const { candSrc, candDx, candDy, candDz, coef, pair, d2At, d2over8, hubVaries, madsen, uRef, supKind } = b;
  const K = b.coefCount;
  let acc = 0;
  for (let e = from; e < to; e++) {
    const off = candSrc[e] * K;
    const dx = candDx[e],
      dy = candDy[e];
    const k = coef[off + 1];
    const sigma = k * dx + coef[off + 2];
    const s2 = sigma * sigma,
      dy2 = hubVaries ? dy * dy + candDz[e] * candDz[e] : dy * dy;
    if (dy2 > 64 * s2) {
      if (withGradient) {
        const o = 5 * e;
        pair[o] = 0;
        pair[o + 1] = 0;
        pair[o + 2] = 0;
        pair[o + 3] = 0;
        pair[o + 4] = 0;
      }
      continue;
    }
    const invSigma = 1 / sigma,
      invS2 = invSigma * invSigma;
    const scale = (d2At !== null ? d2At[candSrc[e]] : d2over8) * invS2;
    const xx = coef[off] * scale;
    let t: number,
      dt = 0;
    if (madsen) {
      t = 2 * xx * (MADSEN[0] + xx * (MADSEN[1] + xx * MADSEN[2]));
      if (t >= 1) t = 1;
      else if (withGradient) dt = 2 * (MADSEN[0] + xx * (2 * MADSEN[1] + xx * 3 * MADSEN[2]));
    } else if (xx < 1) {
      const r = Math.sqrt(1 - xx);
      t = 1 - r;
      if (withGradient) dt = 0.5 / r;
    } else t = 1;
    const ex = Math.exp(-0.5 * dy2 * invS2);
    const f = t * ex;
    const deficit = (uRef !== null ? uRef[candSrc[e]] : U) * f;
    if (supKind === 0) acc += deficit;
    else if (supKind === 1) acc += deficit * deficit;
    else if (deficit > acc) acc = deficit;
    if (withGradient) {
      const dfds = (ex * dt * -2 * xx + f * dy2 * invS2) * invSigma;
      const o = 5 * e;
      pair[o] = f;
      pair[o + 1] = dfds * k;
      pair[o + 2] = -f * dy * invS2;
      pair[o + 3] = dfds * coef[off + 3] + ex * dt * scale;
      pair[o + 4] = dfds * coef[off + 4] * dx;
    }
  }
  return acc;
}

/** The wake radius 2σ of the linear width from its coefficients (wakeRadius() without partials). */
export function linearGaussianWakeRadius(coef: Float64Array, off: number, dx: number): number {
  return 2 * (coef[off + 1] * dx + coef[off + 2]);
}

/**
 * σ = k·dx + ε·D with k = k₀ + k_TI·TI (Bastankhah 2014: k_TI = 0; Niayifar 2016: k = a₁TI + a₂)
 * and ε either c_ε√β(Ct) or a constant. Coefficients: [k, εD, ∂(εD)/∂Ct, k_TI].
 */
export class LinearGaussianWidth implements GaussianWidth {
  readonly coefficientCount = 4;
  readonly usesTurbulence: boolean;
  private readonly eg = new Float64Array(1);
  constructor(
    private readonly k0: number,
    private readonly kTi: number,
    private readonly diameter: number,
    /** c_ε, or null for a constant ε. */
    private readonly ceps: number | null,
    private readonly epsConstantOrCtlim: number,
  ) {
    this.usesTurbulence = kTi !== 0;
  }
  prepare(ct: number, ti: number, coef: Float64Array, o: number): void {
    coef[o] = this.k0 + this.kTi * ti;
    if (this.ceps === null) {
      coef[o + 1] = this.epsConstantOrCtlim * this.diameter;
      coef[o + 2] = 0;
    } else {
      coef[o + 1] = epsilonOfCt(ct, this.ceps, this.epsConstantOrCtlim, this.eg) * this.diameter;
      coef[o + 2] = this.eg[0] * this.diameter;
    }
    coef[o + 3] = this.kTi;
  }
  upperSigma(dx: number, ctMax: number, tiMax: number): number {
    if (this.kTi !== 0 && !Number.isFinite(tiMax)) return Infinity;
    // ε grows with Ct (β does) up to the cap.
    const eps = this.ceps === null ? this.epsConstantOrCtlim : epsilonOfCt(Math.min(ctMax, 1), this.ceps, this.epsConstantOrCtlim, this.eg);
    return (this.k0 + Math.max(this.kTi * tiMax, 0)) * Math.max(dx, 0) + eps * this.diameter;
  }
  sigma(dx: number, coef: Float64Array, o: number, g: Float64Array | null): number {
    const k = coef[o];
    if (g) {
      g[0] = k;
      g[1] = coef[o + 2];
      g[2] = coef[o + 3] * dx;
    }
    return k * dx + coef[o + 1];
  }
}
