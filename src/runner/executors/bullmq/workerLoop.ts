/**
 * `wflo worker`: take jobs from the queue and run each attempt in a job process (jobProcessPool.ts)
 * with the per-attempt timeout the job carries. Works for any campaign and any coordinator: the
 * job is all it needs. Started before any coordinator, it simply waits for jobs.
 *
 * - Every attempt it runs ends as a completed job whose return value says how it ended (result,
 *   error, crash of the job process, timeout); see jobOutcome.ts. A payload that fails
 *   validation, or that another engine version made, fails the job for good (never retried by
 *   the queue) and is reported to the coordinator as a permanent error.
 * - Its job locks are renewed while it lives; if it dies, its jobs are detected as stalled
 *   after `lockMs` and run elsewhere (BullMQ stalled-job check, run by every worker).
 * - Ctrl-C / SIGTERM: stop taking jobs, kill the job processes, leave the running jobs locked so
 *   they turn stalled and run elsewhere, uncharged.
 * - Lost connections are retried with backoff and shown in its worker record (`wflo status`).
 * - Command tasks (a user's program) run only on a worker allowed to run that command, whose
 *   own copy of the inputs hashes as the job says (runner/command/commandAllowance.ts). Otherwise
 *   the job is handed back to the queue (delayed a little, not charged) before anything starts,
 *   and the refusal is shown to the coordinator and in the worker record.
 */
import os from 'node:os';
import path from 'node:path';
import { Worker, UnrecoverableError, DelayedError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { ENGINE_VERSION, VERSION } from '../../../version.js';
import { closeQuietly, connectOnce, liveClient, describeRedisError } from './redisClient.js';
import { checkRedisConfig } from './redisConfig.js';
import type { QueueAddress } from './queueUrl.js';
import { KEY_PREFIX, queueNameFor } from './queueNames.js';
import { decodeJob, PayloadRejected } from './jobPayload.js';
import { encodeOutput, type EncodedOutcome } from './jobOutcome.js';
import { JobProcessPool } from './jobProcessPool.js';
import { HEARTBEAT_INTERVAL_MS, removeWorkerRecord, writeWorkerRecord, type WorkerRecord } from './workerRegistry.js';
import { checkCommandJob, type CommandAllowance } from '../../command/commandAllowance.js';
import { workerIdOf } from '../../workerId.js';

/** Default lock: a dead worker's job runs elsewhere after about this long. */
export const DEFAULT_LOCK_MS = 30_000;
/** A job whose workers died this many times more is failed (reported as a crash, retried by the scheduler). */
const MAX_STALLED = 2;
/** Tell the coordinator who runs a job once it has run this long (short jobs skip the round trip). */
const REPORT_RUNNING_AFTER_MS = 1000;
/** A refused job waits this long in the queue before any worker sees it again. */
export const HAND_BACK_DELAY_MS = 2000;

export interface WorkerLoopOptions {
  address: QueueAddress;
  /** Job processes = jobs run at once. */
  concurrency: number;
  /** Job lock duration, ms (tests shorten it; WFLO_QUEUE_LOCK_MS). */
  lockMs?: number;
  /** Lines for the user (stderr). */
  log: (line: string) => void;
  signal?: AbortSignal;
  execArgv?: string[];
  /** Commands this worker may run, and its copy of their working directory (null: none). */
  commands?: CommandAllowance | null;
  /** Where command tasks keep their attempt folders (default `<cwd>/wflo-tasks`). */
  taskDir?: string;
}

export interface WorkerLoopSummary {
  done: number;
  failed: number;
}

/** Run until `signal` aborts. Throws RuntimeFailure (one line) when Redis cannot be reached or is misconfigured. */
export async function runWorkerLoop(o: WorkerLoopOptions): Promise<WorkerLoopSummary> {
  const a = o.address;
  const host = os.hostname();
  const pid = process.pid;
  const queue = queueNameFor(ENGINE_VERSION);
  const record: WorkerRecord = {
    host,
    pid,
    engine: ENGINE_VERSION,
    version: VERSION,
    queue,
    concurrency: o.concurrency,
    startedAt: Math.floor(Date.now() / 1000),
    lastSeen: 0,
    done: 0,
    failed: 0,
    running: 0,
    reconnects: 0,
    lastProblem: '',
    refused: 0,
    lastRefusal: '',
    commands: (o.commands?.allowed ?? []).map((c) => c.join(' ')).join('; '),
  };
  const taskDir = path.resolve(o.taskDir ?? 'wflo-tasks');
  const refusalsLogged = new Set<string>();
  const notice = (m: string): void => {
    if (m.startsWith('lost connection')) {
      record.reconnects++;
      record.lastProblem = `${new Date().toISOString()} ${m}`;
    }
    o.log(`wflo worker: ${m}`);
  };
  const client = await connectOnce(a, `wflo-worker-${pid}`, notice);
  let bullConnection: Redis | null = null;
  let worker: Worker | null = null;
  const pool = new JobProcessPool(o.concurrency, o.execArgv);
  let closing = false;
  let idleBeat: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  try {
    const config = await checkRedisConfig(client, a);
    for (const w of config.warnings) o.log(`wflo worker: warning: ${w}`);
    const beat = (): void => {
      record.lastSeen = Math.floor(Date.now() / 1000);
      writeWorkerRecord(client, record).catch(() => {
        /* shown as a connection problem already */
      });
    };
    beat();
    heartbeat = setInterval(beat, HEARTBEAT_INTERVAL_MS);

    const processor = async (job: Job, token?: string): Promise<EncodedOutcome> => {
      let decoded;
      try {
        decoded = decodeJob(job.data, job.id);
      } catch (err) {
        const message = err instanceof PayloadRejected ? err.message : `job ${job.id}: payload rejected: ${(err as Error).message}`;
        record.failed++;
        o.log(`wflo worker: ${message}`);
        throw new UnrecoverableError(message);
      }
      const d = decoded.data;
      const check = checkCommandJob(decoded.optimizer, o.commands ?? null);
      if (!check.ok && 'invalid' in check) {
        record.failed++;
        o.log(`wflo worker: job ${job.id}: payload rejected: ${check.invalid}`);
        throw new UnrecoverableError(`job ${job.id}: payload rejected: ${check.invalid}`);
      }
      if (!check.ok) {
        // Nothing has started: give the job back, uncharged, for a worker that may run it.
        record.refused++;
        record.lastRefusal = `${d.taskId}: ${check.refuse}`;
        if (!refusalsLogged.has(check.refuse)) {
          refusalsLogged.add(check.refuse);
          o.log(`wflo worker: refused ${d.taskId} (handed back to the queue): ${check.refuse}`);
        }
        await job.updateProgress({ host, pid, refused: check.refuse }).catch(() => {
          /* informational */
        });
        await job.moveToDelayed(Date.now() + HAND_BACK_DELAY_MS, token);
        throw new DelayedError();
      }
      record.running++;
      const reportTimer = setTimeout(() => {
        job.updateProgress({ host, pid }).catch(() => {
          /* informational */
        });
      }, REPORT_RUNNING_AFTER_MS);
      let out;
      try {
        out = await pool.run({
          farm: decoded.farm,
          type: decoded.type,
          optimizer: decoded.optimizer,
          taskId: d.taskId,
          seed: d.seed,
          attempt: d.attempt,
          timeoutS: d.timeoutS,
          taskDir,
          ...(o.commands ? { workdir: o.commands.workdir } : {}),
        });
      } finally {
        clearTimeout(reportTimer);
        record.running--;
        // Going idle: refresh the record soon, so status does not show stale counts for long.
        if (record.running === 0 && !idleBeat)
          idleBeat = setTimeout(() => {
            idleBeat = null;
            beat();
          }, 200);
      }
      // Shutting down: the job processes were killed on purpose. Leave the job locked: it turns
      // stalled and runs elsewhere without being charged.
      if (closing)
        return new Promise<never>(() => {
          /* never settles */
        });
      const me = { host, pid };
      if (out.kind === 'result' || out.kind === 'error') adaptPrefetch(out.wallS);
      if (out.kind === 'result') {
        record.done++;
        return { v: 1, kind: 'result', attempt: d.attempt, wallS: out.wallS, worker: me, output: encodeOutput(out.output) };
      }
      record.failed++;
      if (out.kind === 'error')
        return { v: 1, kind: 'error', attempt: d.attempt, message: out.message, wallS: out.wallS, ...(out.permanent ? { permanent: true } : {}), worker: me };
      return { v: 1, kind: out.kind, attempt: d.attempt, message: out.message, worker: me };
    };

    // Short jobs: take a few more than there are job processes, so the round trip to Redis
    // overlaps with work (as the local pool does). Long jobs: exactly one per process, so an idle
    // worker elsewhere gets the next one.
    let wallEwmaS = NaN;
    const adaptPrefetch = (wallS: number): void => {
      wallEwmaS = Number.isNaN(wallEwmaS) ? wallS : 0.9 * wallEwmaS + 0.1 * wallS;
      const prefetch = wallEwmaS < 0.02 ? 8 : wallEwmaS < 0.2 ? 2 : 1;
      if (worker && worker.concurrency !== o.concurrency * prefetch) worker.concurrency = o.concurrency * prefetch;
    };
    const lockMs = o.lockMs ?? DEFAULT_LOCK_MS;
    bullConnection = liveClient(a, { name: `wflo-worker-${pid}-bull` });
    worker = new Worker(queue, processor, {
      connection: bullConnection,
      prefix: KEY_PREFIX,
      concurrency: o.concurrency,
      name: workerIdOf({ host, pid }),
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
      maxStalledCount: MAX_STALLED,
      drainDelay: 5,
      autorun: false,
    });
    let lastError = '';
    worker.on('error', (err) => {
      const why = describeRedisError(err);
      if (why !== lastError) {
        lastError = why;
        o.log(`wflo worker: queue error: ${why}`);
      }
    });
    worker.on('ready', () => {
      lastError = '';
    });
    o.log(
      `wflo worker ${workerIdOf({ host, pid })}: ${o.concurrency} job process${o.concurrency === 1 ? '' : 'es'}, queue ${queue} at ${a.redacted}` +
        (o.commands
          ? `; may run ${o.commands.allowed.map((c) => `'${c.join(' ')}'`).join(', ')} in ${o.commands.workdir} (task folders in ${taskDir})`
          : '; runs no command tasks'),
    );
    const running = worker.run();
    await new Promise<void>((resolve) => {
      if (o.signal?.aborted) resolve();
      o.signal?.addEventListener('abort', () => resolve(), { once: true });
      running.then(
        () => resolve(),
        (err) => {
          o.log(`wflo worker: stopped: ${describeRedisError(err)}`);
          resolve();
        },
      );
    });
    closing = true;
    o.log('wflo worker: stopping (running jobs will run again elsewhere)');
  } finally {
    closing = true;
    if (heartbeat) clearInterval(heartbeat);
    if (idleBeat) clearTimeout(idleBeat);
    await pool.close();
    if (worker)
      await worker.close(true).catch(() => {
        /* already closing */
      });
    await removeWorkerRecord(client, host, pid).catch(() => {
      /* expires anyway */
    });
    closeQuietly(bullConnection);
    closeQuietly(client);
  }
  return { done: record.done, failed: record.failed };
}
