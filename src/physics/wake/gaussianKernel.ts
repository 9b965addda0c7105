/**
 * The Gaussian wake deficit shared by the Bastankhah & Porté-Agel (2014) model and its IEA37
 * simplification:
 *
 *   σ(dx)  = k·dx + ε·D
 *   a      = Ct / (8 σ² / D²)
 *   δ      = (1 − √(1 − min(a, 1))) · exp(−dy² / (2σ²))        for dx > 0, else 0
 *
 * Wake expansion continuation (Thomas & Ning, "A method for reducing multi-modality in the wind
 * farm layout optimization problem", J. Phys.: Conf. Ser. 1037 (2018) 042012) widens the wake
 * laterally by a factor ξ ≥ 1 in the exponent only: exp(−dy²/(2ξ²σ²)); ξ = 1 is the real model.
 *
 * Derivatives (used for the exact AEP gradient), with E = exp(−dy²/(2ξ²σ²)), r = √(1 − a):
 *   ∂δ/∂σ  = −a·E/(σ·r) + (1 − r)·E·dy²/(ξ²σ³)   (first term 0 where a ≥ 1: the clip is flat)
 *   ∂δ/∂dx = k · ∂δ/∂σ
 *   ∂δ/∂dy = −(1 − r)·E·dy/(ξ²σ²)
 */
import type { WakeKernel } from './wakeModel.js';

export class GaussianKernel implements WakeKernel {
  /** Read by the native free-stream kernel (nativeKernel.ts), which evaluates the same formulas. */
  readonly k: number;
  readonly sigma0: number;
  /** Ct·D²/8, so that a = ctD2over8 / σ². */
  readonly ctD2over8: number;
  /** −1/(2ξ²): the exponent is halfInvXi2·dy²/σ². */
  private readonly expFactor: number;
  readonly invXi2: number;

  constructor(k: number, epsilon: number, ct: number, diameter: number, wec = 1) {
    this.k = k;
    this.sigma0 = epsilon * diameter;
    this.ctD2over8 = (ct * diameter * diameter) / 8;
    this.invXi2 = 1 / (wec * wec);
    this.expFactor = -0.5 * this.invXi2;
  }

  value(dx: number, dy: number): number {
    if (dx <= 0) return 0;
    const sigma = this.k * dx + this.sigma0;
    const s2 = sigma * sigma;
    // Far outside the wake (exponent below −40: deficit and slopes below ~5e-18 of their scale)
    // the result is 0 to within rounding of anything it is added to; skip the sqrt and exp.
    if (this.expFactor * dy * dy < -40 * s2) return 0;
    const a = this.ctD2over8 / s2;
    const r = a < 1 ? Math.sqrt(1 - a) : 0;
    return (1 - r) * Math.exp((this.expFactor * dy * dy) / s2);
  }

  valueAndGradient(dx: number, dy: number, out: Float64Array, offset: number): number {
    if (dx <= 0) {
      out[offset] = 0;
      out[offset + 1] = 0;
      return 0;
    }
    const sigma = this.k * dx + this.sigma0;
    const s2 = sigma * sigma;
    if (this.expFactor * dy * dy < -40 * s2) {
      out[offset] = 0;
      out[offset + 1] = 0;
      return 0;
    }
    const a = this.ctD2over8 / s2;
    const r = a < 1 ? Math.sqrt(1 - a) : 0;
    const e = Math.exp((this.expFactor * dy * dy) / s2);
    const amp = (1 - r) * e;
    const dAmpDsigma = r > 0 ? (-a * e) / (sigma * r) : 0;
    const dDeltaDsigma = dAmpDsigma + (this.invXi2 * amp * dy * dy) / (s2 * sigma);
    out[offset] = this.k * dDeltaDsigma;
    out[offset + 1] = (-this.invXi2 * amp * dy) / s2;
    return amp;
  }
}
