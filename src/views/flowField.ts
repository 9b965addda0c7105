/**
 * Hub-height wind speed over a regular grid for one wind direction, from the same farm model the
 * AEP uses (wake deficit kernel + superposition rule of the case; see physics/aep.ts): every grid
 * point is a "target" waked by every turbine upstream of it,
 *
 *   u(x, y) = U (1 − D(x, y)),   D = superposition over turbines i of δ(dx_i, dy_i)   (dx_i > 0)
 *
 * with (dx, dy) in the wind frame of physics/aep.ts (θ' = 270° − θ, x_w = x cos θ' + y sin θ').
 * U is the probability-weighted mean speed of the rose direction nearest to the one asked for
 * (speeds below cut-in excluded), and thrust is evaluated at U, as in the AEP. With a blockage
 * model the induction of every turbine (thrust at U) is subtracted too, u −= U Σ β_i, except
 * inside a turbine's wake downstream (physics/blockageSolve.ts): the slow-down ahead of the farm
 * and the speed-up beside the wakes show.
 *
 * Models the free-stream engine does not evaluate (Niayifar, TurbOPark, Zong, Blondel, Carbajo
 * Fuertes, a tabulated-Ct turbine, the ground mirror, …) are drawn with the waked engine's speeds
 * at the cell centres (physics/wakedField.ts): the turbines solved as in the AEP at speed U, every
 * cell a point target of the turbines upstream of it.
 */
import type { Case } from '../case/case.js';
import { thrustCoefficientAt } from '../physics/turbine.js';
import { deficitModel } from '../physics/wake/registry.js';
import { SUPERPOSITIONS } from '../physics/superposition/registry.js';
import { induction, pairGeometry, sourceGamma, SELF_SIMILARITY_2020 } from '../physics/blockage/selfSimilarity2020.js';
import { wakedSetup } from '../physics/engine/wakedSetup.js';
import { wakedSpeedsAt } from '../physics/wakedField.js';
import { InputError } from '../util/errors.js';
import { solvePlan } from '../physics/solvePlan.js';

export interface FlowGrid {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  nx: number;
  ny: number;
}

export interface FlowField extends FlowGrid {
  directionDeg: number;
  freeStreamSpeed: number;
  /** Speed at cell (ix, iy) at [iy * nx + ix]; row iy = 0 is the top (largest y), cell centres. */
  speedByCell: Float32Array;
  minSpeed: number;
}

/** Free-stream speed used for a direction: probability-weighted mean speed of the nearest rose direction. */
export function freeStreamSpeedFor(c: Pick<Case, 'wind' | 'turbine'>, directionDeg: number): number {
  const { directionsDeg, speeds, probability } = c.wind;
  let nearest = 0,
    best = Infinity;
  for (let d = 0; d < directionsDeg.length; d++) {
    const gap = Math.abs(((directionsDeg[d] - directionDeg + 540) % 360) - 180);
    if (gap < best) {
      best = gap;
      nearest = d;
    }
  }
  let weighted = 0,
    total = 0;
  for (let s = 0; s < speeds.length; s++) {
    const p = probability[nearest * speeds.length + s];
    if (speeds[s] < c.turbine.cutIn || !(p > 0)) continue;
    weighted += p * speeds[s];
    total += p;
  }
  if (total > 0) return weighted / total;
  let mean = 0;
  for (let s = 0; s < speeds.length; s++) mean += speeds[s] / speeds.length;
  return mean;
}

export function flowField(c: Pick<Case, 'wind' | 'turbine' | 'model'>, x: Float64Array, y: Float64Array, directionDeg: number, grid: FlowGrid): FlowField {
  const u = freeStreamSpeedFor(c, directionDeg);
  // The wakes are drawn by the solver the solve plan gives them for this one condition (the blockage, if any, is taken off below).
  const { blockage: _, ...wakes } = c.model;
  const plan = solvePlan({ types: [c.turbine], neighbours: false, wind: {} }, wakes);
  if (plan.solver === 'weighted-sum')
    throw new InputError(
      "--flow: the flow field of the weighted-sum superposition is not drawn (its AEP is computed as usual); use 'linear' or 'sos' for the picture",
    );
  if (plan.solver !== 'free-stream') return wakedFlowField(c, x, y, directionDeg, grid, u);
  const wake = deficitModel(c.model.wake)?.freeStream;
  const superposition = SUPERPOSITIONS[c.model.superposition];
  if (!wake || !superposition) throw new Error(`unknown wake model '${c.model.wake}' or superposition '${c.model.superposition}'`);
  const kernel = wake.prepare(thrustCoefficientAt(c.turbine, u), c.turbine.diameter, { ...wake.defaults, ...(c.model.params ?? {}) });
  const theta = ((270 - directionDeg) * Math.PI) / 180;
  const cos = Math.cos(theta),
    sin = Math.sin(theta);
  const n = x.length;
  const xwByTurbine = new Float64Array(n),
    ywByTurbine = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xwByTurbine[i] = x[i] * cos + y[i] * sin;
    ywByTurbine[i] = -x[i] * sin + y[i] * cos;
  }
  const blockage = c.model.blockage ? inductionAt(c, u, xwByTurbine, ywByTurbine) : null;
  const { nx, ny, minX, maxX, minY, maxY } = grid;
  const speedByCell = new Float32Array(nx * ny);
  const cellW = (maxX - minX) / nx,
    cellH = (maxY - minY) / ny;
  let minSpeed = u;
  for (let iy = 0; iy < ny; iy++) {
    const py = maxY - (iy + 0.5) * cellH;
    for (let ix = 0; ix < nx; ix++) {
      const px = minX + (ix + 0.5) * cellW;
      const xw = px * cos + py * sin,
        yw = -px * sin + py * cos;
      let acc = 0;
      for (let i = 0; i < n; i++) {
        const dx = xw - xwByTurbine[i];
        if (dx <= 0) continue;
        acc = superposition.add(acc, kernel.value(dx, yw - ywByTurbine[i]));
      }
      const speed = u * (1 - superposition.finish(acc) - (blockage ? blockage(xw, yw) : 0));
      speedByCell[iy * nx + ix] = speed;
      if (speed < minSpeed) minSpeed = speed;
    }
  }
  return { ...grid, directionDeg, freeStreamSpeed: u, speedByCell, minSpeed };
}

/** flowField for the models of the waked engine: its speeds at the cell centres, less the blockage as above. */
function wakedFlowField(
  c: Pick<Case, 'wind' | 'turbine' | 'model'>,
  x: Float64Array,
  y: Float64Array,
  directionDeg: number,
  grid: FlowGrid,
  u: number,
): FlowField {
  const { nx, ny, minX, maxX, minY, maxY } = grid;
  const cellW = (maxX - minX) / nx,
    cellH = (maxY - minY) / ny;
  const px = new Float64Array(nx * ny),
    py = new Float64Array(nx * ny);
  for (let iy = 0; iy < ny; iy++) {
    for (let ix = 0; ix < nx; ix++) {
      px[iy * nx + ix] = minX + (ix + 0.5) * cellW;
      py[iy * nx + ix] = maxY - (iy + 0.5) * cellH;
    }
  }
  const { blockage: _, ...wakes } = c.model;
  const speeds = wakedSpeedsAt(c.turbine, { ...wakes, inflow: 'waked' }, x, y, directionDeg, u, c.wind.turbulenceIntensity, px, py);
  let blockage: ((xw: number, yw: number) => number) | null = null;
  const theta = ((270 - directionDeg) * Math.PI) / 180;
  const cos = Math.cos(theta),
    sin = Math.sin(theta);
  if (c.model.blockage) {
    const xw = Float64Array.from(x, (xi, i) => xi * cos + y[i] * sin),
      yw = Float64Array.from(x, (xi, i) => -xi * sin + y[i] * cos);
    blockage = inductionAt(c, u, xw, yw);
  }
  const speedByCell = new Float32Array(nx * ny);
  let minSpeed = u;
  for (let k = 0; k < speeds.length; k++) {
    const speed = speeds[k] - (blockage ? u * blockage(px[k] * cos + py[k] * sin, -px[k] * sin + py[k] * cos) : 0);
    speedByCell[k] = speed;
    if (speed < minSpeed) minSpeed = speed;
  }
  return { ...grid, directionDeg, freeStreamSpeed: u, speedByCell, minSpeed };
}

/** Σ β_i at a wind-frame point: the induction of every turbine at thrust Ct(U), 0 inside its wake downstream. */
function inductionAt(c: Pick<Case, 'wind' | 'turbine' | 'model'>, u: number, xw: Float64Array, yw: Float64Array): (px: number, py: number) => number {
  const setup = wakedSetup(c.turbine, c.wind, { ...c.model, inflow: 'free-stream' });
  const ct = thrustCoefficientAt(c.turbine, u);
  const coef = new Float64Array(setup.model.coefficientCount);
  setup.model.prepareSource(ct, c.wind.turbulenceIntensity, coef, 0);
  const gam = new Float64Array(4),
    geom = new Float64Array(5);
  sourceGamma(ct, gam, 0);
  const radius = c.turbine.diameter / 2;
  return (px, py) => {
    let sum = 0;
    for (let i = 0; i < xw.length; i++) {
      const dx = px - xw[i],
        dy = py - yw[i];
      if (dx >= -SELF_SIMILARITY_2020.limiter * radius && Math.abs(dy) <= setup.model.wakeRadius(dx, coef, 0, null)) continue;
      if (pairGeometry(dx, dy, radius, geom, 0)) sum += induction(geom, 0, ct, gam, 0, null);
    }
    return sum;
  };
}
