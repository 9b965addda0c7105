/**
 * `wflo run CAMPAIGN --dry-run` and `wflo validate CAMPAIGN`: what a run would do, without doing
 * anything. The campaign has already passed every input check (loadCampaign); this adds the task
 * count per farm × farm type and, when the output folder has a ledger, how many of those tasks are
 * done, stale (their spec changed), failed (skipped without --retry-failed) or missing. Nothing
 * is written: the ledger is read read-only (through a hard link or copy in a temporary folder when
 * no run has it open, since SQLite would otherwise create -wal/-shm files beside it), no folder is
 * created, no lock taken. Spec hashes are compared task by task in one pass over the ledger,
 * without building the task list (10⁶ tasks in a few seconds).
 *
 * With `--adopt`, what adoption would take: every record (read by shards/adoptionSources.ts,
 * which this layer cannot import: the CLI hands the records over) passes through the same gate a
 * run uses (adoptRecords.ts into a target that keeps nothing: turbine count, site, spacing with
 * `--tolerance-m`, AEP with `--aep`), so the preview's "to adopt" is what the run adopts, and each
 * refusal is the run's line. When records fail only on their AEP, it says `--aep recompute` would
 * take them.
 */
import fs from 'node:fs';
import { TaskGrid, type Task } from '../campaign/taskGrid.js';
import { RowGate, type GateOptions } from './gate/rowGate.js';
import { adoptRecords, adoptionSummary, conflictLine, previewTarget, type AdoptionReport, type AdoptionSource } from './adoptRecords.js';
import { AUDIT_SCANNED_META, scanRecoverable } from './recoverResults.js';
import { lastExportFileStamp, lastExportStamp } from './lastExport.js';
import { LAYOUTS_FILE } from './layoutsFile.js';
import { AUDIT_FILE } from './auditLog.js';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { InputError } from '../util/errors.js';
import type { Campaign } from '../campaign/campaign.js';
import { adoptedIdentity, taskSpecHash } from '../campaign/specHash.js';
import { LEDGER_FILE } from './ledger.js';
import { runLockHolder } from './runLock.js';
import { formatSettingOwners } from '../campaign/settingsOwner.js';
import type { CaseFileOwners } from '../campaign/settingsOwnerTypes.js';

export interface DryRunGroup {
  farmId: number;
  farmLabel: string;
  farmType: number;
  typeLabel: string;
  nTurbines: number;
  tasks: number;
  done: number;
  stale: number;
  failed: number;
  missing: number;
}

/** One `--adopt` source as read: its records and the task ids among them that belong to the campaign. */
export interface AdoptPreviewInput {
  label: string;
  files: number;
  records: number;
  /** Tasks of this campaign, in the order adoption would meet them (duplicates kept). */
  taskIds: readonly string[];
  /** Lines about its files (why one yields nothing, records that cannot be used). */
  findings: readonly string[];
}

/** The `--adopt` sources of a dry run: what was read, the records themselves, and the gate's options. */
export interface AdoptDryRun {
  sources: readonly AdoptPreviewInput[];
  /** The records, as a run would adopt them (same order). */
  adoption: readonly AdoptionSource[];
  gate: Pick<GateOptions, 'aepTolerance' | 'adoptAep' | 'adoptToleranceM'>;
}

export interface AdoptPreview {
  label: string;
  files: number;
  records: number;
  /** Records that are tasks of this campaign. */
  inGrid: number;
  /** Of those, tasks already done (at their current spec): left as they are. */
  alreadyDone: number;
  /** Of those, a task an earlier record (this source or an earlier one) already offers. */
  duplicates: number;
  /** The rest that pass the gate: what a run adopts. */
  toAdopt: number;
  /** The rest that the gate refuses (their tasks would be computed). */
  rejected: number;
  /** Lines about its files, then the gate's refusals and conflicts, as the run prints them. */
  findings: readonly string[];
}

export interface DryRunReport {
  campaign: string;
  file: string;
  outputDir: string | null;
  farms: number;
  farmTypes: number;
  seeds: number;
  tasks: number;
  /** What the output folder holds: no folder, a folder without ledger, a ledger, or an unreadable one. */
  output: 'none' | 'empty' | 'ledger' | 'unreadable';
  /** Why the ledger could not be read (output = 'unreadable'). */
  ledgerProblem: string | null;
  /** Pid of a live run holding the folder, if any. */
  liveRunPid: number | null;
  done: number;
  stale: number;
  failed: number;
  missing: number;
  groups: DryRunGroup[];
  /** The `--adopt` preview (null without --adopt). */
  adopt: AdoptPreview[] | null;
  /** The line a run would end its adoption with (null without --adopt). */
  adoptSummary: string | null;
  /**
   * What the run would adopt back from the folder's own layouts.h5 and audit.jsonl first (a lost
   * ledger or WAL), each row verified by the gate as the run would (null: nothing to look at).
   */
  recovery: { fromLayouts: number; fromAudit: number; rejected: number; layoutsProblem: string | null } | null;
  /** Per farm built on a case file: who owns each setting the two share (campaign/settingsOwner.ts). */
  settings: CaseFileOwners[];
}

/** What a run would need from the ledger to scan for lost results (see previewRecovery). */
interface RecoveryInputs {
  doneIds: Set<string>;
  auditScanned: number;
  lastExportCreated: string | null;
  lastExportFile: string | null;
  campaignHash: string;
}

/** One row per task the ledger knows: id, the spec hash it was synced at, its result's spec hash, failed mark, an adopted row's identity. */
type LedgerRow = [taskId: string, specHash: string, resultHash: string | null, failed: number, adoptedFor: string | null];

interface LedgerView {
  name: string | null;
  rows: Iterable<LedgerRow>;
  /** A meta value of the ledger (null when absent). */
  meta(key: string): string | null;
}

/** Open the ledger of `dir` without writing to the folder, and hand its rows to `use`. */
function withLedger<T>(dir: string, use: (view: LedgerView) => T): T {
  const file = path.join(dir, LEDGER_FILE);
  // SQLite opens a WAL database even read-only by creating its -wal and -shm files. When both
  // exist (a run is live, or was killed) reading adds nothing; otherwise read it through a hard
  // link (or a copy) in a temporary folder, so the output folder stays byte for byte as it was.
  const live = fs.existsSync(`${file}-wal`) && fs.existsSync(`${file}-shm`);
  let copyDir: string | null = null;
  let source = file;
  if (!live) {
    copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-dry-run-'));
    source = path.join(copyDir, LEDGER_FILE);
    const wal = fs.existsSync(`${file}-wal`);
    try {
      // A hard link costs nothing and changes no byte of the folder; SQLite puts its -wal/-shm
      // beside the link. Another file system (or no link support): a copy.
      if (wal) throw new Error('copy the WAL along');
      fs.linkSync(file, source);
    } catch {
      fs.copyFileSync(file, source);
      if (wal) fs.copyFileSync(`${file}-wal`, `${source}-wal`);
    }
  }
  let db: Database.Database;
  try {
    db = new Database(source, { readonly: true, fileMustExist: true });
  } catch (err) {
    if (copyDir) fs.rmSync(copyDir, { recursive: true, force: true });
    throw err;
  }
  try {
    db.pragma('busy_timeout = 10000');
    db.exec('BEGIN');
    const name = (db.prepare("SELECT value FROM meta WHERE key = 'campaign_name'").pluck().get() as string | undefined) ?? null;
    const hasAdoptedFor = (db.prepare("SELECT name FROM pragma_table_info('results')").pluck().all() as string[]).includes('adopted_for');
    const rows = db
      .prepare(
        `SELECT t.task_id, t.spec_hash, r.spec_hash, t.failed, ${hasAdoptedFor ? 'r.adopted_for' : 'NULL'} FROM tasks t LEFT JOIN results r ON r.task_id = t.task_id`,
      )
      .raw()
      .iterate() as Iterable<LedgerRow>;
    const metaOf = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    const out = use({ name, rows, meta: (key) => (metaOf.get(key) as string | undefined) ?? null });
    db.exec('COMMIT');
    return out;
  } finally {
    db.close();
    if (copyDir) fs.rmSync(copyDir, { recursive: true, force: true });
  }
}

/** Spec hashes of a campaign's tasks without building the task list. */
function specHasher(c: Campaign): (farmIndex: number, typeIndex: number, seed: number) => string {
  return (fi, ti, seed) => taskSpecHash(c.farms[fi].hash, c.farmTypes[ti].hash, c.optimizerHash, seed);
}

export function dryRun(c: Campaign): DryRunReport {
  return dryRunWith(c, false, false).report;
}

function hasFilesToRecover(dir: string | null): boolean {
  return dir !== null && (fs.existsSync(path.join(dir, LAYOUTS_FILE)) || fs.existsSync(path.join(dir, AUDIT_FILE)));
}

function dryRunWith(
  c: Campaign,
  adopt: boolean,
  recomputeAdopted: boolean,
): { report: DryRunReport; recovery: RecoveryInputs | null; doneIds: Set<string> | null } {
  const recovery: RecoveryInputs | null = hasFilesToRecover(c.outputDir)
    ? { doneIds: new Set(), auditScanned: 0, lastExportCreated: null, lastExportFile: null, campaignHash: '' }
    : null;
  const doneIds = adopt || recovery ? (recovery?.doneIds ?? new Set<string>()) : null;
  const groups = new Map<string, DryRunGroup>();
  const onlyCount = new Map<string, number>();
  if (c.only) {
    for (const id of c.only) {
      const m = /^farm_(-?\d+)_type_(-?\d+)_seed_/.exec(id)!;
      const key = `${m[1]}/${m[2]}`;
      onlyCount.set(key, (onlyCount.get(key) ?? 0) + 1);
    }
  }
  const farms = [...c.farms].sort((a, b) => a.id - b.id),
    types = [...c.farmTypes].sort((a, b) => a.id - b.id);
  for (const f of farms) {
    for (const t of types) {
      const key = `${f.id}/${t.id}`;
      const tasks = c.only ? (onlyCount.get(key) ?? 0) : c.seeds.length;
      groups.set(key, {
        farmId: f.id,
        farmLabel: f.label,
        farmType: t.id,
        typeLabel: t.label,
        nTurbines: t.nTurbines,
        tasks,
        done: 0,
        stale: 0,
        failed: 0,
        missing: tasks,
      });
    }
  }
  const report: DryRunReport = {
    campaign: c.name,
    file: c.file,
    outputDir: c.outputDir,
    farms: c.farms.length,
    farmTypes: c.farmTypes.length,
    seeds: c.seeds.length,
    tasks: [...groups.values()].reduce((s, g) => s + g.tasks, 0),
    output: 'none',
    ledgerProblem: null,
    liveRunPid: null,
    done: 0,
    stale: 0,
    failed: 0,
    missing: 0,
    groups: [...groups.values()],
    adopt: null,
    adoptSummary: null,
    recovery: null,
    settings: c.settingOwners ?? [],
  };
  const dir = c.outputDir;
  if (dir !== null && fs.existsSync(dir)) {
    report.output = 'empty';
    if (fs.existsSync(path.join(dir, LEDGER_FILE))) {
      try {
        withLedger(dir, (view) => {
          report.output = 'ledger';
          if (view.name !== null && view.name !== c.name) {
            throw new InputError(`${dir} holds campaign '${view.name}', not '${c.name}'; use another output folder (--out)`);
          }
          if (recovery) {
            const scanned = Number(view.meta(AUDIT_SCANNED_META) ?? '0');
            recovery.auditScanned = Number.isFinite(scanned) ? scanned : 0;
            recovery.lastExportCreated = lastExportStamp({ getMeta: view.meta });
            recovery.lastExportFile = lastExportFileStamp({ getMeta: view.meta });
            recovery.campaignHash = view.meta('campaign_hash') ?? '';
          }
          const farmIndex = new Map(c.farms.map((f, i) => [f.id, i])),
            typeIndex = new Map(c.farmTypes.map((t, i) => [t.id, i]));
          const seeds = new Set(c.seeds),
            only = c.only ? new Set(c.only) : null;
          const hashOf = specHasher(c);
          for (const [taskId, syncedHash, storedHash, failed, adoptedFor] of view.rows) {
            if (storedHash === null && failed === 0) continue; // known but never finished: missing
            const m = /^farm_(-?\d+)_type_(-?\d+)_seed_(\d+)$/.exec(taskId);
            if (!m) continue;
            const fi = farmIndex.get(Number(m[1])),
              ti = typeIndex.get(Number(m[2])),
              seed = Number(m[3]);
            if (fi === undefined || ti === undefined || !seeds.has(seed) || (only && !only.has(taskId))) continue;
            const g = groups.get(`${m[1]}/${m[2]}`)!;
            const spec = hashOf(fi, ti, seed);
            // As a run's sync does: an adopted row stays done through an optimizer change
            // (ledger.ts carryAdopted), unless --recompute-adopted releases it.
            let resultHash = storedHash;
            if (adoptedFor !== null && resultHash !== null) {
              if (recomputeAdopted) resultHash = `recompute-adopted:${resultHash}`;
              else if (resultHash !== spec && adoptedFor === adoptedIdentity(c.farms[fi]!, c.farmTypes[ti]!, seed)) resultHash = spec;
            }
            if (resultHash === spec) {
              g.done++;
              g.missing--;
              doneIds?.add(taskId);
            } else if (failed === 1 && syncedHash === spec && resultHash !== spec) {
              g.failed++;
              g.missing--;
            } else if (resultHash !== null) {
              g.stale++;
              g.missing--;
            }
          }
        });
      } catch (err) {
        if (err instanceof InputError) throw err;
        report.output = 'unreadable';
        report.ledgerProblem = `${path.join(dir, LEDGER_FILE)}: ${(err as { code?: string }).code ?? ''} ${(err as Error).message}`.trim();
      }
    }
    try {
      report.liveRunPid = runLockHolder(dir)?.pid ?? null;
    } catch {
      /* an unreadable lock says nothing */
    }
  }
  for (const g of report.groups) {
    report.done += g.done;
    report.stale += g.stale;
    report.failed += g.failed;
    report.missing += g.missing;
  }
  return { report, recovery: report.output === 'unreadable' ? null : recovery, doneIds };
}

/**
 * The dry run with what the run would recover first (every row layouts.h5 and audit.jsonl hold
 * for a task the ledger lacks, verified by the gate exactly as `wflo run` would, counted, not
 * committed) and then adopt (`--adopt`: every record through the same gate, in the same order).
 */
export async function dryRunWithRecovery(c: Campaign, adopt?: AdoptDryRun, options: { recomputeAdopted?: boolean } = {}): Promise<DryRunReport> {
  const { report, recovery, doneIds } = dryRunWith(c, adopt !== undefined, options.recomputeAdopted === true);
  if (recovery && c.outputDir !== null) {
    const lacking = new Map<string, Task>();
    for (const t of new TaskGrid(c)) if (!recovery.doneIds.has(t.taskId)) lacking.set(t.taskId, t);
    if (lacking.size > 0) {
      const counts = { fromLayouts: 0, fromAudit: 0, rejected: 0, layoutsProblem: null as string | null };
      const gate = new RowGate(c, { threads: 0 });
      const recovered: string[] = [];
      const scan = await scanRecoverable(
        {
          dir: c.outputDir,
          lacking,
          campaignHash: recovery.campaignHash,
          auditScanned: recovery.auditScanned,
          lastExportCreated: recovery.lastExportCreated,
          lastExportFile: recovery.lastExportFile,
        },
        gate,
        (row, from) => {
          recovered.push(row.taskId);
          if (from === 'layouts') counts.fromLayouts++;
          else counts.fromAudit++;
        },
        () => {
          counts.rejected++;
        },
      );
      counts.layoutsProblem = scan.layoutsProblem;
      if (counts.fromLayouts + counts.fromAudit + counts.rejected > 0 || counts.layoutsProblem) report.recovery = counts;
      // A run adopts after it recovered: those tasks are done by then.
      for (const id of recovered) doneIds?.add(id);
    }
  }
  if (adopt && doneIds) {
    const gate = new RowGate(c, { ...adopt.gate, threads: 0 });
    const lines = new Map<string, string[]>();
    const say = (via: string, line: string) => lines.set(via, [...(lines.get(via) ?? []), line]);
    const adoption = await adoptRecords(new TaskGrid(c), previewTarget(doneIds), gate, adopt.adoption, {
      onReject: (r) => say(r.via, `not adopted: ${r.taskId} from ${r.source}: ${r.reason}`),
      onConflict: (k) => say(k.via, `conflict: ${conflictLine(k)}`),
    });
    report.adopt = previewAdoption(adopt.sources, adoption, lines);
    report.adoptSummary = adoptionSummary(adoption, { adopted: 'adopt', rejected: 'reject' }, adopt.gate.adoptAep);
  }
  return report;
}

/** Per source: what it holds, and what the gate made of it (its refusal and conflict lines, by the source they came through). */
function previewAdoption(sources: readonly AdoptPreviewInput[], adoption: AdoptionReport, gateLines: ReadonlyMap<string, string[]>): AdoptPreview[] {
  return sources.map((s) => {
    const counts = adoption.perSource.get(s.label) ?? { records: 0, adopted: 0, rejected: 0, alreadyDone: 0, repeated: 0 };
    return {
      label: s.label,
      files: s.files,
      records: s.records,
      inGrid: s.taskIds.length,
      alreadyDone: counts.alreadyDone,
      duplicates: counts.repeated,
      toAdopt: counts.adopted,
      rejected: counts.rejected,
      findings: [...s.findings, ...(gateLines.get(s.label) ?? [])],
    };
  });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The report as text (what `--dry-run` prints). */
export function formatDryRun(r: DryRunReport): string {
  const lines: string[] = [];
  lines.push(`campaign ${r.campaign} (${r.file}): valid`);
  lines.push(
    `${r.tasks} tasks: ${r.farms} farms × ${r.farmTypes} farm types × ${r.seeds} seeds${r.tasks !== r.farms * r.farmTypes * r.seeds ? ' (restricted by only:)' : ''}`,
  );
  const where = r.outputDir ?? '(no output folder: give `output:` or --out)';
  const state =
    r.output === 'none'
      ? 'does not exist yet: every task would run'
      : r.output === 'empty'
        ? 'has no ledger: every task would run'
        : r.output === 'unreadable'
          ? `has a ledger that cannot be read (${r.ledgerProblem})`
          : `${r.done} done, ${r.stale} stale, ${r.failed} failed, ${r.missing} missing`;
  lines.push(`output ${where} ${state}`);
  if (r.liveRunPid !== null) lines.push(`a run is live in it (pid ${r.liveRunPid}): a second run would be refused`);
  lines.push('');
  const header = ['farm', 'type', 'turbines', 'tasks', 'done', 'stale', 'failed', 'missing', 'farm label', 'type label'];
  const rows = r.groups.map((g) => [g.farmId, g.farmType, g.nTurbines, g.tasks, g.done, g.stale, g.failed, g.missing, g.farmLabel, g.typeLabel].map(String));
  const shown = rows.length > 200 ? rows.slice(0, 200) : rows;
  const widths = header.map((h, i) => Math.max(h.length, ...shown.map((row) => row[i].length)));
  const fmt = (row: string[]): string => row.map((v, i) => (i >= 8 ? v : v.padStart(widths[i]))).join('  ');
  lines.push(fmt(header));
  for (const row of shown) lines.push(fmt(row));
  if (rows.length > shown.length) lines.push(`… ${rows.length - shown.length} more farm × type rows (--json lists all)`);
  lines.push('');
  if (r.settings.length > 0) lines.push(...formatSettingOwners(r.settings), '');
  const toRun = (r.output === 'ledger' ? r.missing + r.stale : r.tasks) - (r.recovery ? r.recovery.fromLayouts + r.recovery.fromAudit : 0);
  if (r.recovery) {
    const back = r.recovery.fromLayouts + r.recovery.fromAudit;
    lines.push(
      `the ledger lacks ${plural(back, 'finished task')} the folder still holds: a run would adopt back ${r.recovery.fromLayouts} from layouts.h5 and ` +
        `${r.recovery.fromAudit} from audit.jsonl (verified, not recomputed)${r.recovery.rejected ? `; ${r.recovery.rejected} rows there fail verification and would be computed` : ''}` +
        `${r.recovery.layoutsProblem ? `; layouts.h5 cannot be read (${r.recovery.layoutsProblem})` : ''}`,
    );
    lines.push('');
  }
  let adoptable = 0;
  if (r.adopt) {
    lines.push('--adopt (every record passes the gate the run applies: turbine count, site, spacing, AEP):');
    for (const a of r.adopt) {
      adoptable += a.toAdopt;
      lines.push(
        `  ${a.label}: ${plural(a.records, 'record')}${a.files === 1 ? '' : ` in ${a.files} files`}, ${a.inGrid} of them tasks of this campaign: ` +
          `${a.toAdopt} to adopt, ${a.rejected} rejected, ${a.alreadyDone} already done, ${a.duplicates} repeated`,
      );
      for (const line of a.findings) lines.push(`    ${line}`);
    }
    if (r.adoptSummary) lines.push(`a run would ${r.adoptSummary}`);
    lines.push('');
  }
  const compute =
    adoptable > 0 ? `adopt ${plural(adoptable, 'result')} and compute the other ${Math.max(0, toRun - adoptable)} of ${toRun} tasks` : `compute ${toRun} tasks`;
  lines.push(
    `a run would ${compute}${r.stale ? ` (${r.stale} stale)` : ''}${r.failed ? `, skip ${r.failed} failed (--retry-failed reruns them)` : ''}; dry run: nothing written`,
  );
  return lines.join('\n');
}
