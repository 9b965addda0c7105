/**
 * The one place where a task meets the optimizer: `method: noop` runs the runner's stand-in
 * (noopOptimizer.ts); `method: command` runs the user's own program (command/commandTask.ts,
 * asynchronous: the worker waits for a process); every other method goes to optimize/'s
 * `optimizeCase(case, settings, seed)` (positions, and turbine models where the farm type chooses
 * them), which is deterministic given those three, so a task
 * computed again after a crash or on another worker gives the bit-identical result.
 * Executors only run attempts in processes; what an attempt computes is decided here.
 */
import type { Case } from '../case/case.js';
import type { OptimizerSettings } from '../campaign/campaign.js';
import { COMMAND_METHOD, commandSettingsProblem, type CommandSettings } from '../campaign/commandOptimizer.js';
import { optimizeCase } from '../optimize/optimizeCase.js';
import { OPTIMIZER_METHODS, resolveSettings } from '../optimize/settings.js';
import { noopOptimize } from './noopOptimizer.js';
import { checkTaskOutput, type TaskOutput } from './taskOutput.js';
import type { AttemptFields } from './attemptFields.js';
import { PermanentTaskError } from '../util/errors.js';

export const NOOP_METHOD = 'noop';

/** The command-task runner (a user's program), loaded by the first command task: other workers never load it. */
let commandTask: Promise<typeof import('./command/commandTask.js')> | null = null;

/** Methods a campaign may name: the runner's noop and optimize/'s methods. */
export const RUNNER_OPTIMIZER_METHODS: readonly string[] = [NOOP_METHOD, COMMAND_METHOD, ...OPTIMIZER_METHODS];

const NOOP_NUMBER_FIELDS = ['sleep_ms', 'faults_until_attempt'];
const NOOP_SEED_LISTS = ['fail_seeds', 'crash_seeds', 'hang_seeds'];

/**
 * The first problem with a campaign's optimizer settings, as "field: what is wrong", or null.
 * Checked when the campaign is loaded, so bad settings fail before any task runs.
 */
export function optimizerSettingsProblem(settings: OptimizerSettings): { field: string; message: string } | null {
  if (settings.method === COMMAND_METHOD) return commandSettingsProblem(settings);
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

/** One attempt of one task, as a worker process holds it. */
export interface TaskRun extends AttemptFields {
  case: Case;
  settings: OptimizerSettings;
  /** Where command tasks keep their attempt folders (`<output>/tasks`); null where there is none. */
  taskDir: string | null;
  /** A queue worker's own copy of the command's working directory (its --workdir). */
  workdir?: string;
}

/**
 * Run one attempt. An output that cannot be the task's result (taskOutput.ts: a wrong count, a
 * non-finite or infeasible layout) throws PermanentTaskError: the same attempt gives it again.
 */
export async function runTask(r: TaskRun): Promise<TaskOutput> {
  let output: TaskOutput;
  if (r.settings.method === NOOP_METHOD) output = noopOptimize(r.case, r.settings, r.seed, r.attempt);
  else if (r.settings.method === COMMAND_METHOD) {
    if (r.taskDir === null) throw new PermanentTaskError('command tasks need a folder for their attempt folders (none was given to this worker)');
    commandTask ??= import('./command/commandTask.js');
    output = await (await commandTask).runCommandTask({ ...r, settings: r.settings as CommandSettings, taskDir: r.taskDir });
  } else {
    output = optimizeCase(r.case, r.settings as Parameters<typeof optimizeCase>[1], r.seed);
    // The network designed with the layout travels with it, for the gate to start from.
    if (output.economics) output = { ...output, cableTo: Int32Array.from(output.economics.cableTo), cableType: Int32Array.from(output.economics.cableType) };
  }
  checkTaskOutput(output, r.case);
  return output;
}

/**
 * This process is going away (its coordinator or worker left): let the task kinds release what
 * they hold between attempts (a command optimizer's persistent program gets `graceMs` to exit by
 * itself).
 */
export async function releaseTaskResources(graceMs?: number): Promise<void> {
  // A process that never ran a command task holds no program.
  if (commandTask) await (await commandTask).stopPersistentProgram(graceMs);
}
