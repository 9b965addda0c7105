/**
 * Adoption: results computed elsewhere (a rescued merge of worker shards, another wflo output,
 * a folder of shards, a researcher's own HDF5 file) become done tasks of this campaign only
 * through the gate (gate/rowGate.ts), like every other row: the farm type's turbine count, finite
 * coordinates inside the boundary and outside exclusion zones, spacing respected, and the AEP
 * recomputed with the campaign's model. With `aep: verify` (the default) the record's AEP must
 * agree within the tolerance; with `aep: recompute` a record whose AEP came from another model is
 * kept, wflo's AEP stored as `aep` and the record's as `aep_reported`. A record that fails is
 * reported (task, source, reason) and its task stays missing, so the run computes it. Records of
 * tasks outside the grid are counted and ignored.
 *
 * Conflicts are findings: when two sources hold different results for one task (two adopt files,
 * or an adopt file and the ledger), both are named with their AEPs. The rule: the ledger's row
 * stays, and among adopt sources the first one given (command-line order, then file order) wins;
 * the loser goes to the audit log.
 *
 * Adopted rows carry source `adopted:<file>`, the file the record came from: a worker file of an
 * adopted folder, or the worker file a merged rescue file names for the row (shards/rowSource.ts);
 * everything else the file gave (initial layout and AEP, iterations, evaluations, wall time,
 * attempts, a reported AEP) is kept, what it did not give is stored as unknown (NaN / -1).
 */
import type { Task } from '../campaign/taskGrid.js';
import { formatMwh } from '../campaign/verifyRecord.js';
import { formatMetres } from '../geometry/feasibility.js';
import { taskIdOf, type LayoutRecord } from '../io/layoutRecord.js';
import type { Ledger } from './ledger.js';
import type { RowGate, VerifiedRow } from './gate/rowGate.js';
import { differenceText, layoutsApartM } from './resultDifference.js';

export interface AdoptionSource {
  /** The path the user gave; a record without its own `adopted:<file>` source is stamped `adopted:<label>`. */
  label: string;
  records: AsyncIterable<LayoutRecord[]> | Iterable<LayoutRecord[]>;
}

export interface AdoptionRejection {
  taskId: string;
  /** The file the record came from. */
  source: string;
  reason: string;
  /** The `--adopt` path (source label) it was read through. */
  via: string;
}

/** Two sources with different results for one task; `kept` won by the documented rule. */
export interface AdoptionConflict {
  taskId: string;
  kept: { source: string; aep: number };
  dropped: { source: string; aep: number };
  /** Largest distance between a turbine of one layout and the same turbine of the other, m (NaN: other turbine counts). */
  apartM?: number;
  /** The `--adopt` path (source label) the dropped record was read through. */
  via: string;
}

export interface AdoptionReport {
  adopted: number;
  /** Records for tasks that were already done (left as they were). */
  alreadyDone: number;
  /** Records of tasks this campaign does not have. */
  outsideGrid: number;
  /** A later record for a task already adopted in this pass, with the same result. */
  duplicates: number;
  rejected: AdoptionRejection[];
  /** Of the rejected, those refused only for their AEP (the layout passed): `--aep recompute` would adopt them. */
  rejectedForAep: number;
  /** Adopted records whose layout strays beyond the optimizer's own tolerance, within `--tolerance-m`. */
  tolerated: { taskId: string; source: string; slackM: number }[];
  conflicts: AdoptionConflict[];
  /** Per source label: records read and what became of those that are tasks of the campaign. */
  perSource: Map<string, SourceCounts>;
}

export interface SourceCounts {
  records: number;
  adopted: number;
  rejected: number;
  alreadyDone: number;
  /** A task an earlier record (this source or an earlier one) already offered: a duplicate or a conflict. */
  repeated: number;
}

export interface AdoptOptions {
  /** Called once per rejected record, as it happens. */
  onReject?: (r: AdoptionRejection) => void;
  /** Called once per conflict, as it happens. */
  onConflict?: (c: AdoptionConflict) => void;
}

/**
 * Where adopted rows go: the ledger of a run, or nowhere (`--dry-run`, which passes every record
 * through the same gate and counts what a run would adopt).
 */
export interface AdoptionTarget {
  /** Tasks done at their current spec (their records are left as they are). */
  readonly done: ReadonlySet<string>;
  /** The stored result of a task, to tell a repeat from a conflict (null: none, or not known). */
  resultOf(taskId: string): { aep: number; aepReported: number | null; x: Float64Array; y: Float64Array; source: string } | null;
  commit(rows: VerifiedRow[]): void;
}

export function ledgerTarget(ledger: Ledger): AdoptionTarget {
  return { done: ledger.workStates().done, resultOf: (id) => ledger.resultOf(id), commit: (rows) => ledger.commitResults(rows, 0) };
}

/** A target that keeps nothing: what `--dry-run` adopts into (`done`: the tasks the ledger has done). */
export function previewTarget(done: ReadonlySet<string>): AdoptionTarget {
  return { done, resultOf: () => null, commit: () => {} };
}

const COMMIT_BATCH = 256;
const ADOPTED = 'adopted:';

function sameLayout(a: { x: ArrayLike<number>; y: ArrayLike<number> }, b: { x: ArrayLike<number>; y: ArrayLike<number> }): boolean {
  if (a.x.length !== b.x.length || a.y.length !== b.y.length) return false;
  for (let i = 0; i < a.x.length; i++) if (!Object.is(a.x[i], b.x[i]) || !Object.is(a.y[i], b.y[i])) return false;
  return true;
}

export async function adoptRecords(
  tasks: Iterable<Task>,
  into: Ledger | AdoptionTarget,
  gate: RowGate,
  sources: readonly AdoptionSource[],
  options: AdoptOptions = {},
): Promise<AdoptionReport> {
  const target = 'commitResults' in into ? ledgerTarget(into) : into;
  const report: AdoptionReport = {
    adopted: 0,
    alreadyDone: 0,
    outsideGrid: 0,
    duplicates: 0,
    rejected: [],
    rejectedForAep: 0,
    tolerated: [],
    conflicts: [],
    perSource: new Map(),
  };
  const byId = new Map<string, Task>();
  for (const t of tasks) byId.set(t.taskId, t);
  const done = target.done;
  /** What this pass adopted, to tell a duplicate from a conflict. */
  const adoptedNow = new Map<string, { source: string; aep: number; x: Float64Array; y: Float64Array }>();
  const pending: VerifiedRow[] = [];
  const flush = (): void => {
    if (pending.length > 0) target.commit(pending.splice(0));
  };
  const reject = (r: AdoptionRejection): void => {
    report.rejected.push(r);
    options.onReject?.(r);
  };
  const conflict = (c: AdoptionConflict): void => {
    report.conflicts.push(c);
    options.onConflict?.(c);
  };

  for (const source of sources) {
    const counts: SourceCounts = { records: 0, adopted: 0, rejected: 0, alreadyDone: 0, repeated: 0 };
    report.perSource.set(source.label, counts);
    for await (const batch of source.records) {
      for (const r of batch) {
        counts.records++;
        const taskId = taskIdOf(r.farmId, r.farmType, r.seed);
        const task = byId.get(taskId);
        if (!task) {
          report.outsideGrid++;
          continue;
        }
        // The file the record came from (a folder's worker file, or the one a merged file names).
        const label = r.source?.startsWith(ADOPTED) ? r.source : `${ADOPTED}${source.label}`;
        const file = label.slice(ADOPTED.length);
        const earlier = adoptedNow.get(taskId);
        if (earlier) {
          counts.repeated++;
          if (sameLayout(earlier, r) && Object.is(earlier.aep, r.aep)) report.duplicates++;
          else
            conflict({
              taskId,
              kept: { source: earlier.source, aep: earlier.aep },
              dropped: { source: label, aep: r.aep },
              apartM: layoutsApartM(earlier, r),
              via: source.label,
            });
          continue;
        }
        if (done.has(taskId)) {
          report.alreadyDone++;
          counts.alreadyDone++;
          const held = target.resultOf(taskId);
          if (held && !(sameLayout(held, r) && (Object.is(held.aep, r.aep) || Object.is(held.aepReported ?? NaN, r.aep)))) {
            conflict({
              taskId,
              kept: { source: `ledger (${held.source})`, aep: held.aep },
              dropped: { source: label, aep: r.aep },
              apartM: layoutsApartM(held, r),
              via: source.label,
            });
          }
          continue;
        }
        const verdict = gate.checkNow(
          task,
          { ...r, taskId, specHash: task.specHash, aepInitial: Number.isFinite(r.aepInitial) ? r.aepInitial : NaN },
          { kind: 'adopted', file },
        );
        if (!verdict.ok) {
          if (verdict.failed === 'aep') report.rejectedForAep++;
          counts.rejected++;
          reject({ taskId, source: file, reason: verdict.reason, via: source.label });
          continue;
        }
        if (verdict.slackM !== undefined) report.tolerated.push({ taskId, source: file, slackM: verdict.slackM });
        adoptedNow.set(taskId, { source: label, aep: r.aep, x: r.x, y: r.y });
        pending.push(verdict.row);
        report.adopted++;
        counts.adopted++;
        if (pending.length >= COMMIT_BATCH) flush();
      }
    }
  }
  flush();
  return report;
}

/**
 * The line a run (and a dry run) ends its adoption with: counts, and what would take more of
 * the records: `--aep recompute` when records failed only on their AEP.
 */
export function adoptionSummary(a: AdoptionReport, verb: { adopted: string; rejected: string }, aepMode: 'verify' | 'recompute' = 'verify'): string {
  const parts = [`${verb.adopted} ${a.adopted} result${a.adopted === 1 ? '' : 's'}`];
  if (a.tolerated.length) {
    const most = Math.max(...a.tolerated.map((t) => t.slackM));
    parts[0] += ` (${a.tolerated.length} of them up to ${formatMetres(most)} m off the site or spacing, within --tolerance-m)`;
  }
  if (a.rejected.length) parts.push(`${verb.rejected} ${a.rejected.length} (they will be computed)`);
  if (a.alreadyDone) parts.push(`${a.alreadyDone} already done`);
  if (a.duplicates) parts.push(`${a.duplicates} duplicates ignored`);
  if (a.conflicts.length) parts.push(`${a.conflicts.length} conflicting (first kept)`);
  if (a.outsideGrid) parts.push(`${a.outsideGrid} outside this campaign's grid ignored`);
  let line = parts.join(', ');
  if (a.rejectedForAep > 0 && aepMode === 'verify') {
    line +=
      `; ${a.rejectedForAep} of the rejected failed only on their AEP (computed with another model?): ` +
      "with --aep recompute they would be adopted, wflo's AEP stored as /aep and theirs kept as /aep_reported";
  }
  return line;
}

/** One line for a conflict (the CLI and the audit log say the same). */
export function conflictLine(c: AdoptionConflict): string {
  return (
    `${c.taskId}: ${c.kept.source} has AEP ${formatMwh(c.kept.aep)} MWh, ${c.dropped.source} has ${formatMwh(c.dropped.aep)} MWh with another result ` +
    `(${differenceText(c.kept.aep, c.dropped.aep, c.apartM)}); kept ${c.kept.source}`
  );
}
