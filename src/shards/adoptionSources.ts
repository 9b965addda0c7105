/**
 * What `wflo run CAMPAIGN --adopt PATH...` reads: each path becomes a stream of records for the
 * runner's adoption (runner/adoptRecords.ts, which verifies every record against the campaign).
 * - a wflo layouts file (a `wflo run` output, a `wflo shards merge` rescue file): its rows;
 * - a folder of worker shards, or a single worker file of another pipeline: the shard doctor
 *   merges it first (bad files skipped, as `wflo shards merge --on-invalid skip` would), into a
 *   temporary file that is removed afterwards, and the merged rows are read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '../util/errors.js';
import { LayoutsFileReader, streamLayoutsFile } from '../io/hdf5/index.js';
import type { LayoutRecord } from '../io/layoutRecord.js';
import type { AdoptionSource } from '../runner/adoptRecords.js';
import { mergeShards } from './shardMerge.js';
import { buildReadOptions } from './readOptions.js';
import { DEFAULT_SHARD_PATTERN, shardFilesOfPaths } from './fileSelection.js';

export async function adoptionSources(paths: readonly string[]): Promise<AdoptionSource[]> {
  const out: AdoptionSource[] = [];
  for (const p of paths) {
    if (!fs.existsSync(p)) throw new InputError(`--adopt ${p}: no such file or folder`);
    if (fs.statSync(p).isFile() && await isLayoutsFile(p)) {
      out.push({ label: p, records: streamLayoutsFile(p) });
    } else {
      out.push({ label: p, records: mergedShards(p) });
    }
  }
  return out;
}

async function isLayoutsFile(file: string): Promise<boolean> {
  try {
    (await LayoutsFileReader.open(file)).close();
    return true;
  } catch {
    return false;
  }
}

/** Merge the shard files of `target` into a temporary layouts file and stream its rows. */
async function* mergedShards(target: string): AsyncGenerator<LayoutRecord[]> {
  const files = shardFilesOfPaths([target], DEFAULT_SHARD_PATTERN);
  if (files.length === 0) throw new InputError(`--adopt ${target}: no ${DEFAULT_SHARD_PATTERN} files`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-adopt-'));
  try {
    const output = path.join(tmp, 'merged.h5');
    const report = await mergeShards({
      inputs: [target], files, output, read: buildReadOptions({}), onInvalid: 'skip', onConflict: 'first',
      cleanup: false, force: true,
    });
    if (report.outcome !== 'merged') throw new InputError(`--adopt ${target}: the shards could not be merged (${report.reason ?? report.outcome})`);
    yield* streamLayoutsFile(output);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
