/**
 * N.O. Jensen (NOJ) top-hat wake with partial rotor overlap.
 *
 * N.O. Jensen, "A note on wind generator interaction", Risø-M-2411 (1983);
 * I. Katić, J. Højstrup, N.O. Jensen, "A simple model for cluster efficiency", EWEC 1986.
 *
 *   r_w(dx) = R + k·dx
 *   δ       = (1 − √(1 − Ct)) · (R / r_w)² · A_overlap(|dy|; R, r_w) / (π R²)
 *           = (1 − √(1 − Ct)) · A_overlap / (π r_w²),      only where dx > 0
 *
 * A_overlap is the area of the downstream rotor disc (radius R, centre at crosswind distance |dy|)
 * inside the wake disc (radius r_w). Its derivatives are geometric facts used for the exact
 * gradient: ∂A/∂d = −(length of the common chord), ∂A/∂r_w = (arc of the wake circle inside the
 * rotor disc) = 2·r_w·α_w, with α_w the half-angle of that arc.
 * Parameters: k = 0.075 (wake decay constant, Katić et al.'s onshore value; ~0.04 offshore).
 */
import type { WakeDeficitModel, WakeKernel } from './wakeModel.js';
import type { LocalWakeFactory, LocalWakeModel } from './localWake.js';
import { overlapFraction } from '../rotor/areaOverlap.js';
import { twoAFunction, type InductionName, type TwoAFunction } from '../inductionFactor.js';
import type { DeficitModel } from './deficitModel.js';

class JensenKernel implements WakeKernel {
  private readonly k: number;
  private readonly radius: number;
  private readonly amplitude: number;

  constructor(k: number, ct: number, diameter: number) {
    this.k = k;
    this.radius = diameter / 2;
    this.amplitude = 1 - Math.sqrt(1 - Math.min(ct, 1));
  }

  value(dx: number, dy: number): number {
    if (dx <= 0) return 0;
    const rw = this.radius + this.k * dx;
    const d = Math.abs(dy);
    const R = this.radius;
    if (d >= R + rw) return 0;
    let area: number;
    if (d <= rw - R) {
      area = Math.PI * R * R;
    } else {
      const alphaR = Math.acos((d * d + R * R - rw * rw) / (2 * d * R));
      const alphaW = Math.acos((d * d + rw * rw - R * R) / (2 * d * rw));
      const kite = 0.5 * Math.sqrt(Math.max(0, (-d + R + rw) * (d + R - rw) * (d - R + rw) * (d + R + rw)));
      area = R * R * alphaR + rw * rw * alphaW - kite;
    }
    return (this.amplitude * area) / (Math.PI * rw * rw);
  }

  valueAndGradient(dx: number, dy: number, out: Float64Array, offset: number): number {
    out[offset] = 0;
    out[offset + 1] = 0;
    if (dx <= 0) return 0;
    const rw = this.radius + this.k * dx;
    const d = Math.abs(dy);
    const R = this.radius;
    if (d >= R + rw) return 0;
    let area: number, dAreaDd: number, dAreaDrw: number;
    if (d <= rw - R) {
      area = Math.PI * R * R;
      dAreaDd = 0;
      dAreaDrw = 0;
    } else {
      const alphaR = Math.acos((d * d + R * R - rw * rw) / (2 * d * R));
      const alphaW = Math.acos((d * d + rw * rw - R * R) / (2 * d * rw));
      const kite = 0.5 * Math.sqrt(Math.max(0, (-d + R + rw) * (d + R - rw) * (d - R + rw) * (d + R + rw)));
      area = R * R * alphaR + rw * rw * alphaW - kite;
      dAreaDd = -2 * R * Math.sin(alphaR);
      dAreaDrw = 2 * rw * alphaW;
    }
    const scale = this.amplitude / (Math.PI * rw * rw);
    const deficit = scale * area;
    out[offset] = this.k * (scale * dAreaDrw - (2 * deficit) / rw);
    out[offset + 1] = scale * dAreaDd * (dy < 0 ? -1 : 1);
    return deficit;
  }
}

export const jensenWake: WakeDeficitModel = {
  name: 'jensen',
  defaults: { k: 0.075 },
  prepare(ct, diameter, params) {
    return new JensenKernel(params.k ?? 0.075, ct, diameter);
  },
};

/**
 * The waked-inflow form, as PyWake's NOJDeficit (Jensen_1983) computes it:
 *
 *   r_w = R + k·dx,   δ = 2a(Ct) · (R / r_w)² · w,
 *   w = area-overlap fraction of the target rotor inside the wake disc (rotor/areaOverlap.ts), or,
 *       without area averaging, 1 where cw < r_w and 0 elsewhere (then ∂δ/∂cw = 0),
 *
 * with 2a(Ct) from the chosen relation (PyWake's default: Madsen's polynomial, no cap).
 * Parameters: k = 0.075 here (the free-stream model's default; PyWake's Jensen_1983 uses 0.1).
 * Coefficients per source: [2a(Ct), d(2a)/dCt].
 */
class JensenLocalWake implements LocalWakeModel {
  readonly name = 'jensen';
  readonly coefficientCount = 2;
  readonly usesTurbulence = false;
  readonly averagesOverRotor: boolean;
  private readonly twoA: TwoAFunction;
  private readonly tg = new Float64Array(1);
  private readonly og = new Float64Array(2);
  constructor(
    private readonly k: number,
    private readonly radius: number,
    private readonly targetRadius: number,
    induction: InductionName,
    areaOverlap: boolean,
  ) {
    this.twoA = twoAFunction(induction);
    this.averagesOverRotor = areaOverlap;
  }
  prepareSource(ct: number, _ti: number, c: Float64Array, o: number): void {
    c[o] = this.twoA(ct, this.tg);
    c[o + 1] = this.tg[0];
  }
  reach(dx: number): number {
    // No overlap beyond r_w + R_target; without area averaging, nothing beyond r_w.
    return (this.radius + this.k * Math.max(dx, 0) + this.targetRadius) * (1 + 1e-12);
  }
  wakeRadius(dx: number, _c: Float64Array, _o: number, g: Float64Array | null): number {
    if (g) {
      g[0] = this.k;
      g[1] = 0;
      g[2] = 0;
    }
    return this.radius + this.k * dx;
  }
  deficit(dx: number, cw2: number, c: Float64Array, o: number, g: Float64Array | null): number {
    const rw = this.radius + this.k * dx;
    const d = Math.sqrt(cw2);
    let w: number;
    let dwDr = 0,
      dwDd = 0;
    if (this.averagesOverRotor) {
      w = overlapFraction(rw, this.targetRadius, d, g ? this.og : null);
      if (g) {
        dwDr = this.og[0];
        dwDd = this.og[1];
      }
    } else {
      w = rw > d ? 1 : 0;
    }
    const ratio = this.radius / rw;
    const shape = ratio * ratio;
    const f = c[o] * shape * w;
    if (g) {
      g[0] = c[o] * this.k * (shape * dwDr - (2 * shape * w) / rw);
      g[1] = d > 0 ? (c[o] * shape * dwDd) / (2 * d) : 0;
      g[2] = c[o + 1] * shape * w;
      g[3] = 0;
    }
    return f;
  }
}

export const jensenLocal: LocalWakeFactory = {
  name: 'jensen',
  defaults: { k: 0.075 },
  create({ params, diameter, targetRadius, induction, areaOverlap }) {
    return new JensenLocalWake(params.k ?? 0.075, diameter / 2, targetRadius, induction, areaOverlap);
  },
};

/** Jensen (NOJ) top-hat: both engine forms, the native kernel's top-hat. */
export const jensen: DeficitModel = {
  name: 'jensen',
  reference: 'N.O. Jensen, Risø-M-2411 (1983); Katić, Højstrup & Jensen, EWEC 1986',
  aliases: ['noj', 'nojdeficit', 'park', 'katic', 'jensentophat', 'jensen1983'],
  describedBy: /\bnoj\b|jensen/i,
  profile: 'top-hat',
  parameters: {
    k: { default: 0.075, min: 0, minExclusive: true, max: 1, doc: 'wake growth per metre downstream; published 0.02–0.1' },
  },
  waked: jensenLocal,
  freeStream: jensenWake,
  wakedDefaults: { ct2a: 'mom1d', deficitReference: 'free-stream', useEffectiveTi: false, turbulence: 'none', rotorAverage: 'area-overlap' },
  library: { superposition: 'sos', params: { k: 0.1 } },
  windioExpansion: { ka: null, kb: 'k' },
  native: (p) => ({ kind: 'top-hat', k: p.k ?? 0.075 }),
};
