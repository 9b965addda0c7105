/**
 * A case's flow at every turbine in every wind condition (physics/conditionFlows.ts) for a layout
 * of its own turbines: its models and assignment, its neighbours (solved with the farm, left out of
 * the arrays, as they are out of the AEP), its resource as the AEP evaluates it (after a direction
 * treatment: the directions evaluated). What `wflo serve`'s `flow_conditions` answers
 * (docs/python.md: `Farm.flow_conditions`).
 */
import type { Case } from '../case/case.js';
import { caseTypeOf, caseTypes } from './caseEvaluator.js';
import { conditionFlows, type ConditionFlows } from '../physics/conditionFlows.js';

export interface CaseFlowConditions extends ConditionFlows {
  /** 'rose': conditions are bins, nDirections × nSpeeds, direction-major; 'series': one per sample. */
  shape: 'rose' | 'series';
  nDirections: number;
  nSpeeds: number;
  /** The rose's directions and speeds (a series: its summary rose's, for reference). */
  directionsDeg: Float64Array;
  speeds: Float64Array;
}

export function caseFlowConditions(c: Case, x: Float64Array, y: Float64Array): CaseFlowConditions {
  const own = x.length;
  const { types, ownTypes } = caseTypes(c);
  const nb = c.neighbours && c.neighbours.x.length > 0 ? c.neighbours : null;
  const typeOf = own === c.nTurbines ? caseTypeOf(c) : new Int32Array(own);
  let flows: ConditionFlows;
  if (!nb && types.length === 1) {
    flows = conditionFlows(types, c.wind, c.model, x, y);
  } else {
    const nNb = nb ? nb.x.length : 0;
    const xa = new Float64Array(own + nNb),
      ya = new Float64Array(own + nNb),
      ta = new Int32Array(own + nNb);
    xa.set(x);
    ya.set(y);
    ta.set(typeOf);
    if (nb) {
      xa.set(nb.x, own);
      ya.set(nb.y, own);
      ta.set(
        Int32Array.from(nb.typeOf, (t) => t + ownTypes),
        own,
      );
    }
    const all = conditionFlows(types, c.wind, c.model, xa, ya, { typeOf: ta, own });
    const keep = (a: Float64Array) => {
      const out = new Float64Array(all.nConditions * own);
      for (let k = 0; k < all.nConditions; k++) out.set(a.subarray(k * all.n, k * all.n + own), k * own);
      return out;
    };
    flows = { ...all, n: own, wsEff: keep(all.wsEff), tiEff: keep(all.tiEff), ct: keep(all.ct), powerW: keep(all.powerW), weight: keep(all.weight) };
  }
  const series = c.wind.series !== undefined;
  return {
    ...flows,
    shape: series ? 'series' : 'rose',
    nDirections: c.wind.directionsDeg.length,
    nSpeeds: c.wind.speeds.length,
    directionsDeg: c.wind.directionsDeg,
    speeds: c.wind.speeds,
  };
}
