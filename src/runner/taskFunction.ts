/**
 * The one place where a task meets the optimizer: `method: noop` runs the runner's stand-in
 * (noopOptimizer.ts); every other method goes to optimize/'s `optimizeLayout(case, settings,
 * seed)`, which is deterministic given those three, so a task computed again after a crash or on
 * another worker gives the bit-identical result.
 */
import type { Case } from '../optimize/case.js';
import type { OptimizerSettings } from '../campaign/campaign.js';
import { optimizeLayout } from '../optimize/optimizeLayout.js';
import { OPTIMIZER_METHODS, resolveSettings } from '../optimize/settings.js';
import { noopOptimize } from './noopOptimizer.js';
import type { TaskOutput } from './taskOutput.js';

export const NOOP_METHOD = 'noop';

/** Methods a campaign may name: the runner's noop and optimize/'s methods. */
export const RUNNER_OPTIMIZER_METHODS: readonly string[] = [NOOP_METHOD, ...OPTIMIZER_METHODS];

const NOOP_NUMBER_FIELDS = ['sleep_ms', 'faults_until_attempt'];
const NOOP_SEED_LISTS = ['fail_seeds', 'crash_seeds', 'hang_seeds'];

/**
 * The first problem with a campaign's optimizer settings, as "field: what is wrong", or null.
 * Checked when the campaign is loaded, so bad settings fail before any task runs.
 */
export function optimizerSettingsProblem(settings: OptimizerSettings): { field: string; message: string } | null {
  if (settings.method === NOOP_METHOD) {
    for (const [key, value] of Object.entries(settings)) {
      if (key === 'method') continue;
      if (NOOP_NUMBER_FIELDS.includes(key)) {
        if (typeof value !== 'number' || !(value >= 0)) return { field: key, message: `expected a number >= 0, got ${JSON.stringify(value)}` };
      } else if (NOOP_SEED_LISTS.includes(key)) {
        if (!Array.isArray(value) || !value.every((s) => Number.isInteger(s))) return { field: key, message: 'expected a list of seeds' };
      } else {
        return { field: key, message: `unknown noop setting (known: ${[...NOOP_NUMBER_FIELDS, ...NOOP_SEED_LISTS].join(', ')})` };
      }
    }
    return null;
  }
  if (!OPTIMIZER_METHODS.includes(settings.method as (typeof OPTIMIZER_METHODS)[number])) {
    return { field: 'method', message: `unknown optimizer method '${settings.method}' (known: ${RUNNER_OPTIMIZER_METHODS.join(', ')})` };
  }
  try {
    resolveSettings(settings as Parameters<typeof resolveSettings>[0]);
    return null;
  } catch (err) {
    const message = (err as Error).message.replace(/^optimizer (settings: )?/, '');
    const field = /unknown field '([^']+)'/.exec(message)?.[1] ?? /^([A-Za-z]+)[: ]/.exec(message)?.[1] ?? '';
    const known = Object.hasOwn(settings, field);
    return { field: known ? field : '', message: known ? message.replace(new RegExp(`^${field}: `), '') : message };
  }
}

/** Run one task. `attempt` (1-based) only matters to noop's fault injection. */
export function runTask(c: Case, settings: OptimizerSettings, seed: number, attempt: number): TaskOutput {
  if (settings.method === NOOP_METHOD) return noopOptimize(c, settings, seed, attempt);
  return optimizeLayout(c, settings as Parameters<typeof optimizeLayout>[1], seed);
}
