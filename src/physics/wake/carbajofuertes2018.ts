/**
 * Carbajo Fuertes, Markfort & Porté-Agel's Gaussian wake, with Niayifar & Porté-Agel's wind farm
 * model around it (as PyWake's CarbajoFuertes_etal_2018, which says the paper gives no farm model).
 *
 * F. Carbajo Fuertes, C. D. Markfort, F. Porté-Agel, "Wind turbine wake characterization with
 * nacelle-mounted wind lidars for analytical wake model validation", Remote Sensing 10 (2018) 668:
 *
 *   k = a₁·TI + a₂,   σ = k·dx + ε·D,   ε = c_ε0·k + c_ε1        (the width at the rotor follows k, not Ct)
 *   δ = min(1, 2a(Ct D²/(8σ²))) · exp(−cw²/(2σ²))
 *
 * TI is the source's effective turbulence intensity (Crespo–Hernández added turbulence), the
 * deficit scales with the source's effective speed, and wakes add linearly. Parameters as PyWake's
 * CarbajoFuertes_etal_2018: a1 = 0.35, a2 = 0, ceps0 = −1.91, ceps1 = 0.34.
 */
import type { LocalWakeFactory } from './localWake.js';
import { GaussianLocalWake, type GaussianWidth } from './gaussianLocal.js';
import type { DeficitModel } from './deficitModel.js';

/** σ = k·dx + (c_ε0·k + c_ε1)·D, k = a₂ + a₁·TI. Coefficients: [k]. */
export class TurbulentEpsilonWidth implements GaussianWidth {
  readonly coefficientCount = 1;
  readonly usesTurbulence = true;
  constructor(
    private readonly a1: number,
    private readonly a2: number,
    private readonly ceps0: number,
    private readonly ceps1: number,
    private readonly diameter: number,
  ) {}
  prepare(_ct: number, ti: number, coef: Float64Array, o: number): void {
    coef[o] = this.a2 + this.a1 * ti;
  }
  upperSigma(dx: number, _ctMax: number, tiMax: number): number {
    if (!Number.isFinite(tiMax)) return Infinity;
    // σ is linear in k, and k lies between a₂ (TI = 0) and a₂ + a₁·tiMax: the larger end bounds it.
    const at = (k: number): number => k * (Math.max(dx, 0) + this.ceps0 * this.diameter) + this.ceps1 * this.diameter;
    return Math.max(at(this.a2), at(this.a2 + this.a1 * tiMax));
  }
  sigma(dx: number, coef: Float64Array, o: number, g: Float64Array | null): number {
    const k = coef[o];
    const d = this.diameter;
    if (g) {
      g[0] = k;
      g[1] = 0;
      g[2] = this.a1 * (dx + this.ceps0 * d);
    }
    return k * dx + (this.ceps0 * k + this.ceps1) * d;
  }
}

export const carbajofuertes2018Local: LocalWakeFactory = {
  name: 'carbajofuertes2018',
  defaults: { a1: 0.35, a2: 0, ceps0: -1.91, ceps1: 0.34 },
  create({ params, diameter, induction }) {
    const p = { ...this.defaults, ...params };
    return new GaussianLocalWake('carbajofuertes2018', new TurbulentEpsilonWidth(p.a1, p.a2, p.ceps0, p.ceps1, diameter), diameter, induction);
  },
};

/** Carbajo Fuertes et al. 2018 with Niayifar's farm model: the waked form (JavaScript only). */
export const carbajofuertes2018: DeficitModel = {
  name: 'carbajofuertes2018',
  reference: 'Carbajo Fuertes, Markfort & Porté-Agel, Remote Sensing 10 (2018) 668',
  aliases: ['carbajofuertes', 'carbajofuertesetal2018', 'carbajofuertesgaussiandeficit'],
  describedBy: /carbajo|fuertes/i,
  profile: 'gaussian',
  refines: 'niayifar2016',
  parameters: {
    a1: { default: 0.35, min: 0, max: 10, doc: 'k = a1·TI + a2; published 0.35–0.38' },
    a2: { default: 0, min: 0, max: 1, doc: 'k = a1·TI + a2; published 0–0.004' },
    ceps0: { default: -1.91, min: -100, max: 100, doc: 'Carbajo Fuertes ε = c_ε0·k + c_ε1; published −1.91' },
    ceps1: { default: 0.34, min: -10, max: 10, doc: 'Carbajo Fuertes ε = c_ε0·k + c_ε1; published 0.34' },
  },
  waked: carbajofuertes2018Local,
  wakedDefaults: { ct2a: 'mom1d', deficitReference: 'source-effective', useEffectiveTi: true, turbulence: 'crespo-hernandez', rotorAverage: 'center' },
  library: { superposition: 'linear', unsupported: { rotor_average: 'Gaussian-overlap rotor average (GaussianOverlapAvgModel)' } },
  windioExpansion: { ka: 'a1', kb: 'a2' },
};
