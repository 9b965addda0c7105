/**
 * Worker thread of parallelAep.ts: evaluates the directions [dirFrom, dirTo) of one farm model for
 * every layout posted to it and posts the partial result back: rows by direction from the native
 * kernel where the solve plan (computed once by parallelAep.ts) names it, else the waked reference
 * engine's sums over the block, built from the plan's model.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { wakedSetup } from './engine/wakedSetup.js';
import { createWakedWorkspace, type Workspace } from './engine/workspace.js';
import { evaluateWaked } from './engine/solveWaked.js';
import { createNativeRunner } from './aep.js';
import { allocateByDirection, type IsaChoice } from './nativeKernel.js';
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { SolvePlan } from './solvePlanTypes.js';

const { turbine, wind, plan, dirFrom, dirTo, isa } = workerData as {
  turbine: Turbine;
  wind: WindResource;
  plan: SolvePlan;
  dirFrom: number;
  dirTo: number;
  isa: IsaChoice;
};
const runner = plan.kernel === 'native' ? createNativeRunner(turbine, wind, plan, isa) : null;
const setup = runner ? null : wakedSetup(turbine, wind, plan.model);
let ws: Workspace | null = null;
// Rows of the native runner: the resource's directions, or a time series' sample directions.
const nDir = runner?.rows?.count ?? wind.directionsDeg.length;

parentPort!.on('message', ({ x, y, withGradient }: { x: Float64Array; y: Float64Array; withGradient: boolean }) => {
  try {
    const n = x.length;
    if (runner) {
      const out = allocateByDirection(nDir, n, withGradient);
      const pairEvaluations = runner.run(x, y, withGradient, out, dirFrom, dirTo);
      const rows = {
        byDirection: true,
        pairEvaluations,
        perDirectionMwh: out.perDirectionMwh.slice(dirFrom, dirTo),
        perTurbineByDir: out.perTurbineByDir.slice(dirFrom * n, dirTo * n),
        gradXByDir: out.gradXByDir.slice(withGradient ? dirFrom * n : 0, withGradient ? dirTo * n : 0),
        gradYByDir: out.gradYByDir.slice(withGradient ? dirFrom * n : 0, withGradient ? dirTo * n : 0),
      };
      parentPort!.postMessage(rows, [
        rows.perDirectionMwh.buffer,
        rows.perTurbineByDir.buffer,
        rows.gradXByDir.buffer,
        rows.gradYByDir.buffer,
      ] as ArrayBuffer[]);
      return;
    }
    if (!ws || ws.n !== n) ws = createWakedWorkspace(setup!, n);
    const r = evaluateWaked(setup!, x, y, withGradient, ws, dirFrom, dirTo);
    parentPort!.postMessage({ byDirection: false, ...r }, [r.perDirectionMwh.buffer, r.perTurbineMwh.buffer, r.gradX.buffer, r.gradY.buffer] as ArrayBuffer[]);
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
