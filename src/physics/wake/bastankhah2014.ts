/**
 * Bastankhah & Porté-Agel Gaussian wake.
 *
 * M. Bastankhah, F. Porté-Agel, "A new analytical model for wind-turbine wakes",
 * Renewable Energy 70 (2014) 116–123, eqs. (7), (21) and (23):
 *
 *   σ/D = k·dx/D + ε,   ε = 0.2·√β,   β = ½ (1 + √(1 − Ct)) / √(1 − Ct)
 *   δ   = (1 − √(1 − Ct / (8 (σ/D)²))) · exp(−dy² / (2σ²))     (hub height, dz = 0)
 *
 * The square-root argument is clipped at 0 close behind the rotor, where the far-wake model is
 * not valid and Ct/(8(σ/D)²) can exceed 1 (as PyWake does). Deficit only where dx > 0.
 * Parameters: k = 0.0324555 (wake growth rate; the paper fits k from turbulence intensity,
 * 0.0324555 is the IEA37 value and PyWake's default); wec = 1 (wake expansion continuation factor,
 * see gaussianKernel.ts). Ct must be < 1.
 */
import { GaussianKernel } from './gaussianKernel.js';
import type { WakeDeficitModel } from './wakeModel.js';

export const bastankhah2014Wake: WakeDeficitModel = {
  name: 'bastankhah2014',
  defaults: { k: 0.0324555, wec: 1 },
  prepare(ct, diameter, params) {
    const k = params.k ?? 0.0324555;
    const root = Math.sqrt(1 - Math.min(ct, 0.999999));
    const beta = (0.5 * (1 + root)) / root;
    return new GaussianKernel(k, 0.2 * Math.sqrt(beta), ct, diameter, params.wec ?? 1);
  },
};
