/**
 * The types of the solve plan (solvePlan.ts): what a farm is (its shape), what the caller needs of
 * an evaluation, what each solver declares it covers, and the plan itself — the solver, the kernel
 * and one line of why for each.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';

/** The solvers: IEA37's free-stream engine, the waked solve, Zong & Porté-Agel's weighted sum, wakes with induction. */
export type SolverKind = 'free-stream' | 'waked' | 'weighted-sum' | 'blockage';

/** Where a solver runs: the C++ kernel (native/) or the JavaScript engines. */
export type KernelKind = 'native' | 'js';

/** What, beyond the model, decides the solver: the farm's own turbine models, fixed neighbours, the wind. */
export interface FarmShape {
  types: readonly Turbine[];
  neighbours: boolean;
  wind: Pick<WindResource, 'series' | 'turbulenceIntensityByBin'>;
}

/** What the caller needs of the evaluation, beyond the AEP (each may narrow the kernel). */
export interface SolveNeeds {
  /** ∂AEP/∂x, ∂AEP/∂y. */
  gradient?: boolean;
  /** ∂AEP/∂h through a site's shear (optimize/hubHeight.ts): the waked solve on either kernel (not the free-stream native kernel). */
  hubHeightGradient?: boolean;
  /** A per-turbine weighted energy's gradient (weightedAep.ts): the waked solve over the turbines' types, on either kernel. */
  perTurbineWeights?: boolean;
  /** The waked solve's form over turbine types and fixed neighbours (mixedFarm.ts), whatever the farm's shape. */
  mixedForm?: boolean;
  /** Each turbine's flow in every wind condition (conditionFlows.ts), not only the energy. */
  conditionFlows?: boolean;
  /** The kernel asked for: the environment's (WFLO_KERNEL) unless a caller forces one. */
  kernel?: KernelKind;
}

/** A combination a farm cannot use: the model field to name (the key that would have to change), and why. */
export interface FarmConflict {
  field: 'ground' | 'superposition' | 'blockage' | 'site' | 'rotorAverage';
  message: string;
}

/** One combination a solver refuses: the field to name, and the refusal's words (null: this combination is covered). */
export interface CoverRule {
  field: FarmConflict['field'];
  /** True when the rule needs the farm's shape (types, neighbours, wind), not the model alone. */
  needsFarm?: boolean;
  /** True when the waked setup (engine/wakedSetup.ts), which every solver but the free stream builds, cannot be made: it asks too. */
  setup?: boolean;
  refuses(model: FarmModelSpec, farm: FarmShape, needs: SolveNeeds): string | null;
}

/** What a solver covers, declared beside the solver; solvePlan.ts is its only reader. */
export interface SolverDeclaration {
  readonly solver: SolverKind;
  /** One line: what the solver is. */
  readonly summary: string;
  /** Why this solver takes the farm (the plan asks the solvers in the order blockage, weighted sum, free stream, waked), or null. */
  takes(model: FarmModelSpec, farm: FarmShape | undefined): string | null;
  /** The combinations it refuses, in the order they are reported. */
  readonly refuses: readonly CoverRule[];
  /** Why the native kernel does not take this farm (the JavaScript kernel then does), or null when it does. */
  nativeDeclines(model: FarmModelSpec, farm: FarmShape, needs: SolveNeeds): string | null;
}

/** The plan of one evaluation: which solver, which kernel, and why each. */
export interface SolvePlan {
  solver: SolverKind;
  kernel: KernelKind;
  why: { solver: string; kernel: string };
  /** The model with its inflow resolved (engine/freeStreamCovers.ts inflowOf): what the solver is built from. */
  model: FarmModelSpec;
  /** What the caller asked for (the evaluator built from the plan provides it). */
  needs: SolveNeeds;
}
