/**
 * `wflo collect`: one campaign output from the outputs of its shards (`wflo run --shard I/N`,
 * e.g. the array tasks of `wflo slurm`). The result is an ordinary campaign output folder: a
 * ledger synced with the whole campaign, holding every shard result whose spec hash is the
 * task's current spec hash, imported after it passed the gate (gate/rowGate.ts: the task is in the
 * campaign, turbine count, inside the site, spacing, and the AEP recomputed with the campaign's
 * model to 1e-12; a shard's ledger is a file anyone could have edited), with source
 * `shard:<folder>`, failures recorded, and `layouts.h5` exported from it; `wflo status`,
 * `wflo missing -o` and `wflo run` (resume) work on it as on any run's output.
 *
 * Trust rules. Shard ledgers are opened read-only in one read snapshot each, so collecting
 * while shards still run is safe and sees what they committed so far. A folder that is missing,
 * has no ledger, has a damaged ledger or belongs to another campaign is reported in one line and
 * contributes nothing. A shard's rows go in with one transaction: a shard whose ledger turns out
 * damaged halfway contributes nothing either. Rows computed for another spec (the campaign
 * changed since) are counted as stale and not imported: the task runs again. A row the gate
 * rejects is one line (task, folder, reason) in the report and the audit log, and its task stays
 * not done. Importing is idempotent (the ledger skips a task already committed with the same spec
 * hash), so collecting twice, or again after more shards finished, only adds what is new.
 *
 * Conflicts are findings: two shards (or a shard and the collected ledger) with different results
 * for one task are reported with both AEPs. The rule: the row already in the collected ledger
 * stays, so among shards the first folder in `--from` order wins; the other goes to the audit log.
 */
import fs from 'node:fs';
import { refuseOutputSymlinks } from '../outputEntries.js';
import os from 'node:os';
import path from 'node:path';
import { InputError, RuntimeFailure, WfloError } from '../../util/errors.js';
import type { Campaign } from '../../campaign/campaign.js';
import { expandTasks, type Task } from '../../campaign/taskGrid.js';
import { parseTaskId } from '../../io/layoutRecord.js';
import { acquireRunLock } from '../runLock.js';
import { Ledger, type CommittedResult } from '../ledger.js';
import { RowGate, type VerifiedRow } from '../gate/rowGate.js';
import { formatMwh } from '../../campaign/verifyRecord.js';
import { differenceText, layoutsApartM } from '../resultDifference.js';
import { AuditLog } from '../auditLog.js';
import { exportLedger, LAYOUTS_FILE, type ExportReport } from '../exporter.js';
import type { MissingTask } from '../missingTasks.js';
import { campaignGridHash, tasksHash } from '../slurm/shardRun.js';
import { selectFolders } from './folderGlob.js';
import { ShardLedger, type ShardProblemKind } from './shardLedger.js';

const COMMIT_BATCH = 500;

export interface CollectOptions {
  /** Folders or quoted patterns (`out/shard-*`). */
  from: readonly string[];
  /** The collected output folder. */
  outDir: string;
  /** Skip writing layouts.h5 (the ledger is still complete). */
  noExport?: boolean;
  /**
   * Rows computed for another spec hash are not imported by default (their tasks run again). With
   * this, each is verified like an adopted record (campaign/verifyRecord.ts: turbine count, inside
   * the site, spacing, AEP recomputed within `aepTolerance`) and imported as `adopted:<folder>`
   * when it passes.
   */
  adoptStale?: { aepTolerance: number };
}

export interface FolderReport {
  dir: string;
  shard: string | null;
  /** null: the folder was read; else why it contributed nothing. */
  problem: { kind: ShardProblemKind; message: string } | null;
  /** Result rows in the shard's ledger. */
  rows: number;
  /** Rows newly written to the collected ledger / already there with the same spec hash. */
  imported: number;
  alreadyThere: number;
  /** Rows computed for another spec hash than the task's current one (not imported, unless adopted). */
  stale: number;
  /** Of those, with adoptStale: verified and imported / failing verification (first reasons kept). */
  adopted: number;
  rejected: number;
  rejections: { taskId: string; reason: string }[];
  /** Rows for tasks this campaign does not have (not imported). */
  foreign: number;
  /** Rows whose task already had another result (in the collected ledger or an earlier shard). */
  conflicts: { taskId: string; keptAep: number; droppedAep: number; keptSource: string; apartM?: number }[];
  /** Failed tasks (current spec, no result anywhere) recorded from this shard. */
  failed: number;
}

export interface CollectReport {
  campaign: string;
  outDir: string;
  folders: FolderReport[];
  /** One line each, for every folder or pattern that contributed nothing. */
  problems: string[];
  /** Shard indices of N that no folder held (when the shards say what N is). */
  shardsWithoutFolder: { n: number; missing: number[] } | null;
  total: number;
  done: number;
  failed: number;
  missing: MissingTask[];
  /** The export written by this collect; null when it was skipped (--no-export, or nothing changed since the last one). */
  exported: ExportReport | null;
  /** The collected layouts.h5 (null with --no-export). */
  layoutsFile: string | null;
  seconds: number;
}

/** Whether two results of a task are the same (layout bits and AEP). */
function sameResult(a: { aep: number; x: Float64Array; y: Float64Array }, b: { aep: number; x: Float64Array; y: Float64Array }): boolean {
  if (!Object.is(a.aep, b.aep) || a.x.length !== b.x.length || a.y.length !== b.y.length) return false;
  for (let i = 0; i < a.x.length; i++) if (!Object.is(a.x[i], b.x[i]) || !Object.is(a.y[i], b.y[i])) return false;
  return true;
}

/** One line for a collect conflict. */
export function collectConflictLine(dir: string, k: FolderReport['conflicts'][number]): string {
  return (
    `${k.taskId}: already collected with AEP ${formatMwh(k.keptAep)} MWh (${k.keptSource}), ${dir} has ${formatMwh(k.droppedAep)} MWh with another result ` +
    `(${differenceText(k.keptAep, k.droppedAep, k.apartM)}); kept the first`
  );
}

function checkRow(r: CommittedResult, task: Task): string | null {
  const id = parseTaskId(r.taskId);
  if (!id || id.farmId !== r.farmId || id.farmType !== r.farmType || id.seed !== r.seed)
    return `row ${r.taskId} has farm/type/seed ${r.farmId}/${r.farmType}/${r.seed}`;
  if (task.farmId !== r.farmId || task.farmType !== r.farmType) return `row ${r.taskId} does not match its task`;
  const n = r.nTurbines;
  if (!(Number.isInteger(n) && n >= 1)) return `row ${r.taskId} has n_turbines ${String(n)}`;
  const sizes = [
    ['x', r.x.length],
    ['y', r.y.length],
    ['x_initial', r.xInitial.length],
    ['y_initial', r.yInitial.length],
  ] as const;
  const off = sizes.filter(([, len]) => len !== n);
  if (off.length > 0) return `row ${r.taskId} has n_turbines ${n} but ${off.map(([name, len]) => `${len} ${name}`).join(', ')} values`;
  return null;
}

class DamagedRow extends Error {}

export async function collectShards(c: Campaign, options: CollectOptions): Promise<CollectReport> {
  const started = performance.now();
  const outDir = path.resolve(options.outDir);
  const tasks = expandTasks(c);
  const taskById = new Map(tasks.map((t) => [t.taskId, t]));
  const gridHash = c.only === null ? tasksHash(tasks) : campaignGridHash(c);
  // Every row passes the gate; stale rows only with --adopt-stale, as adopted records.
  const gate = new RowGate(c, { threads: 0, ...(options.adoptStale ? { aepTolerance: options.adoptStale.aepTolerance } : {}) });

  const selection = selectFolders(options.from);
  const problems = selection.problems.map((p) => `${p.source}: ${p.message}`);
  // The collected folder may hold the shard folders (the default layout); never read it as a shard.
  const folders = selection.folders.filter((d) => path.resolve(d) !== outDir);
  if (folders.length === 0 && problems.length === 0) throw new InputError(`--from: no shard folders given`);

  try {
    fs.mkdirSync(outDir, { recursive: true });
  } catch (err) {
    throw new RuntimeFailure(`cannot create output folder ${outDir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  refuseOutputSymlinks(outDir); // its ledger, lock and layouts.h5 are never links out of it
  // The folder's run lock: a collect and a `wflo run` never write one ledger together.
  const lock = acquireRunLock(outDir);
  const reports: FolderReport[] = [];
  const shardNs = new Map<number, Set<number>>();
  let ledger: Ledger | null = null;
  let audit: AuditLog | null = null;
  try {
    ledger = Ledger.open(outDir);
    ledger.syncCampaign(c, tasks);
    const runId = ledger.beginRun(process.pid, os.hostname(), 0);
    audit = new AuditLog(outDir);
    const final = ledger;
    // The collected ledger's done tasks, kept up to date as shards are imported.
    const done = final.doneTaskIds();

    const importFolder = (dir: string): void => {
      const report: FolderReport = {
        dir,
        shard: null,
        problem: null,
        rows: 0,
        imported: 0,
        alreadyThere: 0,
        stale: 0,
        adopted: 0,
        rejected: 0,
        rejections: [],
        foreign: 0,
        failed: 0,
        conflicts: [],
      };
      reports.push(report);
      const opened = ShardLedger.open(dir, c, gridHash);
      if (!(opened instanceof ShardLedger)) {
        report.problem = { kind: opened.kind, message: opened.message };
        problems.push(`${dir}: ${opened.message}; nothing imported`);
        return;
      }
      const shard = opened;
      report.shard = shard.shard;
      const m = shard.shard ? /^(\d+)\/(\d+)$/.exec(shard.shard) : null;
      if (m) {
        const n = Number(m[2]);
        if (!shardNs.has(n)) shardNs.set(n, new Set());
        shardNs.get(n)!.add(Number(m[1]));
      }
      try {
        const added: string[] = [];
        // Read, check and write the whole shard in one transaction of the collected ledger.
        const importShard = final.transaction(() => {
          const counts = {
            rows: 0,
            imported: 0,
            alreadyThere: 0,
            stale: 0,
            adopted: 0,
            rejected: 0,
            rejections: [] as FolderReport['rejections'],
            foreign: 0,
            conflicts: [] as FolderReport['conflicts'],
          };
          let batch: VerifiedRow[] = [];
          const flush = (): void => {
            counts.imported += final.commitResults(batch, runId).length;
            batch = [];
          };
          const wanted = (taskId: string, specHash: string): boolean => {
            counts.rows++;
            const task = taskById.get(taskId);
            if (!task) {
              counts.foreign++;
              return false;
            }
            if (specHash !== task.specHash) {
              counts.stale++;
              return options.adoptStale !== undefined && !done.has(taskId); // decoded only to be verified
            }
            // Rows for tasks already collected are decoded too: a different result is a conflict.
            return true;
          };
          const reject = (taskId: string, reason: string): void => {
            counts.rejected++;
            if (counts.rejections.length < 20) counts.rejections.push({ taskId, reason });
            audit!.write({ event: 'collect_rejected', task: taskId, source: `shard:${dir}`, reason });
          };
          for (const r of shard.results(wanted)) {
            const task = taskById.get(r.taskId)!;
            const problem = checkRow(r, task);
            if (problem) throw new DamagedRow(problem);
            if (done.has(r.taskId)) {
              const held = final.resultOf(r.taskId);
              if (held && held.specHash === task.specHash && r.specHash === task.specHash && !sameResult(held, r)) {
                const conflict = { taskId: r.taskId, keptAep: held.aep, droppedAep: r.aep, keptSource: held.source, apartM: layoutsApartM(held, r) };
                if (counts.conflicts.length < 20) counts.conflicts.push(conflict);
                audit!.write({
                  event: 'conflict',
                  task: r.taskId,
                  kept: { source: held.source, aep: held.aep },
                  dropped: { source: `shard:${dir}`, aep: r.aep },
                });
              } else {
                counts.alreadyThere++;
              }
              continue;
            }
            const stale = r.specHash !== task.specHash;
            const verdict = stale
              ? gate.checkNow(task, { ...r, specHash: task.specHash }, { kind: 'adopted', file: dir })
              : gate.checkNow(task, r, { kind: 'shard', folder: dir });
            if (!verdict.ok) {
              reject(r.taskId, verdict.reason);
              continue;
            }
            if (stale) counts.adopted++;
            batch.push(verdict.row);
            added.push(r.taskId);
            if (batch.length === COMMIT_BATCH) flush();
          }
          flush();
          // Failures: tasks this shard gave up on at the current spec, that no shard has done.
          const doneNow = new Set(added);
          let failed = 0;
          for (const t of shard.tasks()) {
            if (!t.failed) continue;
            const task = taskById.get(t.taskId);
            if (!task || task.specHash !== t.specHash || done.has(t.taskId) || doneNow.has(t.taskId)) continue;
            final.recordFailure(t.taskId, t.attempts, t.lastError, true);
            failed++;
          }
          return { ...counts, failed };
        });
        Object.assign(report, importShard());
        for (const id of added) done.add(id);
      } catch (err) {
        if (err instanceof WfloError) throw err; // the collected ledger failed (disk full, …): stop, with its own message
        const reason = err instanceof DamagedRow ? err.message : `${(err as { code?: string }).code ?? 'error'}: ${(err as Error).message}`;
        Object.assign(report, { imported: 0, alreadyThere: 0, stale: 0, adopted: 0, rejected: 0, rejections: [], foreign: 0, failed: 0, conflicts: [] });
        report.problem = { kind: 'damaged', message: `damaged ledger (${reason})` };
        problems.push(`${dir}: damaged ledger (${reason}); nothing imported`);
      } finally {
        shard.close();
      }
    };
    // One write transaction for the whole collect (one fsync, not one per shard); each shard is a
    // savepoint inside it, rolled back alone when that shard turns out damaged.
    final.transaction(() => {
      for (const dir of folders) importFolder(dir);
    })();

    let shardsWithoutFolder: CollectReport['shardsWithoutFolder'] = null;
    if (shardNs.size > 0) {
      const n = Math.max(...shardNs.keys());
      const seen = shardNs.get(n)!;
      const missingShards: number[] = [];
      for (let i = 0; i < n; i++) if (!seen.has(i)) missingShards.push(i);
      shardsWithoutFolder = { n, missing: missingShards };
      if (missingShards.length > 0) {
        problems.push(`shard${missingShards.length > 1 ? 's' : ''} ${missingShards.join(', ')} of ${n}: no readable folder among --from`);
      }
    }

    const totals = ledger.totals();
    const missing = ledger.notDone();
    const campaignHash = ledger.getMeta('campaign_hash') ?? '';
    ledger.endRun(runId, 'collected');
    audit.write({
      event: 'collect',
      run_id: runId,
      campaign: c.name,
      from: options.from,
      folders: reports.length,
      imported: reports.reduce((s, r) => s + r.imported, 0),
      problems,
      ...totals,
    });
    ledger.checkpoint();
    // layouts.h5 depends only on the done rows and the campaign hash: skip an export that would
    // rewrite the file the last export of this ledger wrote with the same content.
    const last = JSON.parse(ledger.getMeta('last_export') ?? 'null') as { rows?: number; campaign_hash?: string } | null;
    const layoutsFile = path.join(outDir, LAYOUTS_FILE);
    const unchanged = last?.rows === totals.done && last?.campaign_hash === campaignHash && fs.existsSync(layoutsFile);
    let exported: ExportReport | null = null;
    if (!options.noExport && !unchanged) {
      exported = await exportLedger(outDir, undefined, { source: 'wflo collect' });
      const created = (exported as { created?: string }).created;
      ledger.setMeta('last_export', JSON.stringify({ rows: exported.rows, campaign_hash: exported.campaignHash, created, at: new Date().toISOString() }));
      audit.write({ event: 'export', run_id: runId, rows: exported.rows, seconds: exported.seconds, file: exported.file });
    }
    return {
      campaign: c.name,
      outDir,
      folders: reports,
      problems,
      shardsWithoutFolder,
      total: totals.total,
      done: totals.done,
      failed: totals.failed,
      missing,
      exported,
      layoutsFile: options.noExport ? null : layoutsFile,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    audit?.close();
    ledger?.close();
    lock.release();
  }
}
