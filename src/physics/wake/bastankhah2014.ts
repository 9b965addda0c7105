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
import type { LocalWakeFactory } from './localWake.js';
import { GaussianLocalWake, LinearGaussianWidth } from './gaussianLocal.js';
import type { DeficitModel } from './deficitModel.js';

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

/**
 * The waked-inflow form (PyWake's BastankhahGaussianDeficit as used by its
 * Bastankhah_PorteAgel_2014 model): σ = k·dx + c_ε√β(Ct)·D with Ct capped at `ctlim` inside β, the
 * centre deficit min(1, 2a(Ct D²/(8σ²))) with the case's Ct→a relation (gaussianLocal.ts).
 * Parameters: k = 0.0324555, ceps = 0.2, ctlim = 0.899.
 */
export const bastankhah2014Local: LocalWakeFactory = {
  name: 'bastankhah2014',
  defaults: { k: 0.0324555, ceps: 0.2, ctlim: 0.899 },
  create({ params, diameter, induction }) {
    const p = { ...this.defaults, ...params };
    return new GaussianLocalWake('bastankhah2014', new LinearGaussianWidth(p.k, 0, diameter, p.ceps, p.ctlim), diameter, induction);
  },
};

/** Bastankhah & Porté-Agel 2014: both engine forms, the native kernel's linear Gaussian. */
export const bastankhah2014: DeficitModel = {
  name: 'bastankhah2014',
  reference: 'Bastankhah & Porté-Agel, Renewable Energy 70 (2014) 116–123',
  aliases: ['bastankhah', 'bastankhahgaussian', 'bastankhahgaussiandeficit', 'bastankhahporteagel2014', 'gaussian'],
  describedBy: /bastankhah/i,
  profile: 'gaussian',
  parameters: {
    k: { default: 0.0324555, min: 0, minExclusive: true, max: 1, doc: 'wake growth per metre downstream; published 0.02–0.1' },
    ceps: { default: 0.2, min: 0, minExclusive: true, max: 1, doc: 'initial wake width ε = ceps·√β in diameters; published 0.2–0.25' },
    ctlim: { default: 0.899, min: 0, minExclusive: true, max: 1, doc: 'the largest Ct inside β' },
  },
  waked: bastankhah2014Local,
  freeStream: bastankhah2014Wake,
  wakedDefaults: { ct2a: 'mom1d', deficitReference: 'source-effective', useEffectiveTi: false, turbulence: 'none', rotorAverage: 'center' },
  library: { superposition: 'linear' },
  windioExpansion: { ka: null, kb: 'k' },
  native: (p) => ({ kind: 'linear-gaussian', k0: p.k, kTi: 0, ceps: p.ceps, epsOrCtlim: p.ctlim }),
  wakeExpansionContinuation: true,
};
