/**
 * Scratch memory of the waked solve for one layout size: the direction's downstream order and
 * candidate pairs, the flow of the condition being solved (by downstream position), the pair
 * partials the adjoint reads, and the adjoints. It holds nothing between calls: results never
 * depend on what it held before. Memory: O(N²) for one direction and condition at a time.
 */
import type { WakedSetup } from './wakedSetup.js';
import { createSiteWork, type SiteWork } from './siteWorkspace.js';

export interface Workspace {
  n: number;
  xs: Float64Array;
  ys: Float64Array;
  order: Int32Array;
  candStart: Int32Array;
  candSrc: Int32Array;
  candDx: Float64Array;
  candDy: Float64Array;
  // By position in downstream order, for the current condition.
  u: Float64Array;
  ti: Float64Array;
  ct: Float64Array;
  total: Float64Array;
  tiAcc: Float64Array;
  tiArg: Int32Array;
  coef: Float64Array;
  /** Per candidate pair e, interleaved for locality: [5e] δ, [5e+1] ∂δ/∂dx, [5e+2] ∂δ/∂dy, [5e+3] ∂δ/∂Ct, [5e+4] ∂δ/∂TI. */
  pair: Float64Array;
  /** Added turbulence by candidate pair and its partials. */
  tAdd: Float64Array;
  tDx: Float64Array;
  tDy: Float64Array;
  tCt: Float64Array;
  tTi: Float64Array;
  /** Adjoints by position; the seed of uBar is the objective's (engine/objective.ts). */
  uBar: Float64Array;
  ctBar: Float64Array;
  tiBar: Float64Array;
  gxw: Float64Array;
  gyw: Float64Array;
  g: Float64Array;
  gt: Float64Array;
  /** Added-turbulence bound factors: c₀a^c₁ by position, (dx/D)^c₃ by candidate pair. */
  tSrc: Float64Array;
  pDxPow: Float64Array;
  /** Several types: type by position, h_target − h_source by candidate pair, D²/8 of the source by position. */
  typeAt: Int32Array;
  candDz: Float64Array;
  d2At: Float64Array;
  /** The image's partials of one pair (the ground mirror). */
  mirrorPartials: Float64Array;
  /** A site that is not uniform: each turbine's local free stream and its adjoints (engine/siteWork.ts); null on a uniform site. */
  site: SiteWork | null;
}

export function createWakedWorkspace(setup: WakedSetup, n: number): Workspace {
  return createWorkspace(n, setup.model.coefficientCount, setup.turbulence !== null, setup.site !== null);
}

export function createWorkspace(n: number, coefCount: number, withTurbulence: boolean, withSite = false): Workspace {
  const pairs = Math.max(1, (n * (n - 1)) / 2);
  const f = (m: number) => new Float64Array(m);
  const t = (m: number) => f(withTurbulence ? m : 0);
  return {
    n,
    xs: f(n),
    ys: f(n),
    order: new Int32Array(n),
    candStart: new Int32Array(n + 1),
    candSrc: new Int32Array(pairs),
    candDx: f(pairs),
    candDy: f(pairs),
    u: f(n),
    ti: f(n),
    ct: f(n),
    total: f(n),
    tiAcc: f(n),
    tiArg: new Int32Array(n),
    coef: f(n * coefCount),
    pair: f(5 * pairs),
    tAdd: t(pairs),
    tDx: t(pairs),
    tDy: t(pairs),
    tCt: t(pairs),
    tTi: t(pairs),
    uBar: f(n),
    ctBar: f(n),
    tiBar: f(n),
    gxw: f(n),
    gyw: f(n),
    g: f(4),
    gt: f(4),
    tSrc: t(n),
    pDxPow: t(pairs),
    typeAt: new Int32Array(n),
    candDz: f(pairs),
    d2At: f(n),
    mirrorPartials: f(4),
    site: withSite ? createSiteWork(n) : null,
  };
}
