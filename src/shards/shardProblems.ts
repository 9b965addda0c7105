/**
 * The one definition of "problems" for `wflo shards check` and `wflo shards merge` (exit 3):
 * anything the folder holds that does not reach a merged output as it is. That is: a file of an
 * invalid class (empty, no_signature, truncated, unreadable, schema_mismatch, rejected), a record
 * that could not be used or was rejected, and a task whose copies disagree (a conflicting
 * duplicate: one of them is left out, by `--on-conflict` or by refusing to merge). A file that
 * holds only placeholders (`init`) holds nothing and loses nothing: it is not a problem, and
 * neither is an identical duplicate. check and merge call this on the same scan, so they give the
 * same answer for the same folder.
 */
import { INVALID_CLASSES, type DuplicateGroup, type ShardFileReport } from './shardTypes.js';

export interface ShardProblems {
  invalidFiles: number;
  /** Records that could not be read as a record (key, AEP, layout shape, HDF5 error). */
  unusableRecords: number;
  /** Records read and refused (limits, or verification against --expect). */
  rejectedRecords: number;
  conflictingDuplicates: number;
  /** Whether any of the above is non-zero: exit 3. */
  any: boolean;
}

export function shardProblems(files: readonly ShardFileReport[], duplicates: readonly DuplicateGroup[]): ShardProblems {
  const invalidFiles = files.filter((f) => INVALID_CLASSES.has(f.class)).length;
  const rejectedRecords = files.reduce((n, f) => n + f.lost.filter((l) => l.rejected).length, 0);
  const unusableRecords = files.reduce((n, f) => n + f.lost.length, 0) - rejectedRecords;
  const conflictingDuplicates = duplicates.filter((d) => !d.identical).length;
  return {
    invalidFiles,
    unusableRecords,
    rejectedRecords,
    conflictingDuplicates,
    any: invalidFiles + unusableRecords + rejectedRecords + conflictingDuplicates > 0,
  };
}

/** `2 invalid files, 1 rejected record, 1 conflicting duplicate` (empty when there is nothing). */
export function problemsText(p: ShardProblems): string {
  const parts: [number, string][] = [
    [p.invalidFiles, 'invalid file'],
    [p.unusableRecords, 'unusable record'],
    [p.rejectedRecords, 'rejected record'],
    [p.conflictingDuplicates, 'conflicting duplicate'],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, w]) => `${n} ${w}${n === 1 ? '' : 's'}`)
    .join(', ');
}
