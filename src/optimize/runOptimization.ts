/**
 * One optimization as a plain, serializable record: what the CLI prints, what a worker process
 * sends back, what a result file stores. Wraps optimizeLayout with the wall time and the
 * per-direction AEP of the result.
 */
import type { Case } from '../case/case.js';
import type { OptimizeHooks, OptimizerSettings } from './optimizeLayout.js';
import { optimizeCase } from './optimizeCase.js';
import { caseEvaluator } from './caseEvaluator.js';
import { withHubHeight } from './hubHeight.js';

export interface OptimizationRecord {
  seed: number;
  aep_mwh: number;
  aep_initial_mwh: number;
  per_direction_mwh: number[];
  x: number[];
  y: number[];
  x_initial: number[];
  y_initial: number[];
  feasible: boolean;
  max_violation_m: number;
  iterations: number;
  evaluations: number;
  wall_s: number;
  /** With the case's `optimize.hub_height`: the hub height chosen and where it started, m (optimize/hubHeight.ts). */
  hub_height_m?: number;
  hub_height_initial_m?: number;
  /** Each turbine's model (index into the case's turbine models), for a farm of several. */
  turbine_types?: number[];
  /** Under a cost objective (lcoe, npv): the returned layout's economics, from a final re-route of the cables. */
  economics?: {
    objective: string;
    /** The objective's value (LCOE currency/MWh, or NPV currency), at the result and at the start. */
    value: number;
    value_initial: number | null;
    lcoe: number;
    npv: number;
    /** Fraction per year; null when the cash flows have none. */
    irr: number | null;
    aep_mwh: number;
    cable_length_m: number;
    cable_cost: number;
    /** One edge per turbine toward its substation (to >= the turbine count: substation to − n), with its cable type. */
    cable_edges: { from: number; to: number; type: string }[];
    cost_breakdown: Record<string, number>;
    cost_model: string;
    /** The cost model's currency (ISO 4217: EUR for the DTU model): every sum of money above is in it. */
    currency: string;
  };
  /** What the caller must be told about how the result came about (optimizeLayout.ts: an optimized layout that could not be cabled). */
  notes?: string[];
  /** A farm that chose its models (turbine_choice): why, per model. */
  type_choice?: {
    objective: string;
    reason: string;
    per_model: { model: string; turbines: number; rated_mw: number; aep_mwh: number; objective_if_all: number }[];
  };
}

/** True when record a is better than b by its objective (AEP, LCOE lower, NPV higher); ties: the lower seed. */
export function betterRecord(a: OptimizationRecord, b: OptimizationRecord): boolean {
  const key = (r: OptimizationRecord) => (!r.economics ? r.aep_mwh : r.economics.objective === 'lcoe' ? -r.economics.value : r.economics.value);
  return key(a) > key(b) || (key(a) === key(b) && a.seed < b.seed);
}

export function runOptimization(c: Case, settings: OptimizerSettings, seed: number, hooks: OptimizeHooks = {}): OptimizationRecord {
  const t0 = process.hrtime.bigint();
  const r = optimizeCase(c, settings, seed, hooks);
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const perDirection = caseEvaluator(r.hubHeight !== undefined ? withHubHeight(c, r.hubHeight) : c, c.model, r.typeOf).aep(r.x, r.y).perDirectionMwh;
  return {
    seed,
    aep_mwh: r.aep,
    aep_initial_mwh: r.aepInitial,
    per_direction_mwh: Array.from(perDirection),
    x: Array.from(r.x),
    y: Array.from(r.y),
    x_initial: Array.from(r.xInitial),
    y_initial: Array.from(r.yInitial),
    feasible: r.feasible,
    max_violation_m: r.maxViolationM,
    iterations: r.iterations,
    evaluations: r.evaluations,
    wall_s: wallS,
    ...(r.typeOf ? { turbine_types: Array.from(r.typeOf) } : {}),
    ...(r.hubHeight !== undefined ? { hub_height_m: r.hubHeight, hub_height_initial_m: r.hubHeightInitial } : {}),
    ...(r.economics
      ? {
          economics: {
            objective: r.economics.objective,
            value: r.economics.value,
            value_initial: r.objectiveInitial ?? null,
            lcoe: r.economics.lcoe,
            npv: r.economics.npv,
            irr: Number.isFinite(r.economics.irr) ? r.economics.irr : null,
            aep_mwh: r.economics.aepMwh,
            cable_length_m: r.economics.cableLengthM,
            cable_cost: r.economics.cableCost,
            cable_edges: r.economics.cableEdges,
            cost_breakdown: r.economics.breakdown,
            cost_model: r.economics.model,
            currency: c.economics!.model.currency,
          },
        }
      : {}),
    ...(r.notes ? { notes: [...r.notes] } : {}),
    ...(r.typeChoice
      ? {
          type_choice: {
            objective: r.typeChoice.objective,
            reason: r.typeChoice.reason,
            per_model: r.typeChoice.perModel.map((m) => ({
              model: m.model,
              turbines: m.turbines,
              rated_mw: m.ratedMW,
              aep_mwh: m.aepMwh,
              objective_if_all: m.objectiveIfAll,
            })),
          },
        }
      : {}),
  };
}
