/**
 * The waked solve (PyWake's PropagateDownwind engineering model) as a loop over its components:
 * for every direction, the ordering (engine/candidates.ts); for every condition of the direction,
 * the forward pass (engine/forward.ts), the objective term's value and seeds (engine/objective.ts)
 * and, with the gradient, the adjoint (engine/backward.ts); the direction's wind-frame gradient
 * is rotated back to the layout frame once.
 *
 * Screening needs a bound on every source's TI: with effective TI and added turbulence, the cap
 * learned from earlier calls (setup.hint, a hint only: a direction where a source exceeds it is
 * solved again without screening, and screening never changes a result).
 */
import type { TurbineMix } from '../turbineMix.js';
import type { WakedSetup } from './wakedSetup.js';
import type { Workspace } from './workspace.js';
import { createPass, type WakedPass } from './pass.js';
import { createOrderScratch, findCandidates, orderTurbines, ReachScreen } from './candidates.js';
import { forwardCondition } from './forward.js';
import { backwardCondition } from './backward.js';
import { AepTerm, type ConditionFlow, type ObjectiveTerm } from './objective.js';
import { addSiteGradient, sampleSiteForDirection, siteAdjoint } from './siteWork.js';

export interface SolveOptions {
  withGradient: boolean;
  /** Visited directions [dirFrom, dirTo) of setup.conditions (default all). */
  dirFrom?: number;
  dirTo?: number;
  /** Types and own count of the turbines (default: every turbine the first type and the farm's own). */
  mix?: TurbineMix;
}

/** What the solve itself returns; the value is the term's. */
export interface SolveResult {
  /** ∂J/∂x, ∂J/∂y in the term's units per metre (empty without the gradient). */
  gradX: Float64Array;
  gradY: Float64Array;
  /** On a site (setup.site), ∂J/∂h_i with respect to each turbine's hub height through the site's free stream (engine/siteWork.ts); else empty. */
  gradH: Float64Array;
  /** Kernel (pair) evaluations actually computed. */
  pairEvaluations: number;
}

export function solveWaked(setup: WakedSetup, x: Float64Array, y: Float64Array, ws: Workspace, options: SolveOptions, term: ObjectiveTerm): SolveResult {
  const { withGradient } = options;
  const { conditions } = setup;
  const nDirVisited = conditions.directionsDeg.length;
  const dirFrom = options.dirFrom ?? 0,
    dirTo = options.dirTo ?? nDirVisited;
  const n = x.length;
  const pass = createPass(setup, ws, n, withGradient, options.mix);
  const screen = new ReachScreen(pass);
  const scratch = createOrderScratch(n);
  const gradX = new Float64Array(withGradient ? n : 0),
    gradY = new Float64Array(withGradient ? n : 0);
  const gradH = new Float64Array(withGradient && ws.site !== null ? n : 0);
  const tiMax = pass.tiLearned ? setup.hint.tiCap : setup.ambientTiMax;
  const flow: ConditionFlow = {
    k: 0,
    weight: 0,
    weightAt: setup.weibullBins !== null ? ws.site!.prob : null,
    n,
    own: pass.own,
    types: setup.types,
    order: ws.order,
    typeAt: ws.typeAt,
    u: ws.u,
    ti: ws.ti,
    ct: ws.ct,
  };
  term.begin(n, setup.wind.directionsDeg.length);
  for (let d = dirFrom; d < dirTo; d++) {
    if (!anyActive(setup, d)) continue;
    const c = setup.cosByDir[d],
      s = setup.sinByDir[d];
    term.startDirection();
    let tiBound = tiMax;
    while (!solveDirection(pass, x, y, d, c, s, tiBound, screen, scratch, term, flow)) {
      term.retryDirection();
      tiBound = Infinity;
    }
    term.endDirection(conditions.resultDirection[d]);
    if (withGradient) addWindFrameGradient(ws.gxw, ws.gyw, ws.order, n, c, s, setup.invWec, term.gradientScale, gradX, gradY);
    if (withGradient && ws.site !== null) addSiteGradient(ws.site, ws.order, n, term.gradientScale, gradX, gradY, gradH);
  }
  if (pass.tiLearned && pass.tiSeen > 0) setup.hint.tiCap = Math.max(pass.tiSeen * 1.05, setup.ambientTiMax);
  return { gradX, gradY, gradH, pairEvaluations: pass.pairEvaluations };
}

/** Whether any condition of direction d has weight and a speed some turbine produces at. */
function anyActive(setup: WakedSetup, d: number): boolean {
  const { start, weight, speed } = setup.conditions;
  for (let k = start[d]; k < start[d + 1]; k++) if (weight[k] > 0 && speed[k] >= setup.minCutIn) return true;
  // A site's speed-up can lift a speed below cut-in above it: every condition with weight is solved.
  if (setup.site !== null) for (let k = start[d]; k < start[d + 1]; k++) if (weight[k] > 0) return true;
  return false;
}

/** Solves every condition of direction d; false when the TI screen missed (solve the direction again without it). */
function solveDirection(
  pass: WakedPass,
  x: Float64Array,
  y: Float64Array,
  d: number,
  c: number,
  s: number,
  tiBound: number,
  screen: ReachScreen,
  scratch: ReturnType<typeof createOrderScratch>,
  term: ObjectiveTerm,
  flow: ConditionFlow,
): boolean {
  const { setup, ws, n, withGradient } = pass;
  const { start, speed, weight } = setup.conditions;
  orderTurbines(pass, x, y, c, s, scratch);
  const reach = screen.forDirection(ws.xs[n - 1] - ws.xs[0], tiBound);
  findCandidates(pass, reach, screen);
  if (withGradient) {
    ws.gxw.fill(0);
    ws.gyw.fill(0);
  }
  if (ws.site !== null) sampleSiteForDirection(pass, x, y, d);
  const minSpeed = ws.site !== null ? -Infinity : setup.minCutIn;
  for (let k = start[d]; k < start[d + 1]; k++) {
    const prob = weight[k];
    if (!(prob > 0) || speed[k] < minSpeed) continue;
    if (!forwardCondition(pass, k, tiBound, reach !== null)) return false;
    flow.k = k;
    flow.weight = prob;
    term.condition(flow, withGradient ? ws.uBar : null, ws.site !== null ? ws.site.probBar : null);
    if (withGradient) backwardCondition(pass, k);
    if (withGradient && ws.site !== null) siteAdjoint(pass, k);
  }
  return true;
}

/**
 * Adds one direction's gradient, kept in the wind frame by downstream position (gxw, gyw; crosswind
 * distances divided by ξ), to the layout frame's gradX/gradY, times `scale`.
 */
export function addWindFrameGradient(
  gxw: Float64Array,
  gyw: Float64Array,
  order: Int32Array,
  n: number,
  c: number,
  s: number,
  invWec: number,
  scale: number,
  gradX: Float64Array,
  gradY: Float64Array,
): void {
  for (let p = 0; p < n; p++) {
    const i = order[p];
    const gy = gyw[p] * invWec;
    gradX[i] += (gxw[p] * c - gy * s) * scale;
    gradY[i] += (gxw[p] * s + gy * c) * scale;
  }
}

/** The AEP term's view of a solve: AEP, by direction and turbine, gradient in MWh per metre. */
export interface WakedResult {
  aepMwh: number;
  perDirectionMwh: Float64Array;
  /** By turbine, neighbours (mix.own …) included: their energy is not part of aepMwh. */
  perTurbineMwh: Float64Array;
  /** ∂AEP/∂x and ∂AEP/∂y in MWh per metre (empty without the gradient). */
  gradX: Float64Array;
  gradY: Float64Array;
  /** On a site: ∂AEP/∂h_i in MWh per metre of each turbine's hub height, through the site's free stream only (absent otherwise; engine/siteWork.ts). */
  gradH?: Float64Array;
  /** Kernel (pair) evaluations actually computed. */
  pairEvaluations: number;
}

/** AEP (and gradient) of a layout: the solve with the AEP term. */
export function evaluateWaked(
  setup: WakedSetup,
  x: Float64Array,
  y: Float64Array,
  withGradient: boolean,
  ws: Workspace,
  dirFrom = 0,
  dirTo = setup.conditions.directionsDeg.length,
  mix?: TurbineMix,
): WakedResult {
  const term = new AepTerm(setup.wind.hoursPerYear);
  const r = solveWaked(setup, x, y, ws, { withGradient, dirFrom, dirTo, mix }, term);
  return {
    aepMwh: term.total(),
    perDirectionMwh: term.perDirectionMwh,
    perTurbineMwh: term.perTurbineMwh,
    gradX: r.gradX,
    gradY: r.gradY,
    ...(r.gradH.length > 0 ? { gradH: r.gradH } : {}),
    pairEvaluations: r.pairEvaluations,
  };
}
