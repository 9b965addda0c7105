/**
 * A hostile queue worker for the gate's tests: a plain BullMQ worker (no wflo worker code) that
 * takes wflo's jobs, computes the honest result with wflo's own optimizer, and then lies about it
 * the way its mode says. Run as `node hostileWorker.js REDIS_URL MODE` by the tests; prints
 * `ready` on stdout once it listens. Modes:
 *   first-attempt  seed % 5 picks the forgery on attempt 1 only (later attempts are honest):
 *                  0 AEP x10, 1 every turbine moved 1e6 m east and north, 2 turbine 1 on top of turbine 0,
 *                  3 NaN AEP (written as a string, the JSON it can send), 4 honest
 *   wrong-seed     every result is the honest result of another seed (seed + 1000): a feasible
 *                  layout with its correct AEP that is not this task's (only a recheck catches it)
 *   router-network every result is the honest layout and AEP with the router's own network for that
 *                  layout instead of the one the run designed (a farm with economics): valid, so
 *                  the gate takes it (it is the router's answer); only a recheck catches it
 *   escapes        terminal escapes and forged lines in everything it says, on attempt 1: every
 *                  job's progress claims a refusal whose text clears the screen and forges a
 *                  "done" line; seed % 3 = 0 answers AEP x10 as a worker whose name holds a newline,
 *                  ESC and a forged line; seed % 3 = 1 fails with such a message; later attempts honest
 */
import os from 'node:os';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { runTask } from '../../src/runner/taskFunction.js';
import { decodeJob } from '../../src/runner/executors/bullmq/jobPayload.js';
import { encodeOutput } from '../../src/runner/executors/bullmq/jobOutcome.js';
import { KEY_PREFIX, queueNameFor } from '../../src/runner/executors/bullmq/queueNames.js';
import { economicFigures } from '../../src/optimize/economicObjective.js';

const [url, mode] = process.argv.slice(2);
if (!url || !mode) {
  process.stderr.write('usage: hostileWorker.js REDIS_URL first-attempt|wrong-seed|router-network|escapes\n');
  process.exit(2);
}

const connection = new Redis(url, { maxRetriesPerRequest: null });
const worker = new Worker(
  queueNameFor(),
  async (job: Job) => {
    const { data, farm, type, optimizer } = decodeJob(job.data, job.id);
    const c = caseForTask(farm, type);
    const lieSeed = mode === 'wrong-seed' ? data.seed + 1000 : data.seed;
    let host = os.hostname();
    if (mode === 'escapes' && data.attempt === 1) {
      await job.updateProgress({ host: 'h\u001b[2J', pid: 1, refused: '\u001b[31mRED\u001b[0m\r\nwflo: 24/24 done, 0 failed (FAKE)\u001b]0;pwned\u0007' });
      if (data.seed % 3 === 1) {
        return {
          v: 1,
          kind: 'error',
          attempt: data.attempt,
          wallS: 0.01,
          permanent: false,
          worker: { host, pid: process.pid },
          message: '\u001b[2J\u001b[31mboom\rwflo: all good (FAKE)',
        };
      }
      if (data.seed % 3 === 0) host = 'evil\n\u001b[31mwflo: FAKE LINE\u001b[0m';
    }
    const output = await runTask({
      case: c,
      settings: optimizer,
      farm,
      type,
      taskId: data.taskId,
      seed: lieSeed,
      attempt: data.attempt,
      timeoutS: data.timeoutS,
      taskDir: null,
    });
    if (mode === 'router-network' && output.cableTo) {
      const own = economicFigures(c, output.x, output.y);
      output.cableTo = own.cableTo;
      output.cableType = own.cableType;
    }
    const encoded = encodeOutput(output) as Omit<ReturnType<typeof encodeOutput>, 'aep'> & { aep: number | string };
    if (mode === 'first-attempt' && data.attempt === 1) {
      switch (data.seed % 5) {
        case 0:
          encoded.aep = (encoded.aep as number) * 10;
          break;
        case 1:
          encoded.x = encoded.x.map((v) => v + 1e6);
          encoded.y = encoded.y.map((v) => v + 1e6);
          break;
        case 2:
          encoded.x[1] = encoded.x[0]!;
          encoded.y[1] = encoded.y[0]!;
          break;
        case 3:
          encoded.aep = 'NaN';
          break;
        default:
          break;
      }
    }
    if (mode === 'escapes' && data.attempt === 1 && data.seed % 3 === 0) encoded.aep = (encoded.aep as number) * 10;
    return { v: 1, kind: 'result', attempt: data.attempt, wallS: 0.01, worker: { host, pid: process.pid }, output: encoded };
  },
  { connection, prefix: KEY_PREFIX, concurrency: 1, lockDuration: 60_000 },
); // a job computes synchronously (cs4 under LCOE: about 10 s), so the lock must outlast it
worker.on('error', () => {
  /* the test watches the outcome */
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void worker.close(true).then(() => process.exit(0));
});
