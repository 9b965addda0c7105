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

export const niayifar2016Local: LocalWakeFactory = {
  name: 'niayifar2016',
  defaults: { a1: 0.3837, a2: 0.003678, ceps: 0.2, ctlim: 0.899 },
  create({ params, diameter, induction }) {
    const p = { ...this.defaults, ...params };
    return new GaussianLocalWake('niayifar2016', new LinearGaussianWidth(p.a2, p.a1, diameter, p.ceps, p.ctlim), diameter, induction);
  },
};
