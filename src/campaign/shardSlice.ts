/**
 * A deterministic 1/N slice of a campaign's tasks (`wflo run --shard I/N`, one SLURM array task
 * per shard). Shard I of N holds the tasks at positions p ≡ I (mod N) of the task grid in its
 * fixed output order (farm id, type id, seed; `only` applied). The order depends on nothing but
 * the campaign file, so every machine computes the same slices; the N slices are disjoint and
 * cover the grid. Since the grid walks each farm × type group in one run, every group is spread
 * over the shards with counts differing by at most one, and so are the shard totals. With more
 * shards than tasks the shards past the last task are empty, which is valid.
 */
import { InputError } from '../util/errors.js';
import type { Campaign } from './campaign.js';
import { expandTasks } from './taskGrid.js';

export interface ShardSpec {
  /** 0-based shard index (SLURM_ARRAY_TASK_ID of an array 0..count-1). */
  index: number;
  count: number;
}

/** Most shards one campaign may be split into (SLURM's own MaxArraySize default is 1001). */
export const MAX_SHARDS = 1_000_000;

/** Parse `I/N` (0 <= I < N); `flag` names the option in the error. */
export function parseShardSpec(text: string, flag = '--shard'): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new InputError(`${flag}: expected I/N (shard I of N, 0 <= I < N), got '${text}'`);
  const index = Number(m[1]),
    count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new InputError(`${flag}: N must be between 1 and ${MAX_SHARDS}, got '${text}'`);
  if (index >= count) throw new InputError(`${flag}: shard index ${index} is not below N = ${count} (shards are numbered 0 … N-1)`);
  return { index, count };
}

export const formatShard = (s: ShardSpec): string => `${s.index}/${s.count}`;

/** The tasks of shard `s` from the campaign's task list (as expandTasks gives it). */
export function sliceTasks<T>(tasks: readonly T[], s: ShardSpec): T[] {
  const out: T[] = [];
  for (let p = s.index; p < tasks.length; p += s.count) out.push(tasks[p]);
  return out;
}

/**
 * The campaign restricted to shard `s`, the way `only` restricts it: its ledger then knows
 * exactly its own tasks, and a restricted campaign never retires the rest of the grid.
 */
export function restrictToShard(c: Campaign, s: ShardSpec): Campaign {
  return { ...c, only: sliceTasks(expandTasks(c), s).map((t) => t.taskId) };
}
