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
 * Adopted rows carry source `adopted:<file>`; what they do not carry (initial layout, iterations,
 * wall time) is stored as unknown (NaN / -1).
 */
import type { Task } from '../campaign/taskGrid.js';
import { formatMwh } from '../campaign/verifyRecord.js';
import { taskIdOf, type LayoutRecord } from '../io/layoutRecord.js';
import type { Ledger } from './ledger.js';
import type { RowGate, VerifiedRow } from './gate/rowGate.js';
import { differenceText, layoutsApartM } from './resultDifference.js';

export interface AdoptionSource {
  /** What the rows came from (a file path), stamped into the source column. */
  label: string;
  records: AsyncIterable<LayoutRecord[]> | Iterable<LayoutRecord[]>;
}

export interface AdoptionRejection {
  taskId: string;
  source: string;
  reason: string;
}

/** Two sources with different results for one task; `kept` won by the documented rule. */
export interface AdoptionConflict {
  taskId: string;
  kept: { source: string; aep: number };
  dropped: { source: string; aep: number };
  /** Largest distance between a turbine of one layout and the same turbine of the other, m (NaN: other turbine counts). */
  apartM?: number;
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
  conflicts: AdoptionConflict[];
  /** Records read per source label (a source that yields nothing is worth a line). */
  perSource: Map<string, { records: number; adopted: number }>;
}

export interface AdoptOptions {
  /** Called once per rejected record, as it happens. */
  onReject?: (r: AdoptionRejection) => void;
  /** Called once per conflict, as it happens. */
  onConflict?: (c: AdoptionConflict) => void;
}

const COMMIT_BATCH = 256;

function sameLayout(a: { x: ArrayLike<number>; y: ArrayLike<number> }, b: { x: ArrayLike<number>; y: ArrayLike<number> }): boolean {
  if (a.x.length !== b.x.length || a.y.length !== b.y.length) return false;
  for (let i = 0; i < a.x.length; i++) if (!Object.is(a.x[i], b.x[i]) || !Object.is(a.y[i], b.y[i])) return false;
  return true;
}

export async function adoptRecords(tasks: Iterable<Task>, ledger: Ledger, gate: RowGate, sources: readonly AdoptionSource[], options: AdoptOptions = {}): Promise<AdoptionReport> {
  const report: AdoptionReport = { adopted: 0, alreadyDone: 0, outsideGrid: 0, duplicates: 0, rejected: [], conflicts: [], perSource: new Map() };
  const byId = new Map<string, Task>();
  for (const t of tasks) byId.set(t.taskId, t);
  const done = ledger.workStates().done;
  /** What this pass adopted, to tell a duplicate from a conflict. */
  const adoptedNow = new Map<string, { source: string; aep: number; x: Float64Array; y: Float64Array }>();
  const pending: VerifiedRow[] = [];
  const flush = (): void => {
    if (pending.length > 0) ledger.commitResults(pending.splice(0), 0);
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
    const counts = { records: 0, adopted: 0 };
    report.perSource.set(source.label, counts);
    for await (const batch of source.records) {
      for (const r of batch) {
        counts.records++;
        const taskId = taskIdOf(r.farmId, r.farmType, r.seed);
        const task = byId.get(taskId);
        if (!task) { report.outsideGrid++; continue; }
        const label = `adopted:${source.label}`;
        const earlier = adoptedNow.get(taskId);
        if (earlier) {
          if (sameLayout(earlier, r) && Object.is(earlier.aep, r.aep)) report.duplicates++;
          else conflict({ taskId, kept: { source: earlier.source, aep: earlier.aep }, dropped: { source: label, aep: r.aep }, apartM: layoutsApartM(earlier, r) });
          continue;
        }
        if (done.has(taskId)) {
          report.alreadyDone++;
          const held = ledger.resultOf(taskId);
          if (held && !(sameLayout(held, r) && (Object.is(held.aep, r.aep) || Object.is(held.aepReported ?? NaN, r.aep)))) {
            conflict({ taskId, kept: { source: `ledger (${held.source})`, aep: held.aep }, dropped: { source: label, aep: r.aep }, apartM: layoutsApartM(held, r) });
          }
          continue;
        }
        const verdict = gate.checkNow(task, { ...r, taskId, specHash: task.specHash, aepInitial: Number.isFinite(r.aepInitial) ? r.aepInitial : NaN }, { kind: 'adopted', file: source.label });
        if (!verdict.ok) {
          reject({ taskId, source: source.label, reason: verdict.reason });
          continue;
        }
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

/** One line for a conflict (the CLI and the audit log say the same). */
export function conflictLine(c: AdoptionConflict): string {
  return `${c.taskId}: ${c.kept.source} has AEP ${formatMwh(c.kept.aep)} MWh, ${c.dropped.source} has ${formatMwh(c.dropped.aep)} MWh with another result ` +
    `(${differenceText(c.kept.aep, c.dropped.aep, c.apartM)}); kept ${c.kept.source}`;
}
