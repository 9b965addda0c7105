/**
 * `method: noop`: a stand-in optimizer for exercising the runner cheaply. It draws the seed's
 * initial layout (random feasible: inside the site, outside exclusion zones, at the minimum
 * spacing; geometry/sampling.ts), evaluates its AEP with the case's farm model, and returns it
 * unchanged (0 iterations). Its rows pass the gate on geometry alone (the AEP of a stand-in is not
 * recomputed, which keeps the runner's no-op throughput a measure of the runner). Settings, all optional, make it slow or faulty in a
 * deterministic way, for tests and benchmarks:
 *   sleep_ms: N            block the worker this long (simulates a CPU-bound optimization)
 *   fail_seeds: [s, …]     throw an error for these seeds
 *   crash_seeds: [s, …]    kill the worker process (SIGKILL to itself) for these seeds
 *   hang_seeds: [s, …]     never return (the per-task timeout must kill the worker)
 *   faults_until_attempt: K   apply the three fault lists only on attempts < K (default: always)
 */
import type { Case } from '../case/case.js';
import { createRng } from '../util/rng.js';
import { randomFeasibleLayout } from '../geometry/sampling.js';
import { createFarmEvaluator, type FarmEvaluator } from '../physics/aep.js';
import type { TaskOutput } from './taskOutput.js';

const evaluators = new WeakMap<Case, FarmEvaluator>();
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Block this thread for `ms` without burning CPU. */
function blockFor(ms: number): void {
  if (ms > 0) Atomics.wait(sleepCell, 0, 0, ms);
}

function seedList(settings: Record<string, unknown>, key: string): number[] {
  const v = settings[key];
  return Array.isArray(v) ? v.filter((s): s is number => typeof s === 'number') : [];
}

/** The seed's starting layout: nTurbines random points inside the site at the minimum spacing. */
export function randomInitialLayout(c: Case, seed: number): { x: Float64Array; y: Float64Array } {
  const rng = createRng(seed);
  if (!c.boundary) {
    const x = new Float64Array(c.nTurbines),
      y = new Float64Array(c.nTurbines);
    for (let i = 0; i < c.nTurbines; i++) {
      x[i] = rng.uniform(-1000, 1000);
      y[i] = rng.uniform(-1000, 1000);
    }
    return { x, y };
  }
  return randomFeasibleLayout(c.boundary, c.nTurbines, c.minSpacing, rng);
}

export function noopOptimize(c: Case, settings: Record<string, unknown>, seed: number, attempt: number): TaskOutput {
  const faultsUntil = typeof settings.faults_until_attempt === 'number' ? settings.faults_until_attempt : Infinity;
  if (attempt < faultsUntil) {
    if (seedList(settings, 'crash_seeds').includes(seed)) process.kill(process.pid, 'SIGKILL');
    if (seedList(settings, 'hang_seeds').includes(seed)) for (;;) blockFor(60_000);
    if (seedList(settings, 'fail_seeds').includes(seed)) throw new Error(`noop: injected failure for seed ${seed} (attempt ${attempt})`);
  }
  if (typeof settings.sleep_ms === 'number') blockFor(settings.sleep_ms);
  const { x, y } = randomInitialLayout(c, seed);
  let evaluator = evaluators.get(c);
  if (!evaluator) {
    evaluator = createFarmEvaluator(c.turbine, c.wind, c.model);
    evaluators.set(c, evaluator);
  }
  const aep = evaluator.aep(x, y).aepMwh;
  return {
    x,
    y,
    xInitial: x.slice(),
    yInitial: y.slice(),
    aep,
    aepInitial: aep,
    iterations: 0,
    evaluations: 1,
    feasible: true,
    maxViolationM: 0,
  };
}
