/**
 * One shard of a campaign as an ordinary run (`wflo run CAMPAIGN --shard I/N`): the campaign
 * restricted to its slice (campaign/shardSlice.ts) and pointed at its own output folder
 * (default `<campaign output>/shard-<I>`), whose ledger is marked with the shard and the hash of
 * the whole campaign grid so `wflo collect` and `wflo slurm status` can tell whose piece it is.
 * Shards share nothing while they run: no file is written outside the shard's folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { InputError, RuntimeFailure } from '../../util/errors.js';
import type { Campaign } from '../../campaign/campaign.js';
import { expandTasks, type Task } from '../../campaign/taskGrid.js';
import { formatShard, restrictToShard, type ShardSpec } from '../../campaign/shardSlice.js';
import { Ledger } from '../ledger.js';

/** Ledger meta keys a shard run writes (besides the ordinary campaign keys). */
export const SHARD_META = 'shard';
export const GRID_HASH_META = 'grid_hash';

export const SHARD_FOLDER_PREFIX = 'shard-';
export const shardFolderName = (index: number): string => `${SHARD_FOLDER_PREFIX}${index}`;

/**
 * Hash of the sorted (task id, spec hash) list, computed exactly as the ledger's campaign hash
 * (ledger.ts), so for a campaign without `only` it equals the collected ledger's campaign_hash.
 */
export function tasksHash(tasks: readonly Pick<Task, 'taskId' | 'specHash'>[]): string {
  const sorted = [...tasks].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
  const h = createHash('sha256');
  sorted.forEach((t, i) => h.update(`${i === 0 ? '' : '\n'}${t.taskId}:${t.specHash}`));
  return h.digest('hex').slice(0, 32);
}

/** The hash of the campaign's whole grid (farms × types × seeds, `only` ignored): names the campaign. */
export const campaignGridHash = (c: Campaign): string => tasksHash(expandTasks({ ...c, only: null }));

/** The folder of shard `index` when no --out is given. */
export function defaultShardDir(c: Campaign, index: number): string {
  if (!c.outputDir) throw new InputError(`${c.file}: output: missing (give \`output:\` in the campaign file or --out DIR)`);
  return path.join(c.outputDir, shardFolderName(index));
}

/**
 * The campaign to hand to runCampaign for shard `s`: restricted to the slice, output in
 * `outDir` (default: defaultShardDir), its ledger marked as that shard of this campaign.
 */
export function prepareShardRun(c: Campaign, s: ShardSpec, outDir?: string): Campaign {
  const dir = outDir !== undefined ? path.resolve(outDir) : defaultShardDir(c, s.index);
  const shard = { ...restrictToShard(c, s), outputDir: dir };
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new RuntimeFailure(`cannot create shard folder ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const ledger = Ledger.open(dir);
  try {
    const existing = ledger.getMeta('campaign_name');
    if (existing !== null && existing !== c.name) {
      throw new InputError(`${dir} holds campaign '${existing}', not '${c.name}'; use another output folder (--out)`);
    }
    const before = ledger.getMeta(SHARD_META);
    if (before !== null && before !== formatShard(s)) {
      throw new InputError(
        `${dir} holds shard ${before} of campaign '${c.name}', not shard ${formatShard(s)}: ` +
          'a folder keeps one slice of one split; use another --out for this one',
      );
    }
    ledger.setMeta(SHARD_META, formatShard(s));
    ledger.setMeta(GRID_HASH_META, campaignGridHash(c));
  } finally {
    ledger.close();
  }
  return shard;
}
