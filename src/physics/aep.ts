/**
 * Annual energy production (AEP) of a wind farm of one turbine model and its exact gradient with
 * respect to every turbine coordinate: the evaluator of a farm model, on the engine that
 * engineChoice.ts picks for it (free-stream, waked, weighted sum or blockage; each on the native
 * kernel where it covers the model). Farms of several models or with neighbours: mixedFarm.ts.
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import type { AepResult, FarmEvaluator } from './aepTypes.js';
import { createWakedEvaluator } from './wakedAep.js';
import { createNativeWakedRunner } from './wakedNative.js';
import { createBlockageEvaluator } from './blockageSolve.js';
import { wakedSetup } from './engine/wakedSetup.js';
import { createFreeStreamEvaluator, createFreeStreamNativeRunner } from './engine/freeStream.js';
import { engineFor } from './engineChoice.js';
import { defaultKernel, type IsaChoice, type KernelChoice, type NativeRunner } from './nativeKernel.js';

export type { AepResult, AepWithGradient, FarmEvaluator } from './aepTypes.js';
export { inflowOf, usesFreeStreamEngine } from './engineChoice.js';

/** The evaluator of a farm model of one turbine model without neighbours (kernel 'js': the JavaScript engines everywhere). */
export function createFarmEvaluator(turbine: Turbine, wind: WindResource, model: FarmModelSpec, kernel: KernelChoice = defaultKernel(), isa: IsaChoice = 'best'): FarmEvaluator {
  const { engine, model: resolved } = engineFor({ types: [turbine], neighbours: false, wind }, model);
  if (engine === 'blockage') return createBlockageEvaluator(turbine, wind, resolved);
  if (engine === 'free-stream') return createFreeStreamEvaluator(turbine, wind, resolved, kernel, isa);
  return createWakedEvaluator(turbine, wind, resolved, kernel, isa);
}

/**
 * The native runner createFarmEvaluator uses for a model (the same engine choice), or null when the
 * model needs the JavaScript engines. Worker threads (parallelAep.ts) evaluate blocks of directions with it.
 */
export function createNativeRunner(turbine: Turbine, wind: WindResource, model: FarmModelSpec, isa: IsaChoice = 'best'): NativeRunner | null {
  const { engine, model: resolved } = engineFor({ types: [turbine], neighbours: false, wind }, model);
  if (engine === 'free-stream') return createFreeStreamNativeRunner(turbine, wind, resolved, isa);
  if (engine === 'waked') return createNativeWakedRunner(turbine, wind, resolved, wakedSetup(turbine, wind, resolved), isa);
  return null;
}

/** One-shot convenience: AEP of a layout. */
export function computeAep(x: Float64Array, y: Float64Array, turbine: Turbine, wind: WindResource, model: FarmModelSpec): AepResult {
  return createFarmEvaluator(turbine, wind, model).aep(x, y);
}

