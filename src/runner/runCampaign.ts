/**
 * `wflo run`: prepare the output folder, take the run lock, bring the ledger in line with the
 * campaign (new, stale and retired tasks), and hand the tasks that are not done to the
 * scheduler. Running the same campaign again resumes: done tasks are skipped, stale ones (spec
 * hash changed) rerun, failed ones rerun only with `retryFailed`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError, RuntimeFailure, WfloError } from '../util/errors.js';
import type { Campaign } from '../campaign/campaign.js';
import { TaskGrid, type TaskSource } from '../campaign/taskGrid.js';
import { acquireRunLock } from './runLock.js';
import { refuseOutputSymlinks } from './outputEntries.js';
import { Ledger, type SyncReport } from './ledger.js';
import { AuditLog } from './auditLog.js';
import { Scheduler, type StopReason } from './scheduler.js';
import { LAYOUTS_FILE } from './layoutsFile.js';
import type { ExportReport } from './exporter.js';
import type { ProgressReporter } from './progress.js';
import type { Executor } from './executors/executor.js';
import { LocalPoolExecutor } from './executors/local/localPool.js';
import { markAuditScanned, recoverLostResults, type RecoveryReport } from './recoverResults.js';
import { adoptRecords, adoptionSummary, conflictLine, type AdoptionReport, type AdoptionSource } from './adoptRecords.js';
import { RowGate, type AepMode } from './gate/rowGate.js';
import { checkCommandProgram, isCommandSettings } from '../campaign/commandOptimizer.js';

export interface RunOptions {
  /** Overrides the campaign's `workers`. */
  workers?: number;
  retryFailed?: boolean;
  progress?: ProgressReporter;
  /** Aborting it stops the run like Ctrl-C: running tasks cancelled, finished ones kept. */
  signal?: AbortSignal;
  workerExecArgv?: string[];
  /** Where tasks run (default: a local process pool of `workers` processes). */
  executor?: Executor;
  /** Results from elsewhere to verify and adopt before running (`--adopt`). */
  adopt?: AdoptionSource[];
  /** Relative AEP tolerance for adoption (default 1e-6). */
  aepTolerance?: number;
  /** Adopted records' AEPs: `verify` against wflo's (default) or `recompute` (keep theirs as aep_reported). */
  adoptAep?: AepMode;
  /** Metres adopted layouts may stray beyond the site or the spacing (`--tolerance-m`; default 1e-6). */
  adoptToleranceM?: number;
  /** Mark every adopted row stale first, so their tasks are computed (`--recompute-adopted`). */
  recomputeAdopted?: boolean;
  /**
   * Share of a remote executor's results recomputed here to prove its workers honest, besides the
   * first result of every worker (default 0.01, 0 for a command optimizer, whose program need not
   * be installed on the coordinator; 0 turns spot checks off).
   */
  recheck?: number;
  /** The gate to use (benchmarks measure it against a stand-in); default: the campaign's RowGate. */
  gate?: RowGate;
  /** Lines that must reach the user even without progress output (recovery, adoption). */
  notice?: (line: string) => void;
}

export interface RunSummary {
  outputDir: string;
  layoutsFile: string;
  stopReason: StopReason;
  /** Ledger totals over the campaign's tasks after the run. */
  total: number;
  done: number;
  failed: number;
  pending: number;
  stale: number;
  doneThisRun: number;
  failedThisRun: number;
  retries: number;
  /** Tasks this run had to do when it started (not done, not failed-and-not-retried). */
  scheduled: number;
  exported: ExportReport | null;
  exportError: string | null;
  seconds: number;
  /** Results the ledger lacked and layouts.h5 / audit.jsonl still held, committed back. */
  recovered: RecoveryReport;
  adoption: AdoptionReport | null;
}

export { RUN_LOCK_NAME } from './runLock.js';

/** Where command tasks (a user's program) keep their attempt folders, inside the output folder. */
export const COMMAND_TASKS_FOLDER = 'tasks';

/** Share of queue workers' results recomputed by the coordinator (besides each worker's first). */
export const DEFAULT_RECHECK = 0.01;

function prepareOutputDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    let e = err as NodeJS.ErrnoException;
    if (e.code === 'EEXIST' || e.code === 'ENOTDIR') throw new InputError(`output folder ${dir} is not a folder (a file is in the way)`);
    // A recursive mkdir reports ENOENT on a read-only parent; a plain one tells the real reason.
    try {
      fs.mkdirSync(dir);
    } catch (plain) {
      if ((plain as NodeJS.ErrnoException).code !== 'ENOENT') e = plain as NodeJS.ErrnoException;
    }
    throw new RuntimeFailure(`cannot create output folder ${dir} (${e.code === 'ENOSPC' ? 'disk full (ENOSPC)' : (e.code ?? e.message)})`);
  }
  if (!fs.statSync(dir).isDirectory()) throw new InputError(`output folder ${dir} is not a folder`);
  // Nothing wflo writes here may be a link out of the folder (a planted ledger.sqlite, audit.jsonl, lock).
  refuseOutputSymlinks(dir);
  // Root ignores permission bits, so probe with a real write instead of access().
  const probe = path.join(dir, `.wflo-write-probe-${process.pid}`);
  try {
    fs.writeFileSync(probe, 'x');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOSPC' ? 'disk full (ENOSPC)' : (e.code ?? e.message);
    throw new RuntimeFailure(`cannot write in output folder ${dir} (${why})`);
  } finally {
    // Also when the write failed after the file was made (a full disk): no probe is left behind.
    try {
      fs.unlinkSync(probe);
    } catch {
      /* never made */
    }
  }
}

function countsAfterInterrupt(total: number, done: number, failed: number): { total: number; done: number; failed: number; pending: number; stale: number } {
  return { total, done, failed, pending: Math.max(0, total - done - failed), stale: 0 };
}

/**
 * Sync the campaign into the ledger in steps, yielding to the event loop between them, so Ctrl-C
 * during the start of a 10^6-task run is answered at once (the sync is rolled back).
 */
async function syncInterruptibly(ledger: Ledger, c: Campaign, tasks: TaskGrid, signal: AbortSignal | undefined): Promise<SyncReport> {
  const steps = ledger.syncSteps(c, tasks);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((r) => setImmediate(r));
    if (signal?.aborted) {
      steps.return(undefined as never);
      throw new WfloError('interrupted while recording the campaign in the ledger; nothing was changed', 130);
    }
  }
}

export async function runCampaign(c: Campaign, options: RunOptions = {}): Promise<RunSummary> {
  const started = performance.now();
  if (!c.outputDir) throw new InputError(`${c.file}: output: missing (give \`output:\` in the campaign file or --out DIR)`);
  const dir = c.outputDir;
  // Tasks are made on demand from the grid: a 10^6-task campaign holds no object per task.
  const tasks = new TaskGrid(c);
  // A command optimizer's program runs here unless the tasks go to a queue's workers.
  if (!options.executor) checkCommandProgram(c);
  prepareOutputDir(dir);

  const lock = acquireRunLock(dir);
  let ledger: Ledger | null = null;
  let audit: AuditLog | null = null;
  // The one gate every row of this run passes: recovered, adopted and computed ones alike.
  const gate = options.gate ?? new RowGate(c, { aepTolerance: options.aepTolerance, adoptAep: options.adoptAep, adoptToleranceM: options.adoptToleranceM });
  try {
    ledger = Ledger.open(dir);
    const sync = await syncInterruptibly(ledger, c, tasks, options.signal);
    const lastExport = ledger.getMeta('last_export');
    const retriedFailed = options.retryFailed ? ledger.resetFailed() : 0;
    const notice = options.notice ?? ((line: string) => options.progress?.log(line));
    if (sync.adoptedKept > 0) {
      notice(
        `wflo: ${sync.adoptedKept} adopted result${sync.adoptedKept === 1 ? '' : 's'} stay${sync.adoptedKept === 1 ? 's' : ''} done: the optimizer changed, ` +
          "and adopted rows are not the optimizer's (`--recompute-adopted` computes them)",
      );
    }
    const releasedAdopted = options.recomputeAdopted ? ledger.releaseAdopted() : 0;
    if (options.recomputeAdopted)
      notice(
        `wflo: --recompute-adopted: ${releasedAdopted} adopted result${releasedAdopted === 1 ? '' : 's'} will be computed (each kept until its computed row replaces it)`,
      );
    // Never recompute what the folder still holds: a deleted or damaged ledger, a lost WAL.
    const recovered = await recoverLostResults(dir, tasks, ledger, sync.campaignHash, gate, (r) =>
      notice(`wflo: not recovered: ${r.taskId} from ${r.source}: ${r.reason} (it will be computed)`),
    );
    const nRecovered = recovered.fromLayouts + recovered.fromAudit;
    if (nRecovered > 0) {
      notice(
        `wflo: the ledger lacked ${nRecovered} finished task${nRecovered === 1 ? '' : 's'}: adopted back ` +
          `${recovered.fromLayouts} from ${LAYOUTS_FILE} and ${recovered.fromAudit} from audit.jsonl (not recomputed)`,
      );
    }
    let adoption: AdoptionReport | null = null;
    if (options.adopt && options.adopt.length > 0) {
      adoption = await adoptRecords(tasks, ledger, gate, options.adopt, {
        onReject: (r) => notice(`wflo: not adopted: ${r.taskId} from ${r.source}: ${r.reason}`),
        onConflict: (k) => notice(`wflo: conflict: ${conflictLine(k)}`),
      });
      notice(`wflo: ${adoptionSummary(adoption, { adopted: 'adopted', rejected: 'rejected' }, options.adoptAep)}`);
    }
    const states = ledger.workStates();

    const workPositions: number[] = [];
    const priorAttempts = new Map<string, { failed: number; counted: number }>();
    let alreadyDone = 0,
      alreadyFailed = 0;
    for (let p = 0; p < tasks.length; p++) {
      const id = tasks.taskId(p);
      if (states.done.has(id)) {
        alreadyDone++;
        continue;
      }
      const a = states.attempts.get(id);
      if (a?.permanent) {
        alreadyFailed++;
        continue;
      }
      workPositions.push(p);
      if (a) priorAttempts.set(id, a);
    }
    states.done.clear();
    const positions = Int32Array.from(workPositions);
    const work: TaskSource = { length: positions.length, task: (i) => tasks.task(positions[i]) };

    try {
      audit = new AuditLog(dir);
    } catch (err) {
      throw new RuntimeFailure(`cannot open the audit log in ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    const workers = Math.max(1, Math.min(options.workers ?? c.workers ?? os.availableParallelism(), Math.max(1, work.length)));
    const runId = ledger.beginRun(process.pid, os.hostname(), workers);
    const resumed = sync.done + sync.stale + sync.failed > 0 || runId > 1;
    audit.write({
      event: resumed ? 'resume' : 'run_start',
      run_id: runId,
      campaign: c.name,
      campaign_file: c.file,
      campaign_hash: sync.campaignHash,
      tasks: tasks.length,
      already_done: alreadyDone,
      to_run: work.length,
      stale: sync.stale,
      failed_skipped: alreadyFailed,
      failed_reset: retriedFailed,
      retired: sync.retired,
      adopted_kept: sync.adoptedKept,
      adopted_released: releasedAdopted,
      workers,
      executor: options.executor?.kind ?? 'local',
      only: c.only !== null,
    });
    if (resumed) {
      options.progress?.log(
        `wflo: resuming ${c.name}: ${alreadyDone} of ${tasks.length} tasks done, ${work.length} to run` +
          `${sync.stale ? ` (${sync.stale} stale)` : ''}${alreadyFailed ? `, ${alreadyFailed} failed (use --retry-failed to rerun them)` : ''}`,
      );
    }
    for (const r of recovered.rejected) audit.write({ event: 'recover_rejected', task: r.taskId, source: r.source, reason: r.reason });
    if (nRecovered > 0)
      audit.write({ event: 'recovered', from_layouts: recovered.fromLayouts, from_audit: recovered.fromAudit, rejected: recovered.rejected.length });
    if (adoption) {
      for (const r of adoption.rejected) audit.write({ event: 'adopt_rejected', task: r.taskId, source: r.source, reason: r.reason });
      for (const k of adoption.conflicts) audit.write({ event: 'conflict', task: k.taskId, kept: k.kept, dropped: k.dropped });
      for (const t of adoption.tolerated)
        audit.write({ event: 'adopt_tolerated', task: t.taskId, source: t.source, slack_m: t.slackM, tolerance_m: options.adoptToleranceM });
      audit.write({
        event: 'adopted',
        adopted: adoption.adopted,
        rejected: adoption.rejected.length,
        already_done: adoption.alreadyDone,
        duplicates: adoption.duplicates,
        conflicts: adoption.conflicts.length,
        outside_grid: adoption.outsideGrid,
        sources: options.adopt!.map((s) => s.label),
      });
    }
    audit.onError = (err) => options.progress?.log(`wflo: warning: audit log write failed (${(err as NodeJS.ErrnoException).code ?? err.message}); continuing`);

    let exportNeeded = true;
    if (nRecovered === 0 && !adoption?.adopted && lastExport && fs.existsSync(path.join(dir, LAYOUTS_FILE))) {
      const le = JSON.parse(lastExport) as { rows: number; campaign_hash: string };
      exportNeeded = le.campaign_hash !== sync.campaignHash || le.rows !== sync.done;
    }

    const taskDir = path.join(dir, COMMAND_TASKS_FOLDER);
    const executor = options.executor ?? new LocalPoolExecutor({ workers, execArgv: options.workerExecArgv, taskDir });
    // A user's program may not be installed on the coordinator's machine: rechecks only when asked.
    const recheckFraction = options.recheck ?? (isCommandSettings(c.optimizer) ? 0 : DEFAULT_RECHECK);
    const scheduler = new Scheduler({
      campaign: c,
      outputDir: dir,
      ledger,
      audit,
      runId,
      work,
      priorAttempts,
      alreadyDone,
      alreadyFailed,
      executor,
      campaignHash: sync.campaignHash,
      progress: options.progress,
      signal: options.signal,
      exportNeeded,
      gate,
      ...(executor.remote && recheckFraction > 0
        ? {
            recheck: {
              fraction: recheckFraction,
              executor: new LocalPoolExecutor({ workers: 1, execArgv: options.workerExecArgv, taskDir: path.join(taskDir, '_recheck') }),
            },
          }
        : {}),
    });
    let outcome;
    try {
      outcome = await scheduler.run();
    } catch (err) {
      ledger.endRun(runId, 'failed');
      throw err;
    }
    ledger.endRun(runId, outcome.stopReason);
    // Interrupted: the counts the run kept (counting 10^6 tasks in the ledger would cost seconds
    // the user asked not to wait); otherwise the ledger's own.
    const totals =
      outcome.stopReason === 'interrupted'
        ? countsAfterInterrupt(tasks.length, alreadyDone + outcome.doneThisRun, alreadyFailed + outcome.failedThisRun)
        : ledger.totals();
    audit.write({
      event: 'run_end',
      run_id: runId,
      stop_reason: outcome.stopReason,
      done_this_run: outcome.doneThisRun,
      failed_this_run: outcome.failedThisRun,
      ...totals,
      gate: { rows: gate.gateTime.rows, seconds: Math.round(gate.gateTime.seconds * 1e4) / 1e4, off_thread: gate.gateTime.offThread },
    });
    audit.flush();
    markAuditScanned(dir, ledger);
    ledger.checkpoint();
    return {
      outputDir: dir,
      layoutsFile: path.join(dir, LAYOUTS_FILE),
      stopReason: outcome.stopReason,
      ...totals,
      doneThisRun: outcome.doneThisRun,
      failedThisRun: outcome.failedThisRun,
      retries: outcome.retries,
      scheduled: work.length,
      exported: outcome.exported,
      exportError: outcome.exportError,
      seconds: (performance.now() - started) / 1000,
      recovered,
      adoption,
    };
  } finally {
    await gate.close();
    audit?.close();
    ledger?.close();
    lock.release();
  }
}
