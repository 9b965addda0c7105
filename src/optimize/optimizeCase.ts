/**
 * Optimize a case: its positions (optimizeLayout), and, for a farm that chooses its turbine models
 * (`turbine_choice`), its models too (typeChoice.ts); a case on a finely treated rose first on a
 * coarse one (directionContinuation.ts). What a campaign task and `wflo optimize` call.
 */
import type { Case } from '../case/case.js';
import { optimizeLayout, type OptimizeHooks, type OptimizeResult, type OptimizerSettings } from './optimizeLayout.js';
import { optimizeWithTypeChoice } from './typeChoice.js';
import { withDirectionContinuation } from './directionContinuation.js';

export function optimizeCase(c: Case, settings: OptimizerSettings, seed: number, hooks: OptimizeHooks = {}): OptimizeResult {
  return withDirectionContinuation(c, settings, seed, (k, s, sd) =>
    k.turbines?.choice ? optimizeWithTypeChoice(k, s, sd, hooks) : optimizeLayout(k, s, sd, hooks),
  );
}
