/**
 * Blondel & Cathelain super-Gaussian wake (top-hat near the rotor, Gaussian far downstream).
 *
 * F. Blondel, M. Cathelain, "An alternative form of the super-Gaussian wind turbine wake model",
 * Wind Energ. Sci. 5 (2020) 1225–1236, eqs. (5), (10), (13)–(14), Tables 2–3, in PyWake's
 * BlondelSuperGaussianDeficit2020 form (x = max(dx, 0)/D, r = cw/D):
 *
 *   σ = (a_s·TI + b_s)·x + c_s·√β(min(Ct, ctlim)),     n = a_f·exp(b_f·x) + c_f
 *   C = 2^(2/n − 1) − √(2^(4/n − 2) − n·Ct / (16 Γ(2/n) σ^(4/n)))
 *   δ = C · exp(−r^n / (2σ²))
 *
 * Parameters: a_s = 0.17, b_s = 0.005, c_s = 0.2, a_f = 3.11, b_f = −0.68, c_f = 2.41,
 * ctlim = 0.999; TI is the source's effective turbulence intensity. Where the square-root argument
 * would be negative (very high Ct close behind the rotor) it is clipped at 0 (PyWake returns NaN).
 * The wake radius for added turbulence is 2σ with σ dimensionless, as PyWake's wake_radius returns.
 *
 * Derivatives, with Q = n·Ct/(16 Γ(2/n) σ^(4/n)), a₁ = 2^(2/n−1), ρ = √(a₁² − Q), P = r^n:
 *   ∂C/∂a₁ = 1 − a₁/ρ,  ∂C/∂Q = 1/(2ρ),  ∂Q/∂n = Q (1/n + 2ψ(2/n)/n² + 4 ln σ/n²),
 *   ∂Q/∂σ = −4Q/(nσ),  ∂a₁/∂n = −2 a₁ ln 2/n²,  ∂P/∂n = P ln r,  ∂P/∂(cw²) = nP/(2cw²).
 */
import { digamma, gamma } from '../specialFunctions.js';
import type { LocalWakeFactory, LocalWakeModel } from './localWake.js';
import { epsilonOfCt } from './gaussianLocal.js';
import type { DeficitModel } from './deficitModel.js';

/** Coefficients: [Ct, TI, c_s√β, ∂(c_s√β)/∂Ct]. */
class BlondelWake implements LocalWakeModel {
  readonly name = 'blondel2020';
  readonly coefficientCount = 4;
  readonly usesTurbulence = true;
  readonly averagesOverRotor = false;
  private readonly eg = new Float64Array(1);
  private readonly invD2: number;
  constructor(
    private readonly p: Record<string, number>,
    private readonly diameter: number,
  ) {
    this.invD2 = 1 / (diameter * diameter);
  }
  prepareSource(ct: number, ti: number, c: Float64Array, o: number): void {
    c[o] = ct;
    c[o + 1] = ti;
    // c_s √β = epsilonOfCt with c_ε = c_s.
    c[o + 2] = epsilonOfCt(ct, this.p.c_s, this.p.ctlim, this.eg);
    c[o + 3] = this.eg[0];
  }
  private sigma(x: number, c: Float64Array, o: number): number {
    return (this.p.a_s * c[o + 1] + this.p.b_s) * x + c[o + 2];
  }
  reach(dx: number, ctMax: number, tiMax: number): number {
    if (!Number.isFinite(tiMax)) return Infinity;
    // r^n ≤ 64σ² ⇒ r ≤ (64σ²)^(1/n); n ≥ c_f > 0. σ grows with TI and Ct (β).
    const x = Math.max(dx, 0) / this.diameter;
    const sigma = (this.p.a_s * tiMax + this.p.b_s) * x + epsilonOfCt(Math.min(ctMax, 1), this.p.c_s, this.p.ctlim, this.eg);
    const n = this.p.a_f * Math.exp(this.p.b_f * x) + this.p.c_f;
    return this.diameter * Math.max(1, Math.pow(64 * sigma * sigma, 1 / n)) * (1 + 1e-9) + 2 * sigma;
  }
  wakeRadius(dx: number, c: Float64Array, o: number, g: Float64Array | null): number {
    const x = Math.max(dx, 0) / this.diameter;
    if (g) {
      g[0] = dx > 0 ? (2 * (this.p.a_s * c[o + 1] + this.p.b_s)) / this.diameter : 0;
      g[1] = 2 * c[o + 3];
      g[2] = 2 * this.p.a_s * x;
    }
    return 2 * this.sigma(x, c, o);
  }
  deficit(dx: number, cw2: number, c: Float64Array, o: number, g: Float64Array | null): number {
    const { a_s, b_s, a_f, b_f, c_f } = this.p;
    const D = this.diameter;
    const x = Math.max(dx, 0) / D;
    const ct = c[o],
      ti = c[o + 1];
    const sigma = this.sigma(x, c, o);
    const expN = Math.exp(b_f * x);
    const n = a_f * expN + c_f;
    const r2 = cw2 * this.invD2;
    const P = r2 > 0 ? Math.pow(r2, n / 2) : 0;
    const s2 = sigma * sigma;
    if (P > 64 * s2) {
      if (g) {
        g[0] = 0;
        g[1] = 0;
        g[2] = 0;
        g[3] = 0;
      }
      return 0;
    }
    const twoOverN = 2 / n;
    const gam = gamma(twoOverN);
    const a1 = Math.pow(2, twoOverN - 1);
    const sPow = Math.pow(sigma, 4 / n);
    const Q = (n * ct) / (16 * gam * sPow);
    const radicand = a1 * a1 - Q;
    const rho = radicand > 0 ? Math.sqrt(radicand) : 0;
    const C = a1 - rho;
    const e = Math.exp(-P / (2 * s2));
    const f = C * e;
    if (g) {
      const dCdA1 = rho > 0 ? 1 - a1 / rho : 0;
      const dCdQ = rho > 0 ? 1 / (2 * rho) : 0;
      const dQdn = Q * (1 / n + (2 * digamma(twoOverN)) / (n * n) + (4 * Math.log(sigma)) / (n * n));
      const dQds = (-4 * Q) / (n * sigma);
      const dA1dn = (-2 * a1 * Math.LN2) / (n * n);
      const dPdn = r2 > 0 ? 0.5 * P * Math.log(r2) : 0;
      const dEdP = -e / (2 * s2);
      const dEds = (e * P) / (s2 * sigma);
      const dfdn = e * (dCdA1 * dA1dn + dCdQ * dQdn) + C * dEdP * dPdn;
      const dfds = e * dCdQ * dQds + C * dEds;
      const dndx = dx > 0 ? (a_f * b_f * expN) / D : 0;
      const dsdx = dx > 0 ? (a_s * ti + b_s) / D : 0;
      g[0] = dfdn * dndx + dfds * dsdx;
      g[1] = r2 > 0 ? C * dEdP * ((n * P) / (2 * cw2)) : 0;
      g[2] = e * dCdQ * (ct > 0 ? Q / ct : n / (16 * gam * sPow)) + dfds * c[o + 3];
      g[3] = dfds * a_s * x;
    }
    return f;
  }
}

export const blondel2020Local: LocalWakeFactory = {
  name: 'blondel2020',
  defaults: { a_s: 0.17, b_s: 0.005, c_s: 0.2, a_f: 3.11, b_f: -0.68, c_f: 2.41, ctlim: 0.999 },
  create({ params, diameter }) {
    return new BlondelWake({ ...this.defaults, ...params }, diameter);
  },
};

/** Blondel & Cathelain 2020 super-Gaussian: the waked form (JavaScript only). */
export const blondel2020: DeficitModel = {
  name: 'blondel2020',
  reference: 'Blondel & Cathelain, Wind Energ. Sci. 5 (2020) 1225–1236',
  aliases: ['supergaussian', 'supergaussiandeficit', 'blondelsupergaussiandeficit2020', 'blondelcathelain2020'],
  describedBy: /blondel|super-?gaussian/i,
  profile: 'super-gaussian',
  parameters: {
    a_s: { default: 0.17, min: 0, max: 10, doc: 'Blondel width growth per unit turbulence; published 0.17' },
    b_s: { default: 0.005, min: 0, max: 1, doc: 'Blondel width growth; published 0.005' },
    c_s: { default: 0.2, min: 0, max: 2, doc: 'Blondel initial width; published 0.2' },
    a_f: { default: 3.11, min: 0, max: 100, doc: 'Blondel super-Gaussian order amplitude; published 3.11' },
    b_f: { default: -0.68, min: -10, max: 0, doc: 'Blondel order decay per diameter (the order must not grow downstream); published −0.68' },
    c_f: { default: 2.41, min: 0, minExclusive: true, max: 100, doc: 'Blondel far-wake order; published 2.41' },
    ctlim: { default: 0.999, min: 0, minExclusive: true, max: 1, doc: 'the largest Ct inside β' },
  },
  waked: blondel2020Local,
  wakedDefaults: { ct2a: 'mom1d', deficitReference: 'source-effective', useEffectiveTi: true, turbulence: 'none', rotorAverage: 'center' },
  library: { superposition: 'linear' },
};
