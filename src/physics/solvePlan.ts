/**
 * The solve plan: the one place that chooses how a farm is evaluated. From the farm's shape (its
 * turbine models, neighbours, wind), its model (wake, superposition, blockage, turbulence, rotor
 * average, ground, site) and what the caller needs (gradient, hub-height gradient, per-turbine
 * weights, the mixed-farm form, each condition's flow, a kernel asked for) it gives {solver,
 * kernel, why} and the model the solver is built from. It is computed once per evaluator
 * (physics/aep.ts createFarmEvaluator, mixedFarm.ts, weightedAep.ts, parallelAep.ts) and carried by
 * it (`evaluator.plan`, what `wflo aep --explain` prints); evaluators, native runners and worker
 * threads are built from a plan and neither choose nor decline.
 *
 * Each solver declares what it covers beside its own code (engine/freeStreamCovers.ts,
 * engine/wakedCovers.ts, superposition/weightedSumCovers.ts, blockageCovers.ts); this file is their
 * only reader. The solver is the first that takes the farm, in the order blockage, weighted sum,
 * free stream, waked; a combination the solver refuses is an input error (exit 2, one line naming
 * the field: FarmConflictError), the same words every input reader (`validate`) reports. The kernel
 * is the native one unless the caller or WFLO_KERNEL=js asks for JavaScript, or the solver's
 * declaration says why the native kernel does not take the farm (a need the solver cannot give
 * is refused by its declaration too).
 */
import type { Turbine } from './turbine.js';
import type { FarmModelSpec } from './farmModel.js';
import type { FarmConflict, FarmShape, KernelKind, SolveNeeds, SolvePlan, SolverDeclaration } from './solvePlanTypes.js';
import { BLOCKAGE_SOLVER } from './blockageCovers.js';
import { WEIGHTED_SUM_SOLVER } from './superposition/weightedSumCovers.js';
import { FREE_STREAM_SOLVER, inflowOf } from './engine/freeStreamCovers.js';
import { WAKED_SOLVER } from './engine/wakedCovers.js';
import { FarmConflictError } from './farmConflictError.js';

/** The solvers in the order they are asked whether they take a farm (the waked solve takes every other). */
const SOLVERS: readonly SolverDeclaration[] = [BLOCKAGE_SOLVER, WEIGHTED_SUM_SOLVER, FREE_STREAM_SOLVER, WAKED_SOLVER];

/** The kernel the environment asks for: JavaScript under WFLO_KERNEL=js, else native (read here only). */
function kernelAsked(): KernelKind {
  return process.env.WFLO_KERNEL === 'js' ? 'js' : 'native';
}

/** The solver that takes the farm and why (without a farm: the model alone decides, the waked solve standing for the free stream). */
function chooseSolver(model: FarmModelSpec, farm: FarmShape | undefined): { declaration: SolverDeclaration; why: string } {
  for (const declaration of SOLVERS) {
    const why = declaration.takes(model, farm);
    if (why !== null) return { declaration, why };
  }
  /* c8 ignore next */
  throw new Error('no solver takes the farm (the waked solve takes every one)');
}

/** The first combination the chosen solver refuses (rules needing the farm only with one), or null. */
function refusalOf(declaration: SolverDeclaration, model: FarmModelSpec, farm: FarmShape | undefined, needs: SolveNeeds = {}): FarmConflict | null {
  for (const rule of declaration.refuses) {
    if (rule.needsFarm && !farm) continue;
    const message = rule.refuses(model, farm ?? { types: [], neighbours: false, wind: {} }, needs);
    if (message !== null) return { field: rule.field, message };
  }
  return null;
}

/**
 * The first combination of the model's options (and, when given, the farm's shape) that no solver
 * computes, or null. Every input reader refuses it when the file is read (one line naming the
 * field), and the evaluators refuse it at run time with the same words; docs/inputs.md ("What the
 * engines cannot evaluate") lists them, and test/physics/farmConflict.test.ts checks the rule
 * against the engines on every combination.
 */
export function farmConflict(model: FarmModelSpec, farm?: FarmShape): FarmConflict | null {
  return refusalOf(chooseSolver(model, farm).declaration, model, farm);
}

/** The plan of a farm's evaluation; a combination its solver refuses is a FarmConflictError (exit 2). */
export function solvePlan(farm: FarmShape, model: FarmModelSpec, needs: SolveNeeds = {}): SolvePlan {
  const { declaration, why } = chooseSolver(model, farm);
  const conflict = refusalOf(declaration, model, farm, needs);
  if (conflict) throw new FarmConflictError(conflict, model);
  const asked = needs.kernel ?? kernelAsked();
  let kernel: KernelKind = 'js';
  let kernelWhy: string;
  if (asked === 'js') {
    kernelWhy = needs.kernel === undefined ? 'WFLO_KERNEL=js selects the JavaScript kernel everywhere' : 'the caller asks for the JavaScript kernel';
  } else {
    const declines = declaration.nativeDeclines(model, farm, needs);
    if (declines === null) {
      kernel = 'native';
      kernelWhy = 'the native kernel covers every option of this farm and model';
    } else kernelWhy = declines;
  }
  // The free-stream engine reads no inflow; its model resolves to 'free-stream' (what its declaration takes).
  return { solver: declaration.solver, kernel, why: { solver: why, kernel: kernelWhy }, model: { ...model, inflow: inflowOf(farm.types, model) }, needs };
}

/**
 * The kernel for the waked solve of a plan's model: the plan's own when its solver is the waked
 * solve; for a free-stream plan whose caller runs the waked solve anyway (a per-turbine weighted
 * gradient, weightedAep.ts), the kernel the waked declaration gives the same farm and needs.
 */
export function wakedKernelOf(plan: SolvePlan, farm: FarmShape): KernelKind {
  if (plan.solver === 'waked') return plan.kernel;
  if (plan.solver !== 'free-stream' || (plan.needs.kernel ?? kernelAsked()) === 'js') return 'js';
  return WAKED_SOLVER.nativeDeclines(plan.model, farm, plan.needs) === null ? 'native' : 'js';
}

/**
 * What the waked setup (engine/wakedSetup.ts) cannot be built for — the waked solver's rules marked
 * `setup` — as a FarmConflictError (exit 2); the setup asks before it builds anything.
 */
export function checkWakedSetup(model: FarmModelSpec, farm: FarmShape): void {
  for (const rule of WAKED_SOLVER.refuses) {
    if (!rule.setup) continue;
    const message = rule.refuses(model, farm, {});
    if (message !== null) throw new FarmConflictError({ field: rule.field, message }, model);
  }
}

/** Why a model's ground cannot be computed with its other options, or null (the `ground` field's line). */
export function groundConflict(model: FarmModelSpec): string | null {
  const conflict = farmConflict(model);
  return conflict && conflict.field === 'ground' ? conflict.message : null;
}

/** The shape of a farm of one turbine model without neighbours over `wind`. */
export function oneModelFarm(turbine: Turbine, wind: FarmShape['wind']): FarmShape {
  return { types: [turbine], neighbours: false, wind };
}

/** What a solver is, in a line (`wflo aep --explain`). */
export function solverSummary(solver: SolvePlan['solver']): string {
  return SOLVERS.find((d) => d.solver === solver)!.summary;
}

/** The plan in two short lines (`wflo aep --explain`): which solver and kernel ran, and why. */
export function explainPlan(plan: SolvePlan): string[] {
  return [`solver      ${plan.solver}: ${plan.why.solver}`, `kernel      ${plan.kernel}: ${plan.why.kernel}`];
}

/** The plan as `wflo aep --json` writes it (solve_plan). */
export function planDocument(plan: SolvePlan): { solver: string; kernel: string; why_solver: string; why_kernel: string } {
  return { solver: plan.solver, kernel: plan.kernel, why_solver: plan.why.solver, why_kernel: plan.why.kernel };
}

export { FarmConflictError } from './farmConflictError.js';
export type { FarmConflict, FarmShape, KernelKind, SolveNeeds, SolvePlan, SolverKind } from './solvePlanTypes.js';
