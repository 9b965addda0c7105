/**
 * Crespo & Hernández wake-added turbulence.
 *
 * A. Crespo, J. Hernández, "Turbulence characteristics in wind-turbine wakes", J. Wind Eng. Ind.
 * Aerodyn. 61 (1996) 71–85, eq. (21), in PyWake's CrespoHernandez form:
 *
 *   I₊ = c₀ · a^c₁ · TI₀^c₂ · (dx/D)^c₃ · w,   a = max(2a(Ct)/2, 1e-10),  only where dx > 0,
 *
 * TI₀ the ambient turbulence intensity at the source, a the source's axial induction, and w the
 * area-overlap fraction of the target rotor inside the source's wake radius (the deficit model's:
 * 2σ for Gaussian models, R + k·dx for Jensen), or 1/0 inside/outside it without area averaging.
 * Superposition into the effective turbulence intensity seen by a turbine (turbulenceSuperposition):
 *   sqrmax: TI = √(TI₀² + max I₊²)   (PyWake's SqrMaxSum; Niayifar & Porté-Agel 2016)
 *   linear: TI = TI₀ + Σ I₊,          sos: TI = TI₀ + √(Σ I₊²).
 * Parameters: c = [0.73, 0.8325, 0.0325, −0.32] (PyWake's Niayifar_PorteAgel_2016 values; the paper
 * prints c₂ = −0.0325 with TI in %, see docs/physics.md).
 */
import { twoAFunction, type InductionName, type TwoAFunction } from '../inductionFactor.js';
import { overlapFraction } from '../rotor/areaOverlap.js';
import type { LocalWakeModel } from '../wake/localWake.js';

export type TurbulenceSuperpositionName = 'sqrmax' | 'linear' | 'sos';
export const TURBULENCE_SUPERPOSITION_NAMES: readonly TurbulenceSuperpositionName[] = ['sqrmax', 'linear', 'sos'];

export const CRESPO_HERNANDEZ_DEFAULTS = { c0: 0.73, c1: 0.8325, c2: 0.0325, c3: -0.32 };

export class CrespoHernandez {
  private readonly twoA: TwoAFunction;
  private readonly tg = new Float64Array(1);
  private readonly wg = new Float64Array(3);
  private readonly og = new Float64Array(2);
  private readonly c: { c0: number; c1: number; c2: number; c3: number };
  private tiCached = NaN;
  private tiPow = NaN;
  constructor(
    c: Partial<typeof CRESPO_HERNANDEZ_DEFAULTS>,
    induction: InductionName,
    private readonly diameter: number,
    private readonly targetRadius: number,
    private readonly areaOverlap: boolean,
  ) {
    this.c = { ...CRESPO_HERNANDEZ_DEFAULTS, ...c };
    this.twoA = twoAFunction(induction);
  }

  /** c₀·a^c₁ of a source with thrust `ct` (a bound factor: I₊ ≤ c₀a^c₁ · TI₀^c₂ · (dx/D)^c₃). */
  sourceFactor(ct: number): number {
    return this.c.c0 * Math.pow(Math.max(this.twoA(ct, null) / 2, 1e-10), this.c.c1);
  }
  /** c₂, the exponent of the ambient TI (∂I₊/∂TI₀ = c₂·I₊/TI₀: a site's TI field). */
  get ambientExponent(): number {
    return this.c.c2;
  }
  /** TI₀^c₂. */
  ambientFactor(ti0: number): number {
    return Math.pow(ti0, this.c.c2);
  }
  /** (dx/D)^c₃ for dx > 0, else 0. */
  distanceFactor(dx: number): number {
    return dx > 0 ? Math.pow(dx / this.diameter, this.c.c3) : 0;
  }
  /**
   * An upper bound of distanceFactor(dx) from a table over dx in steps of D/16 (the factor is
   * monotonic in dx; the step end it is taken at, times 1 + 1e-12, bounds it). The screens use
   * it: one table read per pair and direction instead of a power (a time series visits a direction
   * for every sample).
   */
  distanceBound(dx: number): number {
    if (!(dx > 0)) return 0;
    let k = Math.floor((dx / this.diameter) * 16);
    if (this.c.c3 > 0) k += 1;
    if (k <= 0) return this.distanceFactor(dx);
    if (k >= this.boundTable.length) {
      const table = new Float64Array(Math.max(2 * k, 1024));
      for (let i = 1; i < table.length; i++) table[i] = Math.pow(i / 16, this.c.c3) * (1 + 1e-12);
      this.boundTable = table;
    }
    return this.boundTable[k];
  }
  private boundTable = new Float64Array(0);

  /**
   * Added turbulence at (dx, |dy|) from a source with thrust `ct` and ambient TI `ti0`, whose wake
   * is `wake` with coefficients at coef[offset]. g[0] = ∂/∂dx, g[1] = ∂/∂|dy|, g[2] = ∂/∂Ct,
   * g[3] = ∂/∂TI_source (through the wake radius). `knownRadius`, without partials only: the wake
   * radius at dx when the caller has it (the weighted sum keeps σ of every pair), else computed.
   */
  added(
    dx: number,
    absDy: number,
    ct: number,
    ti0: number,
    wake: LocalWakeModel,
    coef: Float64Array,
    offset: number,
    g: Float64Array | null,
    knownRadius = NaN,
  ): number {
    if (!(dx > 0)) {
      if (g) {
        g[0] = 0;
        g[1] = 0;
        g[2] = 0;
        g[3] = 0;
      }
      return 0;
    }
    const wr = !Number.isNaN(knownRadius) && g === null ? knownRadius : wake.wakeRadius(dx, coef, offset, g ? this.wg : null);
    // No overlap (or outside the top-hat): nothing added, whatever the powers below give.
    if (absDy >= wr + (this.areaOverlap ? this.targetRadius : 0)) {
      if (g) {
        g[0] = 0;
        g[1] = 0;
        g[2] = 0;
        g[3] = 0;
      }
      return 0;
    }
    const { c0, c1, c2, c3 } = this.c;
    const rawA = this.twoA(ct, g ? this.tg : null) / 2;
    const a = Math.max(rawA, 1e-10);
    if (ti0 !== this.tiCached) {
      this.tiCached = ti0;
      this.tiPow = Math.pow(ti0, c2);
    }
    const base = c0 * Math.pow(a, c1) * this.tiPow * Math.pow(dx / this.diameter, c3);
    let w: number,
      dwDr = 0,
      dwDd = 0;
    if (this.areaOverlap) {
      w = overlapFraction(wr, this.targetRadius, absDy, g ? this.og : null);
      if (g) {
        dwDr = this.og[0];
        dwDd = this.og[1];
      }
    } else {
      w = absDy < wr ? 1 : 0;
    }
    if (g) {
      const wg = this.wg;
      const daDct = rawA > 1e-10 ? this.tg[0] / 2 : 0;
      g[0] = (base * c3 * w) / dx + base * dwDr * wg[0];
      g[1] = base * dwDd;
      g[2] = ((base * c1) / a) * daDct * w + base * dwDr * wg[1];
      g[3] = base * dwDr * wg[2];
    }
    return base * w;
  }
}
