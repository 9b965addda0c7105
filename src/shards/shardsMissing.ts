/**
 * `wflo shards missing`: which expected (farm, type, seed) tasks have no usable record in a
 * merged output file or a directory of worker files. A record counts only if it is usable
 * (finite AEP, readable layout, within the limits and, with a campaign, verified against it:
 * see recordGate.ts); tasks outside the expected grid are counted as unexpected.
 */
import fs from 'node:fs';
import path from 'node:path';
import { taskIdOf } from '../io/layoutRecord.js';
import { InputError } from '../util/errors.js';
import type { ExpectedGrid, ExpectedTask } from './expectedGrid.js';
import { scanShards } from './shardScan.js';
import { listShardFiles } from './fileSelection.js';
import { countClasses, type ShardClass, type ShardReadOptions } from './shardTypes.js';

export interface MissingOptions {
  grid: ExpectedGrid;
  /** A merged HDF5 file or a directory of worker files. */
  from: string;
  pattern: string;
  read: ShardReadOptions;
  jobs?: number;
  timeoutMs?: number;
}

export interface MissingReport {
  expected: number;
  /** Expected tasks with a usable record. */
  found: number;
  missing: ExpectedTask[];
  /** Distinct tasks found that are not in the grid. */
  unexpected: number;
  /** Records read but refused (limits, or verification against the campaign). */
  rejected: number;
  files: number;
  classes: Record<ShardClass, number>;
}

export async function findMissing(options: MissingOptions): Promise<MissingReport> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(options.from);
  } catch {
    throw new InputError(`--from ${options.from}: no such file or directory`);
  }
  const files = stat.isDirectory() ? listShardFiles(options.from, options.pattern) : [path.resolve(options.from)];
  const scan = await scanShards({ files, read: options.read, jobs: options.jobs, timeoutMs: options.timeoutMs });
  const foundIds = new Set(scan.records.map((r) => taskIdOf(r.farmId, r.farmType, r.seed)));
  const expectedIds = new Set(options.grid.tasks.map((t) => t.taskId));
  const missing = options.grid.tasks.filter((t) => !foundIds.has(t.taskId));
  let unexpected = 0;
  for (const id of foundIds) if (!expectedIds.has(id)) unexpected++;
  return {
    expected: options.grid.tasks.length,
    found: options.grid.tasks.length - missing.length,
    missing,
    unexpected,
    rejected: scan.files.reduce((n, f) => n + f.lost.filter((l) => l.rejected).length, 0),
    files: files.length,
    classes: countClasses(scan.files),
  };
}
