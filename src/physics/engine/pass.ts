/**
 * One evaluation of the waked solve: the setup, the workspace and what the layout's turbines add
 * (how many there are, which are the farm's own, their types and whether hub heights differ), with
 * the running counters of the call. Made once per call by engine/solveWaked.ts and read by the
 * components (candidates, forward, backward); every choice between code paths is made here or in
 * the setup, never per pair.
 */
import type { WakedSetup } from './wakedSetup.js';
import type { Workspace } from './workspace.js';
import type { TurbineMix } from '../turbineMix.js';
import type { LinearGaussianBatch } from '../wake/gaussianLocal.js';
import { GaussianLocalWake } from '../wake/gaussianLocal.js';

export interface WakedPass {
  readonly setup: WakedSetup;
  readonly ws: Workspace;
  readonly n: number;
  /** Turbines [0, own) are the farm's; [own, n) fixed neighbours. */
  readonly own: number;
  readonly nTypes: number;
  /** More than one type: per-pair model lookups (with one type every lookup is the first model). */
  readonly several: boolean;
  readonly typeOf: Int32Array | null;
  readonly hubVaries: boolean;
  readonly withGradient: boolean;
  /** Effective TI fed back through added turbulence: the screen's TI bound is learned (setup.hint). */
  readonly tiLearned: boolean;
  readonly sqrMax: boolean;
  /** The batch form's view of the workspace (setup.batch), else null. */
  readonly batch: LinearGaussianBatch | null;
  /** Ct at the free-stream speed of the condition, by type (free-stream inflow). */
  readonly ctFreeByType: Float64Array;
  /** Largest effective TI seen in this call. */
  tiSeen: number;
  pairEvaluations: number;
}

export function createPass(setup: WakedSetup, ws: Workspace, n: number, withGradient: boolean, mix?: TurbineMix): WakedPass {
  const nTypes = setup.types.length;
  const typeOf = mix?.typeOf ?? null;
  let hubVaries = false;
  if (typeOf)
    for (let i = 1; i < n; i++)
      if (setup.types[typeOf[i]].hubHeight !== setup.types[typeOf[0]].hubHeight) {
        hubVaries = true;
        break;
      }
  const several = nTypes > 1;
  const model = setup.model;
  const batch: LinearGaussianBatch | null =
    setup.batch === null
      ? null
      : {
          candSrc: ws.candSrc,
          candDx: ws.candDx,
          candDy: ws.candDy,
          candDz: ws.candDz,
          coef: ws.coef,
          coefCount: model.coefficientCount,
          d2At: several ? ws.d2At : null,
          d2over8: model instanceof GaussianLocalWake ? model.d2over8 : 0,
          hubVaries,
          madsen: setup.batch === 'madsen',
          uRef: setup.referenceIsEffective ? ws.u : null,
          supKind: setup.supKind,
          pair: ws.pair,
        };
  return {
    setup,
    ws,
    n,
    own: mix ? mix.own : n,
    nTypes,
    several,
    typeOf,
    hubVaries,
    withGradient,
    tiLearned: setup.useEffectiveTi && setup.turbulence !== null,
    sqrMax: setup.turbulence !== null && setup.turbulenceSuperposition === 'sqrmax',
    batch,
    ctFreeByType: new Float64Array(nTypes),
    tiSeen: 0,
    pairEvaluations: 0,
  };
}
