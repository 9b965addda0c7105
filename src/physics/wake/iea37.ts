/**
 * IEA Wind Task 37 simplified Bastankhah Gaussian wake (the case-study reference model).
 *
 * Baker, Stanley, Thomas, Ning, Dykes, "Best Practices for Wake Model and Optimization Algorithm
 * Selection in Wind Farm Layout Optimization", AIAA SciTech 2019 (AIAA 2019-0540), and the case
 * study's iea37-wakemodel.pdf / iea37-aepcalc.py:
 *
 *   σ = k·dx + D/√8,   δ = (1 − √(1 − Ct/(8σ²/D²))) · exp(−½ (dy/σ)²),   only where dx > 0
 *
 * Parameters: k = 0.0324555 (wake growth rate); wec = 1 (wake expansion continuation factor, see
 * gaussianKernel.ts; only optimizers set it above 1). The case study fixes Ct = 8/9 for every turbine
 * and speed; that comes from the turbine definition (constant thrust), not from this file.
 */
import { GaussianKernel } from './gaussianKernel.js';
import type { WakeDeficitModel } from './wakeModel.js';
import type { LocalWakeFactory } from './localWake.js';
import { GaussianLocalWake, LinearGaussianWidth } from './gaussianLocal.js';
import type { DeficitModel } from './deficitModel.js';

export const iea37Wake: WakeDeficitModel = {
  name: 'iea37',
  defaults: { k: 0.0324555, wec: 1 },
  prepare(ct, diameter, params) {
    const k = params.k ?? 0.0324555;
    return new GaussianKernel(k, 1 / Math.sqrt(8), ct, diameter, params.wec ?? 1);
  },
};

/**
 * The waked-inflow form: σ = k·dx + D/√8, centre deficit min(1, 2a(Ct D²/(8σ²))) (with 1-D momentum
 * 2a this is the case-study formula). Parameters: k = 0.0324555.
 */
export const iea37Local: LocalWakeFactory = {
  name: 'iea37',
  defaults: { k: 0.0324555 },
  create({ params, diameter, induction }) {
    const p = { ...this.defaults, ...params };
    return new GaussianLocalWake('iea37', new LinearGaussianWidth(p.k, 0, diameter, null, 1 / Math.sqrt(8)), diameter, induction);
  },
};

/** The IEA37 case-study model: both engine forms, the native kernel's linear Gaussian. */
export const iea37: DeficitModel = {
  name: 'iea37',
  reference: 'IEA Wind Task 37 simplified Bastankhah Gaussian (Baker et al., AIAA 2019-0540)',
  aliases: [
    'iea37simplifiedbastankhahgaussian',
    'iea37simplebastankhahgaussiandeficit',
    'iea37simplebastankhahgaussian',
    'iea37simplifiedgaussian',
    'bastankhahsgaussianwakemodelsimplifiedversion',
    'bastankhahgaussianwakemodelsimplifiedversion',
  ],
  describedBy: /iea ?37/i,
  profile: 'gaussian',
  refines: 'bastankhah2014',
  parameters: {
    k: { default: 0.0324555, min: 0, minExclusive: true, max: 1, doc: 'wake growth per metre downstream; published 0.02–0.1' },
  },
  waked: iea37Local,
  freeStream: iea37Wake,
  wakedDefaults: { ct2a: 'mom1d', deficitReference: 'free-stream', useEffectiveTi: false, turbulence: 'none', rotorAverage: 'center' },
  library: { superposition: 'sos' },
  windioExpansion: { ka: null, kb: 'k' },
  native: (p) => ({ kind: 'linear-gaussian', k0: p.k, kTi: 0, ceps: NaN, epsOrCtlim: 1 / Math.sqrt(8) }),
  wakeExpansionContinuation: true,
};
