/**
 * One large AEP evaluation spread over worker threads, the wind directions split into contiguous
 * blocks of equal size (each direction is independent; the results are summed). An option for big
 * farms and roses: each call posts the layout to every worker and waits for all of them, which
 * costs about a millisecond, so it pays only when one evaluation takes much longer than that.
 * The waked-inflow engine (wakedAep.ts) computes every block, with the inflow the model resolves
 * to (aep.ts inflowOf), so the sum equals the one-thread result up to the order of additions.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import type { AepWithGradient } from './aep.js';
import { inflowOf } from './aep.js';

export interface ParallelFarmEvaluator {
  readonly threads: number;
  aep(x: Float64Array, y: Float64Array): Promise<AepWithGradient & { pairEvaluations: number }>;
  aepWithGradient(x: Float64Array, y: Float64Array): Promise<AepWithGradient & { pairEvaluations: number }>;
  close(): Promise<void>;
}

interface WorkerReply {
  aepMwh: number; perDirectionMwh: Float64Array; perTurbineMwh: Float64Array; gradX: Float64Array; gradY: Float64Array; pairEvaluations: number;
  error?: string;
}

export function createParallelEvaluator(turbine: Turbine, wind: WindResource, model: FarmModelSpec, threads = os.availableParallelism()): ParallelFarmEvaluator {
  const nDir = wind.directionsDeg.length;
  const count = Math.max(1, Math.min(threads, nDir));
  const spec = { ...model, inflow: inflowOf(turbine, model) };
  const workers: Worker[] = [];
  for (let w = 0; w < count; w++) {
    const dirFrom = Math.floor((w * nDir) / count), dirTo = Math.floor(((w + 1) * nDir) / count);
    workers.push(new Worker(new URL('./parallelAepWorker.js', import.meta.url), { workerData: { turbine, wind, spec, dirFrom, dirTo } }));
  }
  const run = async (x: Float64Array, y: Float64Array, withGradient: boolean) => {
    const replies = await Promise.all(workers.map((w) => new Promise<WorkerReply>((resolve, reject) => {
      const onMessage = (r: WorkerReply) => { w.off('error', onError); r.error ? reject(new Error(r.error)) : resolve(r); };
      const onError = (e: Error) => { w.off('message', onMessage); reject(e); };
      w.once('message', onMessage);
      w.once('error', onError);
      w.postMessage({ x, y, withGradient });
    })));
    const n = x.length;
    const out = {
      aepMwh: 0, perDirectionMwh: new Float64Array(nDir), perTurbineMwh: new Float64Array(n),
      gradX: new Float64Array(withGradient ? n : 0), gradY: new Float64Array(withGradient ? n : 0), pairEvaluations: 0,
    };
    for (const r of replies) {
      for (let d = 0; d < nDir; d++) out.perDirectionMwh[d] += r.perDirectionMwh[d];
      for (let i = 0; i < n; i++) out.perTurbineMwh[i] += r.perTurbineMwh[i];
      for (let i = 0; i < out.gradX.length; i++) { out.gradX[i] += r.gradX[i]; out.gradY[i] += r.gradY[i]; }
      out.pairEvaluations += r.pairEvaluations;
    }
    for (let d = 0; d < nDir; d++) out.aepMwh += out.perDirectionMwh[d];
    return out;
  };
  return {
    threads: count,
    aep: (x, y) => run(x, y, false),
    aepWithGradient: (x, y) => run(x, y, true),
    close: async () => { await Promise.all(workers.map((w) => w.terminate())); },
  };
}
