/**
 * Optimize a case: its positions (optimizeLayout), and, for a farm that chooses its turbine models
 * (`turbine_choice`), its models too (typeChoice.ts). What a campaign task and `wflo optimize` call.
 */
import type { Case } from './case.js';
import { optimizeLayout, type OptimizeHooks, type OptimizeResult, type OptimizerSettings } from './optimizeLayout.js';
import { optimizeWithTypeChoice } from './typeChoice.js';

export function optimizeCase(c: Case, settings: OptimizerSettings, seed: number, hooks: OptimizeHooks = {}): OptimizeResult {
  return c.turbines?.choice ? optimizeWithTypeChoice(c, settings, seed, hooks) : optimizeLayout(c, settings, seed, hooks);
}
