/**
 * One large AEP evaluation spread over worker threads, the wind directions split into contiguous
 * blocks of equal size (each direction is independent). An option for big farms and roses: each
 * call posts the layout to every worker and waits for all of them, which costs about a
 * millisecond, so it pays only when one evaluation takes much longer than that.
 *
 * The solve plan (solvePlan.ts) is computed once, here, and every worker runs it. On the native
 * kernel the workers return their rows by direction and this thread adds them up in direction
 * order (nativeKernel.ts sumByDirection), so the result is bit-identical to one thread, whatever
 * the number of threads. On the JavaScript kernel the blocks are the waked solve's (the free-stream
 * engine has no block form: its plan's model, inflow free-stream, is the waked solve's free-stream
 * inflow) and their sums are added (equal to one thread up to the order of additions). The weighted
 * sum and blockage solve every direction together and have no blocks.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import type { AepWithGradient } from './aep.js';
import { allocateByDirection, sumByDirection, type IsaChoice, type KernelChoice } from './nativeKernel.js';
import { farmPlan } from './aep.js';
import type { SolvePlan } from './solvePlanTypes.js';
import { windConditions } from './windConditions.js';

export interface ParallelFarmEvaluator {
  readonly threads: number;
  /** The solve plan every worker runs (solvePlan.ts). */
  readonly plan: SolvePlan;
  aep(x: Float64Array, y: Float64Array): Promise<AepWithGradient & { pairEvaluations: number }>;
  aepWithGradient(x: Float64Array, y: Float64Array): Promise<AepWithGradient & { pairEvaluations: number }>;
  close(): Promise<void>;
}

interface WorkerReply {
  byDirection: boolean;
  pairEvaluations: number;
  perDirectionMwh: Float64Array;
  // byDirection: rows of the block; else the block's sums.
  perTurbineByDir: Float64Array;
  gradXByDir: Float64Array;
  gradYByDir: Float64Array;
  aepMwh: number;
  perTurbineMwh: Float64Array;
  gradX: Float64Array;
  gradY: Float64Array;
  error?: string;
}

export function createParallelEvaluator(
  turbine: Turbine,
  wind: WindResource,
  model: FarmModelSpec,
  threads = os.availableParallelism(),
  kernel?: KernelChoice,
  isa: IsaChoice = 'best',
): ParallelFarmEvaluator {
  const plan = farmPlan(turbine, wind, model, kernel);
  if (plan.solver === 'blockage' || plan.solver === 'weighted-sum')
    throw new Error(`the ${plan.solver} solver has no parallel evaluator: use createFarmEvaluator`);
  const nDir = wind.directionsDeg.length;
  // Blocks of the directions the engine visits (a time series: its distinct sample directions).
  const visited = wind.series ? windConditions(wind) : null;
  const nVisit = visited ? visited.directionsDeg.length : nDir;
  const count = Math.max(1, Math.min(threads, nVisit));
  const blocks: [number, number][] = [];
  const workers: Worker[] = [];
  for (let w = 0; w < count; w++) {
    const dirFrom = Math.floor((w * nVisit) / count),
      dirTo = Math.floor(((w + 1) * nVisit) / count);
    blocks.push([dirFrom, dirTo]);
    workers.push(new Worker(new URL('./parallelAepWorker.js', import.meta.url), { workerData: { turbine, wind, plan, dirFrom, dirTo, isa } }));
  }
  const run = async (x: Float64Array, y: Float64Array, withGradient: boolean) => {
    const replies = await Promise.all(
      workers.map(
        (w) =>
          new Promise<WorkerReply>((resolve, reject) => {
            const onMessage = (r: WorkerReply) => {
              w.off('error', onError);
              r.error ? reject(new Error(r.error)) : resolve(r);
            };
            const onError = (e: Error) => {
              w.off('message', onMessage);
              reject(e);
            };
            w.once('message', onMessage);
            w.once('error', onError);
            w.postMessage({ x, y, withGradient });
          }),
      ),
    );
    const n = x.length;
    const pairEvaluations = replies.reduce((sum, r) => sum + r.pairEvaluations, 0);
    if (replies.every((r) => r.byDirection)) {
      // Native rows are by visited direction (a time series' sample directions), each added to its resource direction.
      const all = allocateByDirection(nVisit, n, withGradient);
      replies.forEach((r, w) => {
        const [dirFrom] = blocks[w];
        all.perDirectionMwh.set(r.perDirectionMwh, dirFrom);
        all.perTurbineByDir.set(r.perTurbineByDir, dirFrom * n);
        if (withGradient) {
          all.gradXByDir.set(r.gradXByDir, dirFrom * n);
          all.gradYByDir.set(r.gradYByDir, dirFrom * n);
        }
      });
      return { ...sumByDirection(all, n, withGradient, visited ?? undefined, nDir), pairEvaluations };
    }
    const out = {
      aepMwh: 0,
      perDirectionMwh: new Float64Array(nDir),
      perTurbineMwh: new Float64Array(n),
      gradX: new Float64Array(withGradient ? n : 0),
      gradY: new Float64Array(withGradient ? n : 0),
      pairEvaluations,
    };
    for (const r of replies) {
      for (let d = 0; d < nDir; d++) out.perDirectionMwh[d] += r.perDirectionMwh[d];
      for (let i = 0; i < n; i++) out.perTurbineMwh[i] += r.perTurbineMwh[i];
      for (let i = 0; i < out.gradX.length; i++) {
        out.gradX[i] += r.gradX[i];
        out.gradY[i] += r.gradY[i];
      }
    }
    for (let d = 0; d < nDir; d++) out.aepMwh += out.perDirectionMwh[d];
    return out;
  };
  return {
    threads: count,
    plan,
    aep: (x, y) => run(x, y, false),
    aepWithGradient: (x, y) => run(x, y, true),
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
