/**
 * TurbOPark wake (Ørsted's Turbulence Optimized Park model).
 *
 * N.G. Nygaard, L. Poulsen, E. Svensson, J.G. Pedersen, "Large-scale benchmarking of wake models
 * for offshore wind farms", J. Phys.: Conf. Ser. 2265 (2022) 022008, and the TurbOPark description
 * (github.com/OrstedRD/TurbOPark), in PyWake's TurboGaussianDeficit form. The wake grows with the
 * ambient turbulence plus Frandsen's wake-added turbulence, integrated in closed form:
 *
 *   α = c₁·TI,  b = c₂·TI/√Ct,  s = α + b·dx/D
 *   σ = A·TI·D/b · [ √(s² + 1) − √(1 + α²) − ln( (√(s² + 1) + 1)·α / ((√(1 + α²) + 1)·s) ) ] + ε·D
 *   ε = c_ε √β(min(Ct, ctlim)),   δ = min(1, 2a(Ct D²/(8σ²))) · exp(−cw²/(2σ²))
 *
 * TI is the ambient turbulence intensity, the deficit scales with the ambient speed at the
 * downstream turbine, wakes are superposed by root-sum-square. Parameters as PyWake: A = 0.04,
 * cTI1 = 1.5, cTI2 = 0.8, ceps = 0.25, ctlim = 0.999. Ct is floored at 1e-20 inside b.
 *
 * Derivatives: with E the bracketed expansion times A·TI·D/b,
 *   ∂E/∂s = A·TI·D/b · (s/(√(s²+1) + 1) + 1/s),   ∂E/∂α = A·TI·D/b · (−α/(√(1+α²) + 1) − 1/α),
 *   A·TI·D/b = A·D·√Ct/c₂ (so ∂E/∂Ct = E/(2Ct) − ∂E/∂s · (dx/D)·b/(2Ct)).
 */
import type { LocalWakeFactory } from './localWake.js';
import { GaussianLocalWake, epsilonOfCt, type GaussianWidth } from './gaussianLocal.js';
import type { DeficitModel } from './deficitModel.js';

/** Coefficients: [α, b, fac, ct (floored), εD, ∂(εD)/∂Ct, TI]. */
class TurbOParkWidth implements GaussianWidth {
  readonly coefficientCount = 7;
  readonly usesTurbulence = true;
  private readonly eg = new Float64Array(1);
  constructor(
    private readonly p: Record<string, number>,
    private readonly diameter: number,
  ) {}
  prepare(ct: number, ti: number, c: Float64Array, o: number): void {
    const { A, cTI1, cTI2, ceps, ctlim } = this.p;
    const ctf = Math.max(ct, 1e-20);
    const b = (cTI2 * ti) / Math.sqrt(ctf);
    c[o] = cTI1 * ti;
    c[o + 1] = b;
    c[o + 2] = (A * ti * this.diameter) / b;
    c[o + 3] = ctf;
    c[o + 4] = epsilonOfCt(ctf, ceps, ctlim, this.eg) * this.diameter;
    c[o + 5] = ct > 1e-20 ? this.eg[0] * this.diameter : 0;
    c[o + 6] = ti;
  }
  /** σ grows with Ct (more wake-added turbulence, larger ε) and TI: evaluate at the largest. */
  private readonly scratch = new Float64Array(7);
  upperSigma(dx: number, ctMax: number, tiMax: number): number {
    if (!Number.isFinite(tiMax)) return Infinity;
    this.prepare(Math.min(Math.max(ctMax, 1e-20), 1), tiMax, this.scratch, 0);
    return this.sigma(Math.max(dx, 0), this.scratch, 0, null);
  }
  sigma(dx: number, c: Float64Array, o: number, g: Float64Array | null): number {
    const alpha = c[o],
      b = c[o + 1],
      fac = c[o + 2];
    const D = this.diameter;
    const xr = dx / D;
    const s = alpha + b * xr;
    const term1 = Math.sqrt(s * s + 1);
    const term2 = Math.sqrt(1 + alpha * alpha);
    const sAbs = alpha + (b * Math.abs(dx)) / D;
    const bracket = term1 - term2 - Math.log(((term1 + 1) * alpha) / ((term2 + 1) * sAbs));
    const expansion = fac * bracket;
    if (g) {
      const ct = c[o + 3],
        ti = c[o + 6];
      const dEds = fac * (s / (term1 + 1) + 1 / s);
      const dEdAlpha = fac * (-alpha / (term2 + 1) - 1 / alpha);
      g[0] = (dEds * b) / D;
      g[1] = (c[o + 3] > 1e-20 ? expansion / (2 * ct) - (dEds * xr * b) / (2 * ct) : 0) + c[o + 5];
      // α = c₁TI and b = c₂TI/√Ct are proportional to TI; fac does not depend on TI.
      g[2] = ti > 0 ? (dEds * (alpha + b * xr)) / ti + (dEdAlpha * alpha) / ti : 0;
    }
    return expansion + c[o + 4];
  }
}

export const turbopark2022Local: LocalWakeFactory = {
  name: 'turbopark2022',
  defaults: { A: 0.04, cTI1: 1.5, cTI2: 0.8, ceps: 0.25, ctlim: 0.999 },
  create({ params, diameter, induction }) {
    const p = { ...this.defaults, ...params };
    return new GaussianLocalWake('turbopark2022', new TurbOParkWidth(p, diameter), diameter, induction);
  },
};

/** TurbOPark (Nygaard et al. 2022): the waked form, the native kernel's TurbOPark width. */
export const turbopark2022: DeficitModel = {
  name: 'turbopark2022',
  reference: 'Nygaard et al., J. Phys.: Conf. Ser. 2265 (2022) 022008',
  aliases: ['turbopark', 'turboparkgaussian', 'turbogaussiandeficit', 'nygaard2022'],
  describedBy: /turbopark|turbo ?gaussian|nygaard/i,
  profile: 'gaussian',
  parameters: {
    A: { default: 0.04, min: 0, minExclusive: true, max: 1, doc: 'TurbOPark wake growth per unit turbulence; published 0.04' },
    cTI1: { default: 1.5, min: 0, max: 10, doc: 'TurbOPark turbulence constant; published 1.5' },
    cTI2: { default: 0.8, min: 0, max: 10, doc: 'TurbOPark turbulence constant; published 0.8' },
    ceps: { default: 0.25, min: 0, minExclusive: true, max: 1, doc: 'initial wake width ε = ceps·√β in diameters; published 0.2–0.25' },
    ctlim: { default: 0.999, min: 0, minExclusive: true, max: 1, doc: 'the largest Ct inside β' },
  },
  waked: turbopark2022Local,
  wakedDefaults: {
    ct2a: 'mom1d',
    deficitReference: 'free-stream',
    freeStreamReference: 'target',
    useEffectiveTi: false,
    turbulence: 'none',
    rotorAverage: 'center',
  },
  library: { superposition: 'sos', ground: 'mirror', unsupported: { rotor_average: 'Gaussian-overlap rotor average (Nygaard_2022)' } },
  native: (p) => ({ kind: 'turbopark', A: p.A, cTI1: p.cTI1, cTI2: p.cTI2, ceps: p.ceps, ctlim: p.ctlim }),
};
