/**
 * The turbine-ordering component of the waked solve, once per direction: the layout rotated into
 * the wind frame (IEA37 convention, x_w downstream), turbines sorted by downstream distance (ties
 * by index), and every target's candidate sources — the turbines before it whose wake can reach it
 * for some condition of the direction. A pair is screened out when its crosswind distance exceeds
 * the model's reach (wake/localWake.ts `reach`) for the largest Ct and TI possible, plus the target
 * rotor's radius where rotor points or added turbulence reach its edge; screening never changes a
 * result, only which exact zeros are computed.
 */
import type { WakedPass } from './pass.js';

/** reach[k] bounds every pair model's reach for dx ≤ k·step (reach grows with dx); rebuilt when the TI bound changes. */
export class ReachScreen {
  readonly step: number;
  /** Rotor points and added turbulence reach the target rotor's edge. */
  readonly margin: number;
  private table = new Float64Array(0);
  private tableTi = NaN;

  constructor(private readonly pass: WakedPass) {
    const s = pass.setup;
    this.step = s.minDiameter / 8;
    this.margin = s.points !== null || s.turbulence !== null ? s.maxRadius * (1 + 1e-12) : 0;
  }

  /** The table for a direction of downstream extent `extent` with every source's TI ≤ tiBound, or null when the reach is unbounded. */
  forDirection(extent: number, tiBound: number): Float64Array | null {
    const { setup, several } = this.pass;
    if (!several) {
      if (!Number.isFinite(setup.model.reach(1000 * setup.types[0].diameter, setup.ctMax, tiBound))) return null;
    } else if (!Number.isFinite(this.reachOf(1000 * setup.minDiameter, tiBound))) return null;
    const need = Math.ceil(extent / this.step) + 2;
    if (this.table.length < need || this.tableTi !== tiBound) {
      this.table = new Float64Array(Math.max(need, this.table.length));
      this.tableTi = tiBound;
      const table = this.table;
      for (let k = 0; k < table.length; k++) table[k] = several ? this.reachOf(k * this.step, tiBound) : setup.model.reach(k * this.step, setup.ctMax, tiBound);
    }
    return this.table;
  }

  /** The largest reach of any pair of types. */
  private reachOf(dx: number, tiBound: number): number {
    const { pairModels, ctMaxByType } = this.pass.setup;
    const nTypes = this.pass.nTypes;
    let r = 0;
    for (let a = 0; a < nTypes; a++) for (let b = 0; b < nTypes; b++) r = Math.max(r, pairModels[a * nTypes + b].reach(dx, ctMaxByType[a], tiBound));
    return r;
  }
}

/** Scratch of the ordering that lives for one call (the sort starts from the previous direction's order). */
export interface OrderScratch {
  idx: number[];
  xw: Float64Array;
  yw: Float64Array;
}

export function createOrderScratch(n: number): OrderScratch {
  return { idx: Array.from({ length: n }, (_, i) => i), xw: new Float64Array(n), yw: new Float64Array(n) };
}

/** Rotates the layout by (c, s) = (cos, sin) of 270° − direction and fills the downstream order, positions and types by position. */
export function orderTurbines(pass: WakedPass, x: Float64Array, y: Float64Array, c: number, s: number, scratch: OrderScratch): void {
  const { n, ws, typeOf } = pass;
  const { idx, xw, yw } = scratch;
  const { order, xs, ys, typeAt, d2At } = ws;
  const d2ByType = pass.setup.d2ByType;
  for (let i = 0; i < n; i++) {
    xw[i] = x[i] * c + y[i] * s;
    yw[i] = -x[i] * s + y[i] * c;
  }
  idx.sort((a, b) => xw[a] - xw[b] || a - b);
  for (let p = 0; p < n; p++) {
    order[p] = idx[p];
    xs[p] = xw[idx[p]];
    ys[p] = yw[idx[p]];
    const tp = typeOf ? typeOf[idx[p]] : 0;
    typeAt[p] = tp;
    d2At[p] = d2ByType[tp];
  }
}

/** Candidate sources of every target (ws.candStart … candDz, and the added-turbulence distance bounds). */
export function findCandidates(pass: WakedPass, reach: Float64Array | null, screen: ReachScreen): void {
  const { n, ws, several, nTypes, hubVaries } = pass;
  const { types, turbulence, pairTurbulence, invWec } = pass.setup;
  const { xs, ys, typeAt, candStart, candSrc, candDx, candDy, candDz, pDxPow } = ws;
  const step = screen.step,
    margin = screen.margin;
  let m = 0;
  for (let p = 0; p < n; p++) {
    candStart[p] = m;
    const xp = xs[p],
      yp = ys[p];
    const hp = types[typeAt[p]].hubHeight;
    for (let q = 0; q < p; q++) {
      const dx = xp - xs[q],
        dy = (yp - ys[q]) * invWec;
      if (reach !== null && Math.abs(dy) > reach[Math.ceil(dx / step)] + margin) continue;
      candSrc[m] = q;
      candDx[m] = dx;
      candDy[m] = dy;
      candDz[m] = hubVaries ? hp - types[typeAt[q]].hubHeight : 0;
      if (turbulence !== null) pDxPow[m] = (several ? pairTurbulence![typeAt[q] * nTypes + typeAt[p]] : turbulence).distanceBound(dx);
      m++;
    }
  }
  candStart[n] = m;
}
