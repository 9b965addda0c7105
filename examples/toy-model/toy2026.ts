/**
 * A toy wake deficit model — the worked example of CONTRIBUTING.md ("Adding a wake model"): a
 * Gaussian wake of fixed amplitude Ct/2 whose width grows linearly downstream,
 *
 *   σ(dx) = D/4 + k·dx,   δ = (Ct/2) · (D / 4σ)² · exp(−cw² / 2σ²),   only where dx > 0,
 *
 * with its exact partial derivatives (the engine's adjoint needs them). Not a published model.
 * Parameters: k = 0.05 (width growth per metre downstream).
 */
import type { DeficitModel } from './deficitModel.js';
import type { LocalWakeFactory, LocalWakeModel } from './localWake.js';

class ToyWake implements LocalWakeModel {
  readonly name = 'toy2026';
  readonly coefficientCount = 2; // per source: [Ct/2, d(Ct/2)/dCt]
  readonly usesTurbulence = false;
  readonly averagesOverRotor = false;
  constructor(private readonly k: number, private readonly diameter: number) {}
  prepareSource(ct: number, _ti: number, c: Float64Array, o: number): void {
    c[o] = ct / 2;
    c[o + 1] = 0.5;
  }
  reach(): number {
    return Infinity; // a Gaussian is never exactly 0
  }
  wakeRadius(dx: number, _c: Float64Array, _o: number, g: Float64Array | null): number {
    if (g) { g[0] = 2 * this.k; g[1] = 0; g[2] = 0; }
    return 2 * (this.diameter / 4 + this.k * Math.max(dx, 0));
  }
  /** g: [∂δ/∂dx, ∂δ/∂cw², ∂δ/∂Ct, ∂δ/∂TI]. */
  deficit(dx: number, cw2: number, c: Float64Array, o: number, g: Float64Array | null): number {
    if (dx <= 0) { if (g) g.fill(0, 0, 4); return 0; }
    const sigma = this.diameter / 4 + this.k * dx;
    const s = this.diameter / (4 * sigma);
    const e = Math.exp(-cw2 / (2 * sigma * sigma));
    const f = c[o] * s * s * e;
    if (g) {
      g[0] = f * this.k * (cw2 / (sigma * sigma * sigma) - 2 / sigma);
      g[1] = -f / (2 * sigma * sigma);
      g[2] = c[o + 1] * s * s * e;
      g[3] = 0;
    }
    return f;
  }
}

const toyLocal: LocalWakeFactory = {
  name: 'toy2026',
  defaults: { k: 0.05 },
  create: ({ params, diameter }) => new ToyWake(params.k ?? 0.05, diameter),
};

export const toy2026: DeficitModel = {
  name: 'toy2026',
  reference: 'a toy model: CONTRIBUTING.md, "Adding a wake model"',
  aliases: ['toy'],
  describedBy: /\btoy\b/i,
  profile: 'gaussian',
  parameters: { k: { default: 0.05, min: 0, minExclusive: true, max: 1, doc: 'wake width growth per metre downstream' } },
  waked: toyLocal,
  wakedDefaults: { ct2a: 'mom1d', deficitReference: 'free-stream', useEffectiveTi: false, turbulence: 'none', rotorAverage: 'center' },
  library: { superposition: 'sos' },
};
