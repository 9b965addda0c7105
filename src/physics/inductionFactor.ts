/**
 * Thrust coefficient → axial induction relations, written as 2a(Ct) (the centre-line deficit
 * factor of the far wake) with its derivative, for the wake models of the waked-inflow engine.
 *
 * - `mom1d`: 1-D momentum theory, Ct = 4a(1 − a) ⇒ 2a = 1 − √(1 − min(Ct, 1)).
 * - `madsen`: H.A. Madsen et al., "Implementation of the blade element momentum model on a polar
 *   grid and its aeroelastic load impact", Wind Energ. Sci. 5 (2020) 1–27:
 *   a = 0.2460 Ct + 0.0586 Ct² + 0.0883 Ct³ (PyWake's default for Jensen and Zong).
 */
export type InductionName = 'mom1d' | 'madsen';
export const INDUCTION_NAMES: readonly InductionName[] = ['mom1d', 'madsen'];

/** 2a as a function of Ct; `out[0]` receives d(2a)/dCt when `out` is given. */
export type TwoAFunction = (ct: number, out: Float64Array | null) => number;

export function twoAMom1d(ct: number, out: Float64Array | null): number {
  if (!(ct < 1)) {
    if (out) out[0] = 0;
    return 1;
  }
  const r = Math.sqrt(1 - ct);
  if (out) out[0] = 0.5 / r;
  return 1 - r;
}

export function twoAMadsen(ct: number, out: Float64Array | null): number {
  if (out) out[0] = 2 * (0.246 + ct * (2 * 0.0586 + ct * 3 * 0.0883));
  return 2 * ct * (0.246 + ct * (0.0586 + ct * 0.0883));
}

export function twoAFunction(name: InductionName): TwoAFunction {
  return name === 'madsen' ? twoAMadsen : twoAMom1d;
}
