/**
 * The campaign's task grid: one task per (farm, farm type, seed), in output order
 * (farm id, type id, seed), each with its stable id `farm_<f>_type_<t>_seed_<s>` and spec hash.
 * Restricted to `only` when the campaign has it.
 */
import { parseTaskId, taskIdOf } from '../io/layoutRecord.js';
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

/** Tasks by position, made on demand (what the scheduler walks through). */
export interface TaskSource {
  readonly length: number;
  task(position: number): Task;
}

/**
 * The grid without an object per task: a task (with its spec hash) is made when asked for, so
 * 10^6 tasks cost a few MB until then. Positions follow output order; with `only`, just those.
 */
export class TaskGrid implements TaskSource, Iterable<Task> {
  readonly length: number;
  private readonly farms: { id: number; hash: string; index: number }[];
  private readonly types: { id: number; hash: string; index: number }[];
  private readonly seeds: number[];
  /** Positions in the full grid of the `only` tasks (null: the whole grid). */
  private readonly onlyPositions: Int32Array | null;

  constructor(private readonly c: Campaign) {
    this.farms = c.farms.map((f, index) => ({ id: f.id, hash: f.hash, index })).sort((a, b) => a.id - b.id);
    this.types = c.farmTypes.map((t, index) => ({ id: t.id, hash: t.hash, index })).sort((a, b) => a.id - b.id);
    this.seeds = [...c.seeds].sort((a, b) => a - b);
    if (c.only) {
      const farmPos = new Map(this.farms.map((f, i) => [f.id, i]));
      const typePos = new Map(this.types.map((t, i) => [t.id, i]));
      const seedPos = new Map(this.seeds.map((s, i) => [s, i]));
      const positions = new Set<number>();
      for (const id of c.only) {
        const k = parseTaskId(id);
        const fi = k ? farmPos.get(k.farmId) : undefined,
          ti = k ? typePos.get(k.farmType) : undefined,
          si = k ? seedPos.get(k.seed) : undefined;
        if (fi !== undefined && ti !== undefined && si !== undefined) positions.add((fi * this.types.length + ti) * this.seeds.length + si);
      }
      this.onlyPositions = Int32Array.from([...positions].sort((a, b) => a - b));
      this.length = this.onlyPositions.length;
    } else {
      this.onlyPositions = null;
      this.length = this.farms.length * this.types.length * this.seeds.length;
    }
  }

  private parts(position: number): [{ id: number; hash: string; index: number }, { id: number; hash: string; index: number }, number] {
    const g = this.onlyPositions ? this.onlyPositions[position] : position;
    const ns = this.seeds.length,
      nt = this.types.length;
    return [this.farms[Math.floor(g / (ns * nt))], this.types[Math.floor(g / ns) % nt], this.seeds[g % ns]];
  }

  /** The id of the task at `position` (no spec hash computed). */
  taskId(position: number): string {
    const [f, t, seed] = this.parts(position);
    return taskIdOf(f.id, t.id, seed);
  }

  task(position: number): Task {
    const [f, t, seed] = this.parts(position);
    return {
      taskId: taskIdOf(f.id, t.id, seed),
      farmId: f.id,
      farmType: t.id,
      seed,
      farmIndex: f.index,
      typeIndex: t.index,
      specHash: taskSpecHash(f.hash, t.hash, this.c.optimizerHash, seed),
    };
  }

  *[Symbol.iterator](): Iterator<Task> {
    for (let p = 0; p < this.length; p++) yield this.task(p);
  }
}

/** Every task of the campaign as objects, in output order (restricted to `only`). */
export function expandTasks(c: Campaign): Task[] {
  return [...new TaskGrid(c)];
}
