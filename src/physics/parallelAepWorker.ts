/**
 * Worker thread of parallelAep.ts: evaluates the directions [dirFrom, dirTo) of one farm model for
 * every layout posted to it and posts the partial result back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createWakedWorkspace, evaluateWaked, wakedSetup, type Workspace } from './wakedAep.js';

const { turbine, wind, spec, dirFrom, dirTo } = workerData;
const setup = wakedSetup(turbine, wind, spec);
let ws: Workspace | null = null;
parentPort!.on('message', ({ x, y, withGradient }: { x: Float64Array; y: Float64Array; withGradient: boolean }) => {
  try {
    if (!ws || ws.n !== x.length) ws = createWakedWorkspace(setup, x.length);
    const r = evaluateWaked(setup, x, y, withGradient, ws, dirFrom, dirTo);
    parentPort!.postMessage(r, [r.perDirectionMwh.buffer, r.perTurbineMwh.buffer, r.gradX.buffer, r.gradY.buffer] as ArrayBuffer[]);
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
