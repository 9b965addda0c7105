/**
 * Zong & Porté-Agel Gaussian wake (near-wake length, gradual thrust growth, softplus expansion).
 *
 * H. Zong, F. Porté-Agel, "A momentum-conserving wake superposition method for wind farm power
 * prediction", J. Fluid Mech. 889 (2020) A8, in PyWake's ZongGaussianDeficit form:
 *
 *   k = a₁·TI + a₂
 *   Ct_x = Ct · (1 + erf(dx / (√2 δ_w D))) / 2                       (thrust grows over ~2D)
 *   σ/D = ε + k · ln(1 + exp((dx − x_nw)/D))                         (softplus)
 *   δ = min(1, 2a(Ct_x D²/(8σ²))) · exp(−cw²/(2σ²))
 *
 * with the near-wake length of Vermeulen (1980) as Niayifar & Porté-Agel (2016) give it:
 *   m = 1/√(1 − min(Ct, 0.999)),  r₀ = (D/2)√((m + 1)/2),
 *   dr/dx = √((2.5 TI + 0.005)² + ((1 − m)√(1.49 + m)/(9.76 (1 + m)))² + (0.012 B λ)²),
 *   n = √(0.214 + 0.144m)(1 − √(0.134 + 0.124m)) / ((1 − √(0.214 + 0.144m))√(0.134 + 0.124m)),
 *   x_nw = n r₀ / (dr/dx).
 * Parameters as PyWake's Zong_PorteAgel_2020: a1 = 0.38, a2 = 0.004, deltawD = 1/√2,
 * epsCoeff = 0.35, lam = 7.5, B = 3 (TI: the source's effective turbulence intensity). The paper's
 * own momentum-conserving superposition is not implemented: choose linear, sos or max.
 */
import { erf } from '../specialFunctions.js';
import type { LocalWakeFactory } from './localWake.js';
import { GaussianLocalWake, type GaussianWidth } from './gaussianLocal.js';
import type { DeficitModel } from './deficitModel.js';

/** x_nw(Ct, TI); out[0] = ∂/∂Ct, out[1] = ∂/∂TI. */
export function nearWakeLength(ct: number, ti: number, diameter: number, lam: number, B: number, out: Float64Array): number {
  const clipped = ct >= 0.999;
  const m = 1 / Math.sqrt(1 - (clipped ? 0.999 : ct));
  const dmDct = clipped ? 0 : (m * m * m) / 2;
  const q = (m + 1) / 2;
  const r0 = (diameter / 2) * Math.sqrt(q);
  const dlnR0Dm = 1 / (4 * q);
  const drAlpha = 2.5 * ti + 5e-3;
  const u = (1 - m) / (1 + m),
    v = Math.sqrt(1.49 + m);
  const drM = (u * v) / 9.76;
  const dDrMDm = ((-2 / ((1 + m) * (1 + m))) * v + u / (2 * v)) / 9.76;
  const drLambda = 1.2e-2 * B * lam;
  const drdx = Math.sqrt(drAlpha * drAlpha + drM * drM + drLambda * drLambda);
  const p = Math.sqrt(0.214 + 0.144 * m),
    s = Math.sqrt(0.134 + 0.124 * m);
  const n = (p * (1 - s)) / ((1 - p) * s);
  const dp = 0.072 / p,
    ds = 0.062 / s;
  const dlnNDm = dp / p - ds / (1 - s) + dp / (1 - p) - ds / s;
  const xnw = (n * r0) / drdx;
  const dlnDrdxDm = (drM * dDrMDm) / (drdx * drdx);
  out[0] = xnw * (dlnNDm + dlnR0Dm - dlnDrdxDm) * dmDct;
  out[1] = (-xnw * (drAlpha * 2.5)) / (drdx * drdx);
  return xnw;
}

/** Coefficients: [k, x_nw, ∂x_nw/∂Ct, ∂x_nw/∂TI, a₁]. */
class ZongWidth implements GaussianWidth {
  readonly coefficientCount = 5;
  readonly usesTurbulence = true;
  private readonly ng = new Float64Array(2);
  private readonly growthScale: number;
  constructor(
    private readonly p: Record<string, number>,
    private readonly diameter: number,
  ) {
    this.growthScale = 1 / (Math.SQRT2 * p.deltawD * diameter);
  }
  prepare(ct: number, ti: number, c: Float64Array, o: number): void {
    c[o] = this.p.a1 * ti + this.p.a2;
    c[o + 1] = nearWakeLength(ct, ti, this.diameter, this.p.lam, this.p.B, this.ng);
    c[o + 2] = this.ng[0];
    c[o + 3] = this.ng[1];
    c[o + 4] = this.p.a1;
  }
  upperSigma(): number {
    return Infinity;
  }
  sigma(dx: number, c: Float64Array, o: number, g: Float64Array | null): number {
    const D = this.diameter;
    const k = c[o];
    const z = (dx - c[o + 1]) / D;
    // softplus(z) = ln(1 + e^z) without overflow; its derivative is the logistic function.
    const softplus = Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)));
    if (g) {
      const logistic = z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
      g[0] = k * logistic;
      g[1] = -k * logistic * c[o + 2];
      g[2] = D * c[o + 4] * softplus - k * logistic * c[o + 3];
    }
    return (this.p.epsCoeff + k * softplus) * D;
  }
  growth = (dx: number, g: Float64Array | null): number => {
    const u = dx * this.growthScale;
    if (g) g[0] = (Math.exp(-u * u) / Math.sqrt(Math.PI)) * this.growthScale;
    return (1 + erf(u)) / 2;
  };
}

export const zong2020Local: LocalWakeFactory = {
  name: 'zong2020',
  defaults: { a1: 0.38, a2: 4e-3, deltawD: 1 / Math.SQRT2, epsCoeff: 0.35, lam: 7.5, B: 3 },
  create({ params, diameter, induction }) {
    const p = { ...this.defaults, ...params };
    return new GaussianLocalWake('zong2020', new ZongWidth(p, diameter), diameter, induction);
  },
};

/** Zong & Porté-Agel 2020: the waked form (JavaScript only). */
export const zong2020: DeficitModel = {
  name: 'zong2020',
  reference: 'Zong & Porté-Agel, J. Fluid Mech. 889 (2020) A8',
  aliases: ['zong', 'zonggaussiandeficit', 'zongporteagel2020'],
  describedBy: /zong/i,
  profile: 'gaussian',
  parameters: {
    a1: { default: 0.38, min: 0, max: 10, doc: 'k = a1·TI + a2; published 0.35–0.38' },
    a2: { default: 4e-3, min: 0, max: 1, doc: 'k = a1·TI + a2; published 0–0.004' },
    deltawD: { default: 1 / Math.SQRT2, min: 0, minExclusive: true, max: 10, doc: 'Zong near-wake width in diameters; published 0.71' },
    epsCoeff: { default: 0.35, min: 0, max: 5, doc: 'Zong initial width coefficient; published 0.35' },
    lam: { default: 7.5, min: 0, minExclusive: true, max: 100, doc: 'Zong near-wake length scale; published 7.5' },
    B: { default: 3, min: 0, minExclusive: true, max: 100, doc: 'Zong smoothing; published 3' },
  },
  waked: zong2020Local,
  wakedDefaults: {
    ct2a: 'madsen',
    deficitReference: 'source-effective',
    useEffectiveTi: true,
    turbulence: 'crespo-hernandez',
    rotorAverage: 'center',
    turbulenceParams: { c0: 0.73, c1: 0.83, c2: 0.03, c3: -0.32 },
  },
  library: { superposition: 'weighted' },
  windioExpansion: { ka: 'a1', kb: 'a2' },
};
