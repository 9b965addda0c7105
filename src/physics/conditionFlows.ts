/**
 * The flow at every turbine in every wind condition of a resource, as the waked solve computes the
 * AEP from it (engine/solveWaked.ts with a recording objective term): each turbine's effective
 * speed, effective TI, Ct and power, and the weight (probability or time share, times the
 * turbine's own probability on a per-point Weibull site) its power is counted with, so that
 *
 *   AEP = hours · 1e-6 · Σ_k Σ_{own i} weight[k, i] · power[k, i]     [MWh]
 *
 * Conditions are in the resource's order: a rose's bin k = direction · nSpeeds + speed, a time
 * series' sample t. Every condition is solved, also those the AEP skips (weight 0, or below every
 * cut-in speed: power 0 there), so the arrays hold no gaps. The waked solve and the weighted sum
 * (the solve plan's choice, solvePlan.ts); blockage refuses the need (blockageCovers.ts: one line,
 * exit 2).
 */
import type { Turbine } from './turbine.js';
import { powerAt } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import type { TurbineMix } from './turbineMix.js';
import { solvePlan } from './solvePlan.js';
import { wakedSetup, type WakedSetup } from './engine/wakedSetup.js';
import { createWakedWorkspace } from './engine/workspace.js';
import { solveWaked } from './engine/solveWaked.js';
import type { ConditionFlow, ObjectiveTerm } from './engine/objective.js';
import { weightedSumSetup } from './wakedAep.js';
import { conditionTi, evaluateWeightedSum } from './superposition/weightedSum.js';

export interface ConditionFlows {
  /** Conditions (rose bins or series samples, in the resource's order) and turbines (the farm's own, then neighbours). */
  nConditions: number;
  n: number;
  /** By condition: the wind direction (°), free-stream speed (m/s) and ambient TI the condition has. */
  directionDeg: Float64Array;
  speed: Float64Array;
  ambientTi: Float64Array;
  /** By condition × turbine (row-major, [k * n + i]). */
  wsEff: Float64Array;
  tiEff: Float64Array;
  ct: Float64Array;
  powerW: Float64Array;
  weight: Float64Array;
  /** Hours per year of the resource (what 1 W for a year is in Wh). */
  hoursPerYear: number;
}

/** A term that records the solved flow of every condition by turbine index (its value is nothing). */
class FlowRecorder implements ObjectiveTerm {
  readonly gradientScale = 1;
  constructor(
    private readonly out: ConditionFlows,
    private readonly rowOf: Int32Array,
    private readonly weightOf: Float64Array,
  ) {}
  begin(): void {}
  startDirection(): void {}
  retryDirection(): void {} // a direction solved again overwrites its rows
  endDirection(): void {}
  condition(flow: ConditionFlow): void {
    const { n, order, typeAt, u, ti, ct, types, weightAt } = flow;
    const base = this.rowOf[flow.k] * n;
    const w = this.weightOf[flow.k];
    for (let p = 0; p < n; p++) {
      const e = base + order[p];
      this.out.wsEff[e] = u[p];
      this.out.tiEff[e] = ti[p];
      this.out.ct[e] = ct[p];
      this.out.powerW[e] = powerAt(types[typeAt[p]], u[p]);
      this.out.weight[e] = weightAt !== null ? w * weightAt[p] : w;
    }
  }
}

/** The flow of every condition of `wind` at turbines (x, y) of types `mix` (default: all of the first type, all own). */
export function conditionFlows(
  types: readonly Turbine[],
  wind: WindResource,
  model: FarmModelSpec,
  x: Float64Array,
  y: Float64Array,
  mix?: TurbineMix,
): ConditionFlows {
  // Blockage refuses the flow of each condition (its declaration, blockageCovers.ts); the weighted sum is a solve of its own.
  const plan = solvePlan({ types, neighbours: mix !== undefined && mix.own < x.length, wind }, model, { conditionFlows: true });
  if (plan.solver === 'weighted-sum') return weightedSumFlows(types[0], wind, plan.model, x, y);
  const setup = wakedSetup(types, wind, plan.model);
  const c = setup.conditions;
  const n = x.length;
  const count = c.count;
  const out: ConditionFlows = {
    nConditions: count,
    n,
    directionDeg: new Float64Array(count),
    speed: new Float64Array(count),
    ambientTi: new Float64Array(count),
    wsEff: new Float64Array(count * n),
    tiEff: new Float64Array(count * n),
    ct: new Float64Array(count * n),
    powerW: new Float64Array(count * n),
    weight: new Float64Array(count * n),
    hoursPerYear: wind.hoursPerYear ?? 8760,
  };
  const rowOf = c.sampleOf ?? Int32Array.from({ length: count }, (_, k) => k);
  for (let d = 0; d < c.directionsDeg.length; d++) {
    for (let k = c.start[d]; k < c.start[d + 1]; k++) {
      out.directionDeg[rowOf[k]] = c.directionsDeg[d];
      out.speed[rowOf[k]] = c.speed[k];
      out.ambientTi[rowOf[k]] = c.turbulenceIntensity[k];
    }
  }
  // Every condition solved: weight 0 counts as 1 for the solve (the recorder keeps the true weight), no cut-in skip.
  const solveAll: WakedSetup = { ...setup, minCutIn: -Infinity, conditions: { ...c, weight: c.weight.map((w) => (w > 0 ? w : 1)) } };
  solveWaked(solveAll, x, y, createWakedWorkspace(setup, n), { withGradient: false, mix }, new FlowRecorder(out, rowOf, c.weight));
  return out;
}

/** The weighted sum's flow: one turbine model without neighbours, a rose (its declaration), every bin (d · nSpeeds + s) solved together. */
function weightedSumFlows(turbine: Turbine, wind: WindResource, model: FarmModelSpec, x: Float64Array, y: Float64Array): ConditionFlows {
  const r = evaluateWeightedSum(weightedSumSetup(turbine, wind, model), x, y);
  const n = x.length,
    nd = wind.directionsDeg.length,
    ns = wind.speeds.length,
    count = nd * ns;
  const weight = new Float64Array(count * n);
  for (let k = 0; k < count; k++) weight.fill(wind.probability[k], k * n, (k + 1) * n);
  return {
    nConditions: count,
    n,
    directionDeg: Float64Array.from({ length: count }, (_, k) => wind.directionsDeg[Math.floor(k / ns)]),
    speed: Float64Array.from({ length: count }, (_, k) => wind.speeds[k % ns]),
    ambientTi: Float64Array.from({ length: count }, (_, k) => conditionTi(wind, k)),
    wsEff: r.wsEff,
    tiEff: r.ti,
    ct: r.ct,
    powerW: r.wsEff.map((u) => powerAt(turbine, u)),
    weight,
    hoursPerYear: wind.hoursPerYear ?? 8760,
  };
}
