/**
 * Niayifar & Porté-Agel Gaussian wake with a turbulence-dependent expansion rate.
 *
 * A. Niayifar, F. Porté-Agel, "Analytical modeling of wind farms: a new approach for power
 * prediction", Energies 9 (2016) 741, eqs. (4)–(6) and (13):
 *
 *   k = a₁·TI + a₂,   σ = k·dx + ε·D,   ε = c_ε √β,   β = ½ (1 + √(1 − Ct)) / √(1 − Ct)
 *   δ = min(1, 2a(Ct D²/(8σ²))) · exp(−cw²/(2σ²))
 *
 * TI is the turbulence intensity the source turbine sees (ambient plus the added turbulence of the
 * wakes it stands in, e.g. Crespo & Hernández), the deficit scales with the source's effective
 * speed, and the paper superposes linearly. Parameters as PyWake's Niayifar_PorteAgel_2016:
 * a1 = 0.3837, a2 = 0.003678, ceps = 0.2, ctlim = 0.899 (Ct cap inside β).
 */
import type { LocalWakeFactory } from './localWake.js';
import { GaussianLocalWake, LinearGaussianWidth } from './gaussianLocal.js';
import type { DeficitModel } from './deficitModel.js';

export const niayifar2016Local: LocalWakeFactory = {
  name: 'niayifar2016',
  defaults: { a1: 0.3837, a2: 0.003678, ceps: 0.2, ctlim: 0.899 },
  create({ params, diameter, induction }) {
    const p = { ...this.defaults, ...params };
    return new GaussianLocalWake('niayifar2016', new LinearGaussianWidth(p.a2, p.a1, diameter, p.ceps, p.ctlim), diameter, induction);
  },
};

/** Niayifar & Porté-Agel 2016: the waked form, the native kernel's linear Gaussian with k from TI. */
export const niayifar2016: DeficitModel = {
  name: 'niayifar2016',
  reference: 'Niayifar & Porté-Agel, Energies 9 (2016) 741',
  aliases: ['niayifar', 'niayifargaussiandeficit', 'niayifarporteagel2016'],
  describedBy: /niayifar/i,
  profile: 'gaussian',
  parameters: {
    a1: { default: 0.3837, min: 0, max: 10, doc: 'k = a1·TI + a2; published 0.35–0.38' },
    a2: { default: 0.003678, min: 0, max: 1, doc: 'k = a1·TI + a2; published 0–0.004' },
    ceps: { default: 0.2, min: 0, minExclusive: true, max: 1, doc: 'initial wake width ε = ceps·√β in diameters; published 0.2–0.25' },
    ctlim: { default: 0.899, min: 0, minExclusive: true, max: 1, doc: 'the largest Ct inside β' },
  },
  waked: niayifar2016Local,
  wakedDefaults: { ct2a: 'mom1d', deficitReference: 'source-effective', useEffectiveTi: true, turbulence: 'crespo-hernandez', rotorAverage: 'center' },
  library: { superposition: 'linear', unsupported: { rotor_average: 'Gaussian-overlap rotor average (GaussianOverlapAvgModel)' } },
  windioExpansion: { ka: 'a1', kb: 'a2' },
  native: (p) => ({ kind: 'linear-gaussian', k0: p.a2, kTi: p.a1, ceps: p.ceps, epsOrCtlim: p.ctlim }),
};
