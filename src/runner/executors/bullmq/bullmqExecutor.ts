/**
 * The BullMQ executor (coordinator side): attempts become jobs on a Redis queue, run by
 * `wflo worker` processes on any machine (workerLoop.ts); outcomes come back as the jobs' return
 * values and go to the scheduler, which commits results to the ledger. Redis is transport only:
 * the ledger is the truth, so anything Redis loses is simply enqueued again.
 *
 * - Enqueue: job id = task id + spec hash (queueNames.ts), so adding a task twice is a no-op;
 *   jobs are added in batches (addBulk), at most `maxQueued` at a time.
 * - Harvest: QueueEvents 'completed'/'failed' events, plus a periodic sweep of the newest entries
 *   of the completed and failed sets (events are a capped stream and can be missed while
 *   disconnected), plus, whenever nothing has come back for a while, a look at every outstanding
 *   job by its own id (checkLost), which also finds results the sweep's window misses. A result is
 *   reported, then its job removed once the scheduler says it is committed (committed(); so a coordinator killed in
 *   between finds the result again on restart). A failed attempt's job is removed *before* it is
 *   reported, so the scheduler's retry can add the same job id again.
 * - Restart: on start, jobs already in the queue are known: a task whose job finished while the
 *   coordinator was away is reported at once when submitted; one still waiting or running is
 *   adopted, not added again.
 * - Redis restarted or wiped: a sentinel key written at start is checked with every sweep; when
 *   it is gone (FLUSHALL, a restart without persistence) the loss is said in one line and every
 *   outstanding job that no longer exists is added again at once. After a reconnect, and whenever
 *   nothing has come back for a while, the same check runs too.
 * - Timeouts are enforced by the worker that runs the attempt (it kills the job process); a dead
 *   worker's job is detected as stalled by the other workers and runs again elsewhere.
 * - stop(): waiting jobs are removed; jobs already running on workers cannot be recalled: their
 *   results stay in Redis and the next run collects them.
 */
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AttemptOutcome, Dispatch, Executor, ExecutorListener, ExecutorSetup, RunningAttempt } from '../executor.js';
import { closeQuietly, connectOnce, describeRedisError, liveClient } from './redisClient.js';
import { checkRedisConfig } from './redisConfig.js';
import { parseQueueUrl, type QueueAddress } from './queueUrl.js';
import { KEY_PREFIX, jobIdFor, queueNameFor } from './queueNames.js';
import { JobEncoder } from './jobPayload.js';
import { decodeOutcome } from './jobOutcome.js';
import { printable } from '../../../util/printable.js';

export interface BullmqExecutorOptions {
  /** Most jobs of this run in the queue at once (waiting + running + finished, not yet collected). */
  maxQueued?: number;
  /** Period of the sweep of finished jobs, ms. */
  sweepMs?: number;
  /** With nothing coming back for this long, check that outstanding jobs still exist, ms. */
  silenceCheckMs?: number;
}

const ADD_BATCH = 500;
const REMOVE_BATCH = 2000;
const SWEEP_BATCH = 1000;
/** How long stop() waits for Redis to remove waiting jobs before it gives up. */
const STOP_TIMEOUT_MS = 10_000;

export class BullmqExecutor implements Executor {
  readonly kind = 'bullmq';
  readonly remote = true;
  readonly address: QueueAddress;
  /** Lines from the connection check (CONFIG disabled, AOF off) for the caller to print. */
  readonly warnings: string[];
  private client: Redis | null = null;
  private readonly maxQueued: number;
  private readonly sweepMs: number;
  private readonly silenceCheckMs: number;
  private readonly queueName = queueNameFor();

  private listener: ExecutorListener | null = null;
  private encoder: JobEncoder | null = null;
  private campaignHash = '';
  private nTurbinesByType: number[] = [];
  private queue: Queue | null = null;
  private events: QueueEvents | null = null;
  private bullClients: Redis[] = [];

  /** Jobs of this run not yet reported, by job id. */
  private readonly outstanding = new Map<string, Dispatch>();
  /** Running jobs seen through 'active' / 'progress' events. */
  private readonly active = new Map<string, { startedAt: number; host?: string; pid?: number }>();
  /** Jobs found in the queue at start: finished ones are collected on submit, queued ones adopted. */
  private known = new Map<string, 'finished' | 'queued'>();
  private toAdd: { jobId: string; d: Dispatch }[] = [];
  private adding = false;
  private toRemove: string[] = [];
  /** Results reported and not yet committed by the scheduler: their jobs stay in Redis until then. */
  private readonly awaitingCommit = new Map<Dispatch, string>();
  /** Failed attempts being reported after their job's removal (still in flight for the scheduler). */
  private readonly reporting = new Set<Dispatch>();
  private timers: NodeJS.Timeout[] = [];
  private lastHarvestAt = Date.now();
  private checkingLost = false;
  private sweeping = false;
  private stopped = false;
  private closed = false;

  private constructor(address: QueueAddress, warnings: string[], o: BullmqExecutorOptions) {
    this.address = address;
    this.warnings = warnings;
    this.maxQueued = Math.max(1, o.maxQueued ?? 10_000);
    this.sweepMs = o.sweepMs ?? 2000;
    this.silenceCheckMs = o.silenceCheckMs ?? 10_000;
  }

  /**
   * Connect and check the server (noeviction), or throw one line: malformed URL (InputError,
   * exit 2), unreachable host or wrong password or bad eviction policy (RuntimeFailure, exit 1).
   */
  static async connect(url: string, source = '--queue', o: BullmqExecutorOptions = {}): Promise<BullmqExecutor> {
    const address = parseQueueUrl(url, source);
    // Check now, before the run touches its output folder; connect for real in start() (nothing
    // stays open if the run never starts).
    const probe = await connectOnce(address, `wflo-coordinator-${process.pid}`);
    try {
      const report = await checkRedisConfig(probe, address);
      return new BullmqExecutor(address, report.warnings, o);
    } finally {
      probe.disconnect();
    }
  }

  private notice(m: string): void {
    this.listener?.onNotice?.(m);
    if (m.startsWith('reconnected')) void this.checkLost();
  }

  async start(setup: ExecutorSetup, listener: ExecutorListener, _expectedWork: number): Promise<void> {
    this.listener = listener;
    this.campaignHash = setup.campaignHash;
    this.client = await connectOnce(this.address, `wflo-coordinator-${process.pid}`, (m) => this.notice(m));
    this.encoder = new JobEncoder(setup);
    this.nTurbinesByType = setup.farmTypes.map((t) => t.nTurbines);
    const queueConn = liveClient(this.address, { name: `wflo-coordinator-${process.pid}-queue` });
    const eventsConn = liveClient(this.address, { name: `wflo-coordinator-${process.pid}-events` });
    this.bullClients = [queueConn, eventsConn];
    this.queue = new Queue(this.queueName, {
      connection: queueConn,
      prefix: KEY_PREFIX,
      streams: { events: { maxLen: 10_000 } },
      defaultJobOptions: { attempts: 1, removeOnComplete: false, removeOnFail: false },
    });
    this.queue.on('error', () => {
      /* connection problems are reported by the command connection */
    });
    this.events = new QueueEvents(this.queueName, { connection: eventsConn, prefix: KEY_PREFIX });
    this.events.on('error', () => {
      /* idem */
    });
    this.events.on('completed', ({ jobId, returnvalue }) => this.harvestCompleted(jobId, returnvalue));
    this.events.on('failed', ({ jobId, failedReason }) => this.harvestFailed(jobId, failedReason));
    this.events.on('active', ({ jobId }) => {
      if (this.outstanding.has(jobId)) this.active.set(jobId, { startedAt: Date.now() / 1000 });
    });
    this.events.on('progress', ({ jobId, data }) => {
      const a = this.active.get(jobId);
      const p = data as { host?: unknown; pid?: unknown; refused?: unknown } | null;
      if (p && typeof p.refused === 'string') {
        this.onRefused(jobId, p.host, p.pid, p.refused);
        return;
      }
      if (a && p && typeof p.host === 'string' && typeof p.pid === 'number') {
        a.host = p.host;
        a.pid = p.pid;
      }
    });
    this.events.on('stalled', ({ jobId }) => {
      const d = this.outstanding.get(jobId);
      if (d) listener.onNotice?.(`${d.task.taskId}: its worker stopped answering; the job runs again elsewhere`);
      this.active.delete(jobId);
    });
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
    // What a previous coordinator left: finished jobs to collect, queued ones to adopt.
    const [finished, queued] = await Promise.all([
      this.queue.getRanges(['completed', 'failed'], 0, -1),
      this.queue.getRanges(['active', 'wait', 'prioritized', 'delayed'], 0, -1),
    ]);
    for (const id of queued) this.known.set(id, 'queued');
    for (const id of finished) this.known.set(id, 'finished');
    listener.onNotice?.(
      `tasks go to the queue ${this.queueName} at ${this.address.redacted}; start workers with \`wflo worker --queue ${this.address.redacted}\``,
    );
    await this.client.set(this.sentinelKey(), String(Date.now()));
    this.timers.push(setInterval(() => void this.sweep(), this.sweepMs));
    this.timers.push(
      setInterval(
        () => {
          if (this.outstanding.size > 0 && Date.now() - this.lastHarvestAt > this.silenceCheckMs) void this.checkLost();
        },
        Math.max(1000, Math.floor(this.silenceCheckMs / 2)),
      ),
    );
    this.timers.push(setInterval(() => this.flushRemovals(), 100));
  }

  capacity(): number {
    if (this.stopped || !this.queue) return 0;
    return Math.max(0, this.maxQueued - this.outstanding.size - this.reporting.size);
  }

  submit(d: Dispatch): void {
    const jobId = jobIdFor(d.task.taskId, d.task.specHash);
    this.outstanding.set(jobId, d);
    const k = this.known.get(jobId);
    if (k !== undefined) this.known.delete(jobId);
    if (k === 'queued') return; // adopted: its outcome arrives like any other
    if (k === 'finished') {
      void this.collect(jobId, d);
      return;
    }
    this.toAdd.push({ jobId, d });
    if (!this.adding) {
      this.adding = true;
      setImmediate(() => void this.flushAdds());
    }
  }

  inFlight(): number {
    return this.outstanding.size + this.reporting.size;
  }

  running(): RunningAttempt[] {
    const out: RunningAttempt[] = [];
    for (const [jobId, a] of this.active) {
      const d = this.outstanding.get(jobId);
      if (d) out.push({ taskId: d.task.taskId, attempt: d.attempt, workerPid: a.pid ?? 0, ...(a.host ? { host: a.host } : {}), startedAt: a.startedAt });
    }
    return out;
  }

  async stop(): Promise<Dispatch[]> {
    if (this.stopped) return [];
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const lost = [...this.outstanding.values(), ...this.reporting];
    const ids = [...this.outstanding.keys()];
    this.outstanding.clear();
    this.reporting.clear();
    this.toAdd = [];
    // Recall what has not started; running jobs cannot be recalled (the next run collects them).
    const q = this.queue;
    if (q) {
      const removal = (async () => {
        for (let i = 0; i < ids.length; i += REMOVE_BATCH) {
          await Promise.all(ids.slice(i, i + REMOVE_BATCH).map((id) => q.remove(id).catch(() => 0)));
        }
      })();
      await Promise.race([removal, unrefDelay(STOP_TIMEOUT_MS)]);
    }
    await this.client?.del(this.sentinelKey()).catch(() => 0);
    await this.release();
    return lost;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const q = this.queue;
    const ids = this.toRemove.splice(0);
    if (q) {
      const cleanup = (async () => {
        await Promise.all(ids.map((id) => q.remove(id).catch(() => 0)));
        await this.removeLeftovers();
        await this.client?.del(this.sentinelKey()).catch(() => 0);
      })();
      await Promise.race([cleanup, unrefDelay(STOP_TIMEOUT_MS)]);
    }
    await this.release();
  }

  /**
   * Finished jobs of this campaign found at start and never asked for: their tasks were already
   * committed (a coordinator killed between commit and removal left them). Remove them.
   */
  private async removeLeftovers(): Promise<void> {
    const finished = [...this.known]
      .filter(([, state]) => state === 'finished')
      .map(([id]) => id)
      .slice(0, 10_000);
    if (finished.length === 0 || !this.client || !this.queue) return;
    const pipe = this.client.pipeline();
    for (const id of finished) pipe.hget(`${KEY_PREFIX}:${this.queueName}:${id}`, 'data');
    const replies = (await pipe.exec()) ?? [];
    const mine = finished.filter((_, i) => {
      const [err, data] = replies[i] ?? [null, null];
      if (err || typeof data !== 'string') return false;
      try {
        return (JSON.parse(data) as { campaign?: { hash?: unknown } }).campaign?.hash === this.campaignHash;
      } catch {
        return false;
      }
    });
    await Promise.all(mine.map((id) => this.queue!.remove(id).catch(() => 0)));
  }

  /** Redis memory and queue depth, for benchmarks and status. */
  async queueCounts(): Promise<Record<string, number>> {
    return this.queue ? this.queue.getJobCounts('wait', 'active', 'completed', 'failed', 'delayed', 'prioritized') : {};
  }

  // ---- internals ----

  private async release(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The events connection sits in a blocking read: drop it rather than wait for the read to end.
    closeQuietly(this.bullClients[1]);
    void this.events?.close().catch(() => {
      /* its connection is gone */
    });
    await Promise.race([
      this.queue?.close().catch(() => {
        /* closing */
      }),
      unrefDelay(2000),
    ]);
    for (const c of this.bullClients) closeQuietly(c);
    closeQuietly(this.client);
  }

  private async flushAdds(): Promise<void> {
    const q = this.queue!;
    try {
      while (this.toAdd.length > 0 && !this.stopped) {
        const batch = this.toAdd.splice(0, ADD_BATCH).filter(({ jobId, d }) => this.outstanding.get(jobId) === d);
        if (batch.length === 0) continue;
        try {
          await q.addBulk(batch.map(({ jobId, d }) => ({ name: d.task.taskId, data: this.encoder!.encode(d), opts: { jobId } })));
        } catch (err) {
          // Out of memory (noeviction refuses writes) or a connection problem: try again shortly.
          this.listener?.onNotice?.(`could not enqueue ${batch.length} tasks (${describeRedisError(err)}); retrying`);
          this.toAdd.unshift(...batch);
          await unrefDelay(1000);
        }
      }
    } finally {
      this.adding = false;
    }
  }

  committed(ds: readonly Dispatch[]): void {
    for (const d of ds) {
      const jobId = this.awaitingCommit.get(d);
      if (jobId === undefined) continue;
      this.awaitingCommit.delete(d);
      this.toRemove.push(jobId);
    }
  }

  private flushRemovals(): void {
    if (this.toRemove.length === 0 || !this.queue) return;
    const q = this.queue;
    const ids = this.toRemove.splice(0, REMOVE_BATCH);
    for (const id of ids)
      q.remove(id).catch(() => {
        /* removed again by the next run, or left finished: harmless */
      });
  }

  private nTurbines(d: Dispatch): number {
    return this.nTurbinesByType[d.task.typeIndex];
  }

  private harvestCompleted(jobId: string, returnvalue: unknown): void {
    const d = this.outstanding.get(jobId);
    if (!d) return;
    this.report(jobId, d, decodeOutcome(returnvalue, this.nTurbines(d)));
  }

  private harvestFailed(jobId: string, failedReason: string): void {
    const d = this.outstanding.get(jobId);
    if (!d) return;
    this.report(jobId, d, failedOutcome(failedReason));
  }

  /** One finished job found by the sweep or at submit: read it and report it. */
  private async collect(jobId: string, d: Dispatch): Promise<void> {
    let job: Job | undefined;
    try {
      job = (await this.queue!.getJob(jobId)) as Job | undefined;
    } catch {
      return; // the sweep tries again
    }
    if (this.outstanding.get(jobId) !== d) return;
    if (!job) {
      // gone in between: enqueue again
      this.toAdd.push({ jobId, d });
      if (!this.adding) {
        this.adding = true;
        setImmediate(() => void this.flushAdds());
      }
      return;
    }
    if (job.finishedOn && job.failedReason && job.returnvalue == null) this.report(jobId, d, failedOutcome(job.failedReason));
    else if (job.finishedOn) this.report(jobId, d, decodeOutcome(job.returnvalue, this.nTurbines(d)));
  }

  private report(jobId: string, d: Dispatch, outcome: AttemptOutcome): void {
    this.outstanding.delete(jobId);
    this.active.delete(jobId);
    this.lastHarvestAt = Date.now();
    if (outcome.kind === 'result') {
      // Its job stays in Redis until the scheduler says the result is committed (committed()).
      this.awaitingCommit.set(d, jobId);
      this.listener!.onOutcome(d, outcome);
      this.listener!.onCapacity();
      return;
    }
    // A failed attempt: remove its job first, so the retry can use the same job id.
    this.reporting.add(d);
    const q = this.queue!;
    const removed = Promise.race([q.remove(jobId).catch(() => 0), unrefDelay(STOP_TIMEOUT_MS)]);
    void removed.then(() => {
      if (!this.reporting.delete(d)) return; // handed back by stop()
      this.listener!.onOutcome(d, outcome);
      this.listener!.onCapacity();
    });
  }

  /** A worker handed a command job back (runner/command/commandAllowance.ts): say so, once per worker and reason. */
  private readonly refusalsShown = new Set<string>();
  private onRefused(jobId: string, host: unknown, pid: unknown, reason: string): void {
    this.active.delete(jobId);
    const d = this.outstanding.get(jobId);
    // Anyone who can write to Redis can set a job's progress: its text is printed as one plain line.
    const who = printable(`${String(host).slice(0, 300)}:${String(pid).slice(0, 20)}`),
      why = printable(reason.slice(0, 300));
    const key = `${who}|${why}`;
    if (!d || this.refusalsShown.has(key) || this.refusalsShown.size > 1000) return;
    this.refusalsShown.add(key);
    this.listener?.onNotice?.(`${d.task.taskId}: worker ${who} refused it (handed back to the queue): ${why}`);
  }

  /** The key that tells this coordinator Redis still holds what it was given. */
  private sentinelKey(): string {
    return `${KEY_PREFIX}:${this.queueName}:coordinator:${this.campaignHash}:${process.pid}`;
  }

  /** Collect finished jobs the events missed; notice a Redis that lost its data. */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.stopped || !this.queue || this.outstanding.size === 0) return;
    this.sweeping = true;
    try {
      if ((await this.client!.exists(this.sentinelKey())) === 0) {
        this.listener?.onNotice?.(`${this.address.redacted} lost its data (FLUSHALL, or restarted without persistence); checking which queued tasks are gone`);
        await this.client!.set(this.sentinelKey(), String(Date.now()));
        await this.checkLost();
      }
      const ids = await this.queue.getRanges(['completed', 'failed'], 0, SWEEP_BATCH - 1);
      const mine = ids.filter((id) => this.outstanding.has(id));
      await Promise.all(mine.map((id) => this.collect(id, this.outstanding.get(id)!)));
    } catch {
      /* connection trouble: reported elsewhere; next sweep */
    } finally {
      this.sweeping = false;
    }
  }

  /**
   * Look up every outstanding job by its own id (never through the finished sets, whose newest
   * entries another campaign or a flood of fake ids can fill): a job that no longer exists
   * (Redis restarted without its data, wiped) is added again; a finished one is collected; one
   * whose hash exists but that sits in no list (an addBulk that failed halfway, keys deleted
   * around it) is deleted and added again, since adding its id again would be a no-op.
   */
  private async checkLost(): Promise<void> {
    if (this.checkingLost || this.stopped || !this.queue) return;
    this.checkingLost = true;
    try {
      const pending = new Set(this.toAdd.map((a) => a.jobId));
      const ids = [...this.outstanding.keys()].filter((id) => !pending.has(id));
      let readded = 0,
        orphaned = 0;
      const finished: string[] = [],
        unfinished: string[] = [];
      for (let i = 0; i < ids.length; i += 5000) {
        const chunk = ids.slice(i, i + 5000);
        const pipe = this.client!.pipeline();
        for (const id of chunk) pipe.hmget(`${KEY_PREFIX}:${this.queueName}:${id}`, 'timestamp', 'finishedOn');
        const replies = (await pipe.exec()) ?? [];
        chunk.forEach((id, j) => {
          const [err, fields] = replies[j] ?? [new Error('no reply'), null];
          const d = this.outstanding.get(id);
          if (err || !d) return;
          const [timestamp, finishedOn] = fields as [string | null, string | null];
          if (timestamp === null) {
            this.active.delete(id);
            this.toAdd.push({ jobId: id, d });
            readded++;
          } else if (finishedOn !== null) finished.push(id);
          else unfinished.push(id);
        });
      }
      for (let i = 0; i < unfinished.length; i += 200) {
        const chunk = unfinished.slice(i, i + 200);
        const states = await Promise.all(chunk.map((id) => this.queue!.getJobState(id).catch(() => null)));
        for (let j = 0; j < chunk.length; j++) {
          const id = chunk[j]!,
            d = this.outstanding.get(id);
          if (!d) continue;
          if (states[j] === 'completed' || states[j] === 'failed') finished.push(id);
          else if (states[j] === 'unknown') {
            await this.client!.del(`${KEY_PREFIX}:${this.queueName}:${id}`);
            this.active.delete(id);
            this.toAdd.push({ jobId: id, d });
            orphaned++;
          }
        }
      }
      for (let i = 0; i < finished.length; i += 200) {
        await Promise.all(
          finished.slice(i, i + 200).map((id) => {
            const d = this.outstanding.get(id);
            return d ? this.collect(id, d) : undefined;
          }),
        );
      }
      if (readded > 0) {
        this.listener?.onNotice?.(
          `${readded} queued task${readded === 1 ? ' was' : 's were'} missing from ${this.address.redacted} (restarted without its data?); enqueued again`,
        );
      }
      if (orphaned > 0) {
        this.listener?.onNotice?.(
          `${orphaned} queued task${orphaned === 1 ? ' was' : 's were'} in no list of ${this.address.redacted} (its keys changed under the queue?); enqueued again`,
        );
      }
      if ((readded > 0 || orphaned > 0) && !this.adding) {
        this.adding = true;
        setImmediate(() => void this.flushAdds());
      }
      this.lastHarvestAt = Date.now();
    } catch {
      /* try again later */
    } finally {
      this.checkingLost = false;
    }
  }
}

/** A promise that resolves after `ms` without keeping the process alive (a bound on a wait, not a wait). */
function unrefDelay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });
}

/** A job the queue failed (not an attempt's own failure: those complete with an outcome). */
function failedOutcome(reason: string): AttemptOutcome {
  const message = printable((reason || 'job failed without a reason').split('\n')[0].slice(0, 1000));
  if (/stalled more than allowable limit/i.test(message)) return { kind: 'crash', message: `the workers running it died (${message})` };
  return { kind: 'error', message, permanent: true };
}
