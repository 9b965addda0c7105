/**
 * Worker thread of parallelAep.ts: evaluates the directions [dirFrom, dirTo) of one farm model for
 * every layout posted to it and posts the partial result back: rows by direction from the native
 * kernel (the same engine createFarmEvaluator picks), or, for a model only the JavaScript engines
 * have, the waked reference engine's sums over the block.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { wakedSetup } from './engine/wakedSetup.js';
import { createWakedWorkspace, type Workspace } from './engine/workspace.js';
import { evaluateWaked } from './engine/solveWaked.js';
import { createNativeRunner, inflowOf } from './aep.js';
import { allocateByDirection } from './nativeKernel.js';

const { turbine, wind, model, dirFrom, dirTo, kernel, isa } = workerData;
const runner = kernel === 'native' ? createNativeRunner(turbine, wind, model, isa) : null;
const setup = runner ? null : wakedSetup(turbine, wind, { ...model, inflow: inflowOf(turbine, model) });
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
        byDirection: true, pairEvaluations,
        perDirectionMwh: out.perDirectionMwh.slice(dirFrom, dirTo),
        perTurbineByDir: out.perTurbineByDir.slice(dirFrom * n, dirTo * n),
        gradXByDir: out.gradXByDir.slice(withGradient ? dirFrom * n : 0, withGradient ? dirTo * n : 0),
        gradYByDir: out.gradYByDir.slice(withGradient ? dirFrom * n : 0, withGradient ? dirTo * n : 0),
      };
      parentPort!.postMessage(rows, [rows.perDirectionMwh.buffer, rows.perTurbineByDir.buffer, rows.gradXByDir.buffer, rows.gradYByDir.buffer] as ArrayBuffer[]);
      return;
    }
    if (!ws || ws.n !== n) ws = createWakedWorkspace(setup!, n);
    const r = evaluateWaked(setup!, x, y, withGradient, ws, dirFrom, dirTo);
    parentPort!.postMessage({ byDirection: false, ...r }, [r.perDirectionMwh.buffer, r.perTurbineMwh.buffer, r.gradX.buffer, r.gradY.buffer] as ArrayBuffer[]);
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
