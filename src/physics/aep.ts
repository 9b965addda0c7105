/**
 * Annual energy production (AEP) of a wind farm of one turbine model and its exact gradient with
 * respect to every turbine coordinate: the evaluator of a farm model, on the solver and kernel the
 * solve plan (solvePlan.ts) picks for it (free-stream, waked, weighted sum or blockage; native or
 * JavaScript). Farms of several models or with neighbours: mixedFarm.ts.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import type { AepResult, FarmEvaluator } from './aepTypes.js';
import { createWakedEvaluator, createWeightedSumEvaluator } from './wakedAep.js';
import { createNativeWakedRunner } from './wakedNative.js';
import { createBlockageEvaluator } from './blockageSolve.js';
import { createWeightedBlockageEvaluator } from './weightedBlockageSolve.js';
import { wakedSetup } from './engine/wakedSetup.js';
import { createFreeStreamEvaluator, createFreeStreamNativeRunner } from './engine/freeStream.js';
import { oneModelFarm, solvePlan } from './solvePlan.js';
import type { SolveNeeds, SolvePlan } from './solvePlanTypes.js';
import type { IsaChoice, KernelChoice, NativeRunner } from './nativeKernel.js';

export type { AepResult, AepWithGradient, FarmEvaluator } from './aepTypes.js';

/** The plan of a farm of one turbine model without neighbours (`kernel` or `needs` narrow the kernel: 'js' the JavaScript engines everywhere). */
export function farmPlan(turbine: Turbine, wind: WindResource, model: FarmModelSpec, kernel?: KernelChoice, needs: SolveNeeds = {}): SolvePlan {
  return solvePlan(oneModelFarm(turbine, wind), model, { ...needs, kernel: kernel ?? needs.kernel });
}

/**
 * The evaluator of a farm model of one turbine model without neighbours, on the plan's solver and
 * kernel (the plan computed once, here, and carried by the evaluator).
 */
export function createFarmEvaluator(
  turbine: Turbine,
  wind: WindResource,
  model: FarmModelSpec,
  kernel?: KernelChoice,
  isa: IsaChoice = 'best',
  needs: SolveNeeds = {},
): FarmEvaluator {
  return evaluatorOfPlan(turbine, wind, farmPlan(turbine, wind, model, kernel, needs), isa);
}

/** The evaluator a plan names (solvePlan.ts): its solver, on its kernel. */
export function evaluatorOfPlan(turbine: Turbine, wind: WindResource, plan: SolvePlan, isa: IsaChoice = 'best'): FarmEvaluator {
  switch (plan.solver) {
    case 'blockage':
      return plan.model.superposition === 'weighted' ? createWeightedBlockageEvaluator(turbine, wind, plan) : createBlockageEvaluator(turbine, wind, plan);
    case 'weighted-sum':
      return createWeightedSumEvaluator(turbine, wind, plan);
    case 'free-stream':
      return createFreeStreamEvaluator(turbine, wind, plan, isa);
    case 'waked':
      return createWakedEvaluator(turbine, wind, plan, isa);
  }
}

/**
 * The native runner of a plan whose kernel is native (any block of directions: worker threads,
 * parallelAep.ts, evaluate blocks with it); the plan gives the native kernel to the free-stream and
 * waked solvers only.
 */
export function createNativeRunner(turbine: Turbine, wind: WindResource, plan: SolvePlan, isa: IsaChoice = 'best'): NativeRunner {
  /* c8 ignore next */
  if (plan.kernel !== 'native' || (plan.solver !== 'free-stream' && plan.solver !== 'waked'))
    throw new Error(`no native runner for the ${plan.solver} solver on the ${plan.kernel} kernel`);
  if (plan.solver === 'free-stream') return createFreeStreamNativeRunner(turbine, wind, plan.model, isa);
  return createNativeWakedRunner(turbine, wind, plan.model, wakedSetup(turbine, wind, plan.model), isa);
}

/** One-shot convenience: AEP of a layout. */
export function computeAep(x: Float64Array, y: Float64Array, turbine: Turbine, wind: WindResource, model: FarmModelSpec): AepResult {
  return createFarmEvaluator(turbine, wind, model).aep(x, y);
}
