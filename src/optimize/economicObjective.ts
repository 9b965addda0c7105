/**
 * The economic objectives of a layout optimization (`objective: lcoe | npv` with the case's
 * `economics`): J(x, y) = LCOE (minimized) or −NPV (NPV maximized), and its exact gradient for a
 * fixed collection topology.
 *
 * J depends on the layout through three inputs of the cost model (cost/economicModel.ts):
 *  - each turbine's AEP_i (the case's wake engine),
 *  - each turbine's water depth d_i = depth(x_i, y_i) (the case's WaterDepthField, with gradient),
 *  - the cable cost C of the collection network (geometry/collection/): routed by routeCollection,
 *    then kept fixed (edges and cable types) while the positions move: C = Σ_edges c_type·|p_i − p_j|.
 * By the chain rule, with the model's partials ∂J/∂AEP_i, ∂J/∂d_i, ∂J/∂C:
 *   ∂J/∂x_k = Σ_i ∂J/∂AEP_i · ∂AEP_i/∂x_k + ∂J/∂d_k · ∂d_k/∂x_k + ∂J/∂C · ∂C/∂x_k   (same for y).
 * The energy term is one adjoint solve of Σ_i w_i·AEP_i with w_i = ∂J/∂AEP_i: when every w_i is the
 * same (a model that sees the farm's total energy) it is w·∇AEP from the case's own evaluator; else
 * a second solve with the per-turbine weighted term (physics/weightedAep.ts).
 *
 * The gradient is exact for the fixed topology; the optimizer re-routes at the start of every stage
 * (gradientStages.ts), and the reported figures come from a final re-route (economicFigures).
 */
import type { Case } from '../case/case.js';
import type { DesignPartials, EconomicResult, FarmDesign, ObjectiveName } from '../cost/economicModel.js';
import { cableCostGradient, routeCollection, type CollectionNetwork } from '../geometry/collection/index.js';
import { caseEvaluator, caseTypeOf, caseTypes } from './caseEvaluator.js';
import type { FarmModelSpec } from '../physics/farmModel.js';
import { createWeightedAepEvaluator, type WeightedAepEvaluator } from '../physics/weightedAep.js';
import type { ObjectiveWithGradient } from './objective.js';

/** The case's objective: its `objective`, default 'aep'. */
export function caseObjective(c: Pick<Case, 'objective'>): ObjectiveName {
  return c.objective ?? 'aep';
}

/** True when the case optimizes a cost objective (lcoe or npv). */
export function isEconomic(c: Pick<Case, 'objective'>): boolean {
  return caseObjective(c) !== 'aep';
}

export interface EconomicEvaluation {
  /** J: LCOE (currency/MWh) for 'lcoe', −NPV (currency) for 'npv'. */
  value: number;
  result: EconomicResult;
  aepMwh: number;
  perTurbineMwh: Float64Array;
  depth: Float64Array;
  cableCost: number;
  /** ∂J/∂x, ∂J/∂y per turbine (per metre), with the gradient. */
  gradX?: Float64Array;
  gradY?: Float64Array;
}

export interface EconomicObjective {
  readonly name: 'lcoe' | 'npv';
  /** The collection network at (x, y) (routeCollection; deterministic), from `start` (a parent array) when given and valid. */
  route(x: Float64Array, y: Float64Array, start?: ArrayLike<number>): CollectionNetwork;
  /** J and its figures at (x, y) with the network's topology fixed; with the gradient, ∂J/∂(x, y). */
  evaluate(x: Float64Array, y: Float64Array, network: CollectionNetwork, withGradient: boolean): EconomicEvaluation;
}

/** The economic objective of a case with its models fixed to `typeOf` (default the case's) and wake model `model`. */
export function createEconomicObjective(c: Case, typeOf: Int32Array = caseTypeOf(c), model: FarmModelSpec = c.model): EconomicObjective {
  const name = caseObjective(c);
  if (name === 'aep') throw new Error('createEconomicObjective: the case optimizes AEP');
  const econ = c.economics;
  if (!econ) throw new Error(`createEconomicObjective: objective '${name}' needs the case's economics`);
  const n = c.nTurbines;
  const types = Int32Array.from(typeOf);
  const { types: models, ownTypes } = caseTypes(c);
  if (econ.ratedRpmByType.length !== ownTypes) throw new Error(`economics: ${econ.ratedRpmByType.length} rated rotor speeds for ${ownTypes} turbine models`);
  const evaluator = caseEvaluator(c, model, types);
  let weighted: WeightedAepEvaluator | null = null;
  const weightedEvaluator = (): WeightedAepEvaluator => {
    if (weighted) return weighted;
    const nb =
      c.neighbours && c.neighbours.x.length > 0
        ? { x: c.neighbours.x, y: c.neighbours.y, typeOf: Int32Array.from(c.neighbours.typeOf, (t) => t + ownTypes) }
        : null;
    return (weighted = createWeightedAepEvaluator(models, c.wind, model, nb));
  };
  const design = farmDesign(c, types);
  const sign = name === 'lcoe' ? 1 : -1;
  const partialsOf = (r: EconomicResult): DesignPartials => {
    const p = name === 'lcoe' ? r.dLcoe : r.dNpv;
    if (!p) throw new Error(`cost model ${econ.model.name} returned no partials of ${name.toUpperCase()}`);
    return p;
  };
  return {
    name,
    route: (x, y, start) => routeCase(c, x, y, start),
    evaluate(x, y, network, withGradient) {
      const energy = withGradient ? evaluator.aepWithGradient(x, y) : evaluator.aep(x, y);
      const depthGrad = withGradient ? new Float64Array(2 * n) : null;
      const g2 = new Float64Array(2);
      for (let i = 0; i < n; i++) {
        design.waterDepth[i] = econ.depth.at(x[i], y[i], depthGrad ? g2 : null);
        if (depthGrad) {
          depthGrad[i] = g2[0];
          depthGrad[n + i] = g2[1];
        }
      }
      design.aepMWh.set(energy.perTurbineMwh.subarray(0, n));
      const cable = cableCostGradient(network, econ.cables, x, y, econ.substations);
      design.cableCost = cable.cost;
      const result = econ.model.evaluate(design, withGradient);
      const value = sign * (name === 'lcoe' ? result.lcoe : result.npv);
      const out: EconomicEvaluation = {
        value,
        result,
        aepMwh: energy.aepMwh,
        perTurbineMwh: Float64Array.from(energy.perTurbineMwh.subarray(0, n)),
        depth: Float64Array.from(design.waterDepth),
        cableCost: cable.cost,
      };
      if (!withGradient) return out;
      const p = partialsOf(result);
      const w = Float64Array.from(p.aepMWh, (v) => sign * v);
      let uniform = true;
      for (let i = 1; i < n; i++)
        if (w[i] !== w[0]) {
          uniform = false;
          break;
        }
      const gradX = new Float64Array(n),
        gradY = new Float64Array(n);
      const full = energy as unknown as { gradX: Float64Array; gradY: Float64Array };
      if (uniform) {
        for (let i = 0; i < n; i++) {
          gradX[i] = w[0] * full.gradX[i];
          gradY[i] = w[0] * full.gradY[i];
        }
      } else {
        const r = weightedEvaluator()(x, y, types, w);
        gradX.set(r.gradX);
        gradY.set(r.gradY);
      }
      const dC = sign * p.cableCost;
      for (let i = 0; i < n; i++) {
        const dd = sign * p.waterDepth[i];
        gradX[i] += dd * depthGrad![i] + dC * cable.dx[i];
        gradY[i] += dd * depthGrad![n + i] + dC * cable.dy[i];
      }
      return { ...out, gradX, gradY };
    },
  };
}

/**
 * The collection network of the case's substations and cables at (x, y), around the site's
 * exclusion zones; `start` (a parent array: turbine index, or n + k for substation k) is a network
 * the router checks and keeps when it is valid and no dearer than its own (routeCollection.ts).
 */
export function routeCase(c: Case, x: Float64Array, y: Float64Array, start?: ArrayLike<number>): CollectionNetwork {
  const econ = c.economics!;
  const exclusions = c.boundary?.exclusions;
  return routeCollection({
    turbines: { x, y },
    substations: econ.substations,
    cables: econ.cables,
    ...(exclusions ? { exclusions } : {}),
    ...(start ? { start } : {}),
    source: 'economics',
  });
}

/** A stored network (layouts.h5's cable_to: a turbine index, or −1 − s for substation s) as a router's parent array. */
export function parentOfCableTo(cableTo: ArrayLike<number>): Int32Array {
  const n = cableTo.length;
  return Int32Array.from({ length: n }, (_, i) => (cableTo[i] >= 0 ? cableTo[i] : n - 1 - cableTo[i]));
}

/** The cost model's design of the case's farm with models `typeOf` (depth, AEP and cable cost left 0 to fill). */
export function farmDesign(c: Case, typeOf: Int32Array): FarmDesign {
  const econ = c.economics!;
  const models = caseTypes(c).types;
  const n = typeOf.length;
  return {
    ratedPowerMW: Float64Array.from(typeOf, (t) => models[t].ratedPowerW * 1e-6),
    rotorDiameter: Float64Array.from(typeOf, (t) => models[t].diameter),
    hubHeight: Float64Array.from(typeOf, (t) => models[t].hubHeight),
    ratedRpm: Float64Array.from(typeOf, (t) => econ.ratedRpmByType[t]),
    waterDepth: new Float64Array(n),
    aepMWh: new Float64Array(n),
    cableCost: 0,
  };
}

/**
 * The objective at fixed positions (x, y) for any assignment of models (what the assignment stage
 * of typeChoice.ts compares): the network routed once at (x, y) (it does not depend on the models:
 * cable capacities count turbines), the depths at (x, y), the models' per-turbine AEP given.
 * Returns the objective's value (LCOE or NPV) and J (LCOE or −NPV: lower is better).
 */
export function assignmentObjective(
  c: Case,
  x: Float64Array,
  y: Float64Array,
): (typeOf: Int32Array, perTurbineMwh: Float64Array) => { value: number; j: number; result: EconomicResult } {
  const name = caseObjective(c);
  const econ = c.economics!;
  const cableCost = routeCase(c, x, y).totalCost;
  const depth = Float64Array.from(x, (xi, i) => econ.depth.at(xi, y[i], null));
  return (typeOf, perTurbineMwh) => {
    const design = farmDesign(c, typeOf);
    design.waterDepth.set(depth);
    design.aepMWh.set(perTurbineMwh.subarray(0, typeOf.length));
    design.cableCost = cableCost;
    const result = econ.model.evaluate(design, false);
    const value = name === 'lcoe' ? result.lcoe : result.npv;
    return { value, j: name === 'lcoe' ? value : -value, result };
  };
}

/**
 * f(z) = 1000 · J / jScale in the scaled variables of layoutProblem.ts (z = [x/L, y/L]), for a
 * fixed network; jScale > 0 makes the values O(1000) like the AEP objective's.
 */
export function economicStageObjective(
  eo: EconomicObjective,
  network: CollectionNetwork,
  scale: number,
  jScale: number,
  counter: { evaluations: number },
): ObjectiveWithGradient {
  const factor = 1000 / jScale;
  return (z, grad) => {
    const n = z.length / 2;
    const x = new Float64Array(n),
      y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = z[i] * scale;
      y[i] = z[n + i] * scale;
    }
    const r = eo.evaluate(x, y, network, true);
    counter.evaluations++;
    for (let i = 0; i < n; i++) {
      grad[i] = factor * r.gradX![i] * scale;
      grad[n + i] = factor * r.gradY![i] * scale;
    }
    return factor * r.value;
  };
}

/**
 * The scale of J for the optimizer: |LCOE| for 'lcoe'; for 'npv' the present value of the energy,
 * |Σ_i ∂NPV/∂AEP_i · AEP_i| (NPV itself may be near 0), else |NPV|, else 1.
 */
export function objectiveScale(ev: EconomicEvaluation, name: 'lcoe' | 'npv'): number {
  if (name === 'lcoe') return Math.abs(ev.result.lcoe) || 1;
  let pv = 0;
  const p = ev.result.dNpv;
  if (p) for (let i = 0; i < ev.perTurbineMwh.length; i++) pv += p.aepMWh[i] * ev.perTurbineMwh[i];
  return Math.abs(pv) || Math.abs(ev.result.npv) || 1;
}

/** What a result reports of a design's economics (from a final re-route). */
export interface EconomicFigures {
  objective: ObjectiveName;
  /** The objective's value: AEP (MWh), LCOE (currency/MWh) or NPV (currency). */
  value: number;
  lcoe: number;
  npv: number;
  irr: number;
  aepMwh: number;
  cableLengthM: number;
  cableCost: number;
  /** The network: each turbine's edge toward its substation (to ≥ n: substation to − n), and its cable type's name. */
  cableEdges: { from: number; to: number; type: string }[];
  /** The same network per turbine, as layouts.h5 stores it: the next turbine, or −1 − s for substation s. */
  cableTo: Int32Array;
  /** Each turbine's edge's cable type: index into the case's `economics.cables`. */
  cableType: Int32Array;
  breakdown: Record<string, number>;
  model: string;
}

/**
 * The economic figures of a layout: route (from `start`, a parent array, when the caller has a
 * network for it: the design's own, which the router keeps when valid and no dearer than its
 * own), then the model on the routed network.
 */
export function economicFigures(c: Case, x: Float64Array, y: Float64Array, typeOf: Int32Array = caseTypeOf(c), start?: ArrayLike<number>): EconomicFigures {
  if (caseObjective(c) === 'aep') {
    // A case with economics that optimizes AEP: its figures, with the AEP as the objective's value.
    const f = economicFigures({ ...c, objective: 'lcoe' }, x, y, typeOf, start);
    return { ...f, objective: 'aep', value: f.aepMwh };
  }
  const eo = createEconomicObjective(c, typeOf);
  const network = eo.route(x, y, start);
  const ev = eo.evaluate(x, y, network, false);
  const cables = c.economics!.cables;
  return {
    objective: eo.name,
    value: eo.name === 'lcoe' ? ev.result.lcoe : ev.result.npv,
    lcoe: ev.result.lcoe,
    npv: ev.result.npv,
    irr: ev.result.irr,
    aepMwh: ev.aepMwh,
    // The cable cost that entered the cost model (the network's own total may differ in the last bits).
    cableLengthM: network.totalLength,
    cableCost: ev.cableCost,
    cableEdges: network.edges.map((e) => ({ from: e.from, to: e.to, type: cables[e.cable].name })),
    cableTo: Int32Array.from(network.parent, (p) => (p < network.turbineCount ? p : -1 - (p - network.turbineCount))),
    cableType: Int32Array.from(network.cable),
    breakdown: { ...ev.result.breakdown },
    model: c.economics!.model.name,
  };
}
