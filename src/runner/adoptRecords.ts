/**
 * Adoption: results computed elsewhere (a rescued merge of worker shards, another wflo output,
 * a folder of shards) become done tasks of this campaign only after the same verification every
 * row passes (campaign/verifyRecord.ts): the farm type's turbine count, finite coordinates inside
 * the boundary and outside exclusion zones, spacing respected, and the AEP recomputed with the
 * campaign's model and compared (relative tolerance). A record that fails is reported (task,
 * reason) and its task stays missing, so the run computes it. Records of tasks outside the grid
 * are counted and ignored; a task already done is left as it is.
 *
 * Adopted rows are committed with source `adopted:<file>`; what they do not carry (initial
 * layout, iterations, wall time) is stored as unknown (NaN / -1).
 */
import type { Campaign } from '../campaign/campaign.js';
import type { Task } from '../campaign/taskGrid.js';
import { RecordVerifier } from '../campaign/verifyRecord.js';
import { taskIdOf, type LayoutRecord } from '../io/layoutRecord.js';
import type { CommittedResult, Ledger } from './ledger.js';

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

export interface AdoptionReport {
  adopted: number;
  /** Records for tasks that were already done (left as they were). */
  alreadyDone: number;
  /** Records of tasks this campaign does not have. */
  outsideGrid: number;
  /** A later record for a task already adopted in this pass (the first one kept). */
  duplicates: number;
  rejected: AdoptionRejection[];
}

export interface AdoptOptions {
  /** Relative AEP tolerance (default 1e-6). */
  aepTolerance?: number;
  /** Called once per rejected record, as it happens. */
  onReject?: (r: AdoptionRejection) => void;
}

const COMMIT_BATCH = 256;

export async function adoptRecords(c: Campaign, tasks: Iterable<Task>, ledger: Ledger, sources: readonly AdoptionSource[], options: AdoptOptions = {}): Promise<AdoptionReport> {
  const report: AdoptionReport = { adopted: 0, alreadyDone: 0, outsideGrid: 0, duplicates: 0, rejected: [] };
  const byId = new Map<string, Task>();
  for (const t of tasks) byId.set(t.taskId, t);
  const done = ledger.workStates().done;
  const verifier = new RecordVerifier(c, { aepTolerance: options.aepTolerance ?? 1e-6 });
  const adoptedNow = new Set<string>();
  const pending: CommittedResult[] = [];
  const flush = (): void => {
    if (pending.length > 0) ledger.commitResults(pending.splice(0), 0);
  };
  const reject = (r: AdoptionRejection): void => {
    report.rejected.push(r);
    options.onReject?.(r);
  };

  for (const source of sources) {
    for await (const batch of source.records) {
      for (const r of batch) {
        const taskId = taskIdOf(r.farmId, r.farmType, r.seed);
        const task = byId.get(taskId);
        if (!task) { report.outsideGrid++; continue; }
        if (adoptedNow.has(taskId)) { report.duplicates++; continue; }
        if (done.has(taskId)) { report.alreadyDone++; continue; }
        if (r.x.length !== r.y.length || r.x.length !== r.nTurbines) {
          reject({ taskId, source: source.label, reason: `layout has ${r.x.length}/${r.y.length} coordinates for ${r.nTurbines} turbines` });
          continue;
        }
        const verdict = verifier.verify(task, { x: r.x, y: r.y, aep: r.aep });
        if (!verdict.ok) {
          reject({ taskId, source: source.label, reason: verdict.reason });
          continue;
        }
        adoptedNow.add(taskId);
        pending.push({
          ...r, taskId, specHash: task.specHash, source: `adopted:${source.label}`,
          aepInitial: Number.isFinite(r.aepInitial) ? r.aepInitial : NaN,
        });
        report.adopted++;
        if (pending.length >= COMMIT_BATCH) flush();
      }
    }
  }
  flush();
  return report;
}
