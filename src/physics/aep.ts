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
import { createWakedEvaluator } from './wakedAep.js';
import { createNativeWakedRunner } from './wakedNative.js';
import { createBlockageEvaluator } from './blockageSolve.js';
import { createWeightedBlockageEvaluator } from './weightedBlockageSolve.js';
import { wakedSetup } from './engine/wakedSetup.js';
import { createFreeStreamEvaluator, createFreeStreamNativeRunner } from './engine/freeStream.js';
import { oneModelFarm, solvePlan } from './solvePlan.js';
import type { SolveNeeds } from './solvePlanTypes.js';
import type { IsaChoice, KernelChoice, NativeRunner } from './nativeKernel.js';

export type { AepResult, AepWithGradient, FarmEvaluator } from './aepTypes.js';
export { inflowOf, usesFreeStreamEngine } from './engine/freeStreamCovers.js';

/**
 * The evaluator of a farm model of one turbine model without neighbours, on the plan's solver and
 * kernel (`kernel` or `needs` narrow the kernel: 'js' the JavaScript engines everywhere).
 */
export function createFarmEvaluator(turbine: Turbine, wind: WindResource, model: FarmModelSpec, kernel?: KernelChoice, isa: IsaChoice = 'best', needs: SolveNeeds = {}): FarmEvaluator {
  const plan = solvePlan(oneModelFarm(turbine, wind), model, { ...needs, kernel: kernel ?? needs.kernel });
  if (plan.solver === 'blockage') return plan.model.superposition === 'weighted' ? createWeightedBlockageEvaluator(turbine, wind, plan.model) : createBlockageEvaluator(turbine, wind, plan.model);
  if (plan.solver === 'free-stream') return createFreeStreamEvaluator(turbine, wind, plan.model, plan.kernel, isa);
  return createWakedEvaluator(turbine, wind, plan.model, plan.kernel, isa);
}

/**
 * The native runner createFarmEvaluator uses for a model (the same engine choice), or null when the
 * model needs the JavaScript engines. Worker threads (parallelAep.ts) evaluate blocks of directions with it.
 */
export function createNativeRunner(turbine: Turbine, wind: WindResource, model: FarmModelSpec, isa: IsaChoice = 'best'): NativeRunner | null {
  const plan = solvePlan(oneModelFarm(turbine, wind), model, { kernel: 'native' });
  if (plan.kernel !== 'native') return null;
  if (plan.solver === 'free-stream') return createFreeStreamNativeRunner(turbine, wind, plan.model, isa);
  if (plan.solver === 'waked') return createNativeWakedRunner(turbine, wind, plan.model, wakedSetup(turbine, wind, plan.model), isa);
  return null;
}

/** One-shot convenience: AEP of a layout. */
export function computeAep(x: Float64Array, y: Float64Array, turbine: Turbine, wind: WindResource, model: FarmModelSpec): AepResult {
  return createFarmEvaluator(turbine, wind, model).aep(x, y);
}

