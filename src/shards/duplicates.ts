/**
 * Duplicate keys across (or within) shard files. Records of the same task whose values agree
 * (same digest of n_turbines, AEP and layout) are identical duplicates: kept once. Records
 * whose values differ conflict and are resolved by the stated rule:
 *   error    - refuse to merge (default)
 *   first    - keep the first in file order (natural sort of names, then position in the file)
 *   best-aep - keep the highest AEP (ties: the first)
 */
import { taskIdOf } from '../io/layoutRecord.js';
import type { ConflictRule, DuplicateGroup, IndexedRecord } from './shardTypes.js';

export { CONFLICT_RULES, type ConflictRule, type DuplicateGroup, type DuplicateOccurrence } from './shardTypes.js';

export interface Resolution {
  /** One record per task, sorted by (farm_id, farm_type, seed). */
  chosen: IndexedRecord[];
  duplicates: DuplicateGroup[];
  /** Subset of duplicates whose values differ. */
  conflicts: DuplicateGroup[];
}

function keyOrder(a: IndexedRecord, b: IndexedRecord): number {
  return a.farmId - b.farmId || a.farmType - b.farmType || a.seed - b.seed;
}

/** Group records by task and pick one per task. `records` must be in file order. */
export function resolveDuplicates(records: IndexedRecord[], pathOf: (fileIndex: number) => string, rule: ConflictRule): Resolution {
  // Stable sort keeps file order within a task, which is what "first" means.
  const sorted = records
    .map((r, order) => ({ r, order }))
    .sort((a, b) => keyOrder(a.r, b.r) || a.order - b.order)
    .map((x) => x.r);
  const chosen: IndexedRecord[] = [];
  const duplicates: DuplicateGroup[] = [];
  const conflicts: DuplicateGroup[] = [];
  for (let start = 0; start < sorted.length; ) {
    let end = start + 1;
    while (end < sorted.length && keyOrder(sorted[start], sorted[end]) === 0) end++;
    const group = sorted.slice(start, end);
    start = end;
    if (group.length === 1) {
      chosen.push(group[0]);
      continue;
    }
    const identical = group.every((r) => r.digest === group[0].digest);
    let pick: number | undefined = 0;
    if (!identical) {
      if (rule === 'error') pick = undefined;
      else if (rule === 'best-aep') pick = group.reduce((best, r, i) => (r.aep > group[best].aep ? i : best), 0);
    }
    const entry: DuplicateGroup = {
      taskId: taskIdOf(group[0].farmId, group[0].farmType, group[0].seed),
      identical,
      occurrences: group.map((r) => ({ path: pathOf(r.fileIndex), where: r.where, aep: r.aep, digest: r.digest })),
      ...(pick !== undefined ? { chosen: pick } : {}),
    };
    duplicates.push(entry);
    if (!identical) conflicts.push(entry);
    if (pick !== undefined) chosen.push(group[pick]);
  }
  return { chosen, duplicates, conflicts };
}
