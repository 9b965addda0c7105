/**
 * The campaign's task grid: one task per (farm, farm type, seed), in output order
 * (farm id, type id, seed), each with its stable id `farm_<f>_type_<t>_seed_<s>` and spec hash.
 * Restricted to `only` when the campaign has it.
 */
import { taskIdOf } from '../io/layoutRecord.js';
import type { Campaign } from './campaign.js';
import { taskSpecHash } from './specHash.js';

export interface Task {
  taskId: string;
  farmId: number;
  farmType: number;
  seed: number;
  /** Positions in Campaign.farms / Campaign.farmTypes (what a worker indexes by). */
  farmIndex: number;
  typeIndex: number;
  specHash: string;
}

export function expandTasks(c: Campaign): Task[] {
  const only = c.only ? new Set(c.only) : null;
  const farmOrder = c.farms.map((f, i) => ({ f, i })).sort((a, b) => a.f.id - b.f.id);
  const typeOrder = c.farmTypes.map((t, i) => ({ t, i })).sort((a, b) => a.t.id - b.t.id);
  const seeds = [...c.seeds].sort((a, b) => a - b);
  const tasks: Task[] = [];
  for (const { f, i: farmIndex } of farmOrder) {
    for (const { t, i: typeIndex } of typeOrder) {
      for (const seed of seeds) {
        const taskId = taskIdOf(f.id, t.id, seed);
        if (only && !only.has(taskId)) continue;
        tasks.push({
          taskId, farmId: f.id, farmType: t.id, seed, farmIndex, typeIndex,
          specHash: taskSpecHash(f.hash, t.hash, c.optimizerHash, seed),
        });
      }
    }
  }
  return tasks;
}
