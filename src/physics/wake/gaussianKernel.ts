/**
 * The Gaussian wake deficit shared by the Bastankhah & Porté-Agel (2014) model and its IEA37
 * simplification:
 *
 *   σ(dx)  = k·dx + ε·D
 *   a      = Ct / (8 σ² / D²)
 *   δ      = (1 − √(1 − min(a, 1))) · exp(−dy² / (2σ²))        for dx > 0, else 0
 *
 * Derivatives (used for the exact AEP gradient), with E = exp(−dy²/(2σ²)), r = √(1 − a):
 *   ∂δ/∂σ  = −a·E/(σ·r) + (1 − r)·E·dy²/σ³     (first term 0 where a ≥ 1: the clip is flat)
 *   ∂δ/∂dx = k · ∂δ/∂σ
 *   ∂δ/∂dy = −(1 − r)·E·dy/σ²
 */
import type { WakeKernel } from './wakeModel.js';

export class GaussianKernel implements WakeKernel {
  private readonly k: number;
  private readonly sigma0: number;
  /** Ct·D²/8, so that a = ctD2over8 / σ². */
  private readonly ctD2over8: number;

  constructor(k: number, epsilon: number, ct: number, diameter: number) {
    this.k = k;
    this.sigma0 = epsilon * diameter;
    this.ctD2over8 = (ct * diameter * diameter) / 8;
  }

  value(dx: number, dy: number): number {
    if (dx <= 0) return 0;
    const sigma = this.k * dx + this.sigma0;
    const s2 = sigma * sigma;
    const a = this.ctD2over8 / s2;
    const r = a < 1 ? Math.sqrt(1 - a) : 0;
    return (1 - r) * Math.exp((-0.5 * dy * dy) / s2);
  }

  valueAndGradient(dx: number, dy: number, out: Float64Array, offset: number): number {
    if (dx <= 0) {
      out[offset] = 0;
      out[offset + 1] = 0;
      return 0;
    }
    const sigma = this.k * dx + this.sigma0;
    const s2 = sigma * sigma;
    const a = this.ctD2over8 / s2;
    const r = a < 1 ? Math.sqrt(1 - a) : 0;
    const e = Math.exp((-0.5 * dy * dy) / s2);
    const amp = (1 - r) * e;
    const dAmpDsigma = r > 0 ? (-a * e) / (sigma * r) : 0;
    const dDeltaDsigma = dAmpDsigma + (amp * dy * dy) / (s2 * sigma);
    out[offset] = this.k * dDeltaDsigma;
    out[offset + 1] = (-amp * dy) / s2;
    return amp;
  }
}
