/**
 * Reads one foreign worker file with HDF5 (h5wasm) and turns what it holds into records, with
 * one ShapeReader per way pipelines lay records out (groupsShapeReader.ts, rowsShapeReader.ts).
 * Every record is checked on its own (recordGate.ts), so one broken or refused entry costs that
 * entry only (salvage); the file's class follows from what was found. Runs inside a probe child
 * process (probeWorker.ts): opening an untrusted file can break the wasm instance (h5wasm
 * issue #46).
 */
import fs from 'node:fs';
import { closeQuietly, hdf5ErrorReason, openH5Sync, type H5File, type H5Module } from '../io/hdf5/h5wasmRuntime.js';
import { describeMember } from './h5Entities.js';
import { groupsShapeReader } from './groupsShapeReader.js';
import { rowsShapeReader } from './rowsShapeReader.js';
import { RecordGate, type RecordCheck } from './recordGate.js';
import { ShardFile, type ShapeReader } from './shardFile.js';
import type { SpillWriter } from './spillStore.js';
import type { LostRecord, ProbeResult, ShardReadOptions } from './shardTypes.js';

const SHAPE_READERS: readonly ShapeReader[] = [groupsShapeReader, rowsShapeReader];

/** Detail strings list at most this many examples. */
const EXAMPLES = 3;

function summarizeLost(lost: LostRecord[]): string {
  const examples = lost
    .slice(0, EXAMPLES)
    .map((l) => `${l.taskId ?? l.where}: ${l.reason}`)
    .join('; ');
  const rejected = lost.filter((l) => l.rejected).length;
  const how = rejected === lost.length ? 'rejected' : rejected > 0 ? `unusable, ${rejected} of them rejected` : 'unusable';
  return `${lost.length} record${lost.length === 1 ? '' : 's'} ${how} (${examples}${lost.length > EXAMPLES ? '; ...' : ''})`;
}

/**
 * Read `path`; records go to `spill` when given (merge), only their index otherwise (check).
 * `verify` is the --expect check (campaignGate.ts) when options.verify asks for one.
 * Never throws for a bad file: problems are in the result.
 */
export function readShard(h5: H5Module, path: string, options: ShardReadOptions, spill: SpillWriter | null, verify: RecordCheck | null = null): ProbeResult {
  if (options.verify && !verify) throw new Error('readShard: options.verify needs the campaign check (campaignGate.ts)');
  let file: H5File;
  try {
    file = openH5Sync(h5, path, 'r');
  } catch (err) {
    let reason = hdf5ErrorReason(err);
    if (/already open for write|file close degree|consistency flags/i.test(reason))
      reason += ' (the writer crashed with the file open; h5clear -s on a copy may recover it)';
    return { class: 'unreadable', shapes: [], detail: `HDF5 cannot open it: ${reason}`, records: [], lost: [], hdf5Errors: true };
  }
  let fileBytes: number;
  try {
    fileBytes = fs.statSync(path).size;
  } catch (err) {
    closeQuietly(file);
    return { class: 'unreadable', shapes: [], detail: `cannot read the file: ${(err as Error).message}`, records: [], lost: [], hdf5Errors: false };
  }
  const shard = new ShardFile(file, options, spill, new RecordGate(options.maxTurbines, verify), fileBytes);
  try {
    const rootMembers = shard.structure('its root group', () => file.keys());
    if (!rootMembers) {
      return { class: 'unreadable', shapes: [], detail: shard.structureProblems.join('; '), records: [], lost: [], hdf5Errors: true };
    }
    const members = new Set(rootMembers);
    const placeholders = new Set(options.fields.placeholder);
    const recognized = new Set<string>();
    for (const reader of SHAPE_READERS) {
      if (!options.shapes.includes(reader.shape)) continue;
      for (const name of reader.read(shard, members)) recognized.add(name);
    }
    for (const name of rootMembers) {
      if (!recognized.has(name) && !placeholders.has(name)) shard.unrecognized.push(name);
    }
    return classify(shard, rootMembers);
  } finally {
    closeQuietly(file);
  }
}

/** What the readers looked for, for a file where they found nothing. */
export function lookedFor(options: ShardReadOptions): string {
  const f = options.fields;
  const where = f.group.map((g) => (g === '/' ? 'the root' : g)).join(' or ');
  const parts: string[] = [];
  if (options.shapes.includes('groups'))
    parts.push(`members named like ${options.keyPatternText} in ${where}${f.group.includes('/') ? '' : ' or at the root'}`);
  if (options.shapes.includes('rows')) {
    parts.push(
      `row datasets ${f.farm_id.join('|')}, ${f.farm_type.join('|')}, ${f.seed.join('|')} (or ${f.key.join('|')}), ${f.aep.join('|')}, ` +
        `${f.layout.join('|')} (or ${f.x.join('|')} and ${f.y.join('|')}) at the root${f.group.includes('/') ? '' : ` or in ${where}`}`,
    );
  }
  return `looked for ${parts.join(', and for ')}`;
}

function classify(shard: ShardFile, rootMembers: string[]): ProbeResult {
  const base = { shapes: shard.shapesFound, records: shard.records, lost: shard.lost, hdf5Errors: shard.hdf5Errors };
  const n = shard.records.length;
  const problems = [...shard.structureProblems, ...shard.schemaProblems];
  if (n > 0) {
    const parts = [`${n} record${n === 1 ? '' : 's'} (${shard.shapesFound.join(' + ')} shape)`];
    if (shard.lost.length > 0) parts.push(summarizeLost(shard.lost));
    if (problems.length > 0) parts.push(problems.join('; '));
    return { class: 'valid', detail: parts.join('; '), ...base };
  }
  if (shard.structureProblems.length > 0) return { class: 'unreadable', detail: problems.join('; '), ...base };
  if (shard.schemaProblems.length > 0) return { class: 'schema_mismatch', detail: shard.schemaProblems.join('; '), ...base };
  if (shard.lost.length > 0 && shard.lost.every((l) => l.rejected))
    return { class: 'rejected', detail: `no usable record: ${summarizeLost(shard.lost)}`, ...base };
  if (shard.lost.length > 0) return { class: 'schema_mismatch', detail: `no usable record: ${summarizeLost(shard.lost)}`, ...base };
  const listed = rootMembers
    .slice(0, 6)
    .map((name) => describeMember(shard.file, name))
    .join(', ');
  if (shard.unrecognized.length > 0) {
    return {
      class: 'schema_mismatch',
      detail: `no records: ${lookedFor(shard.options)}; root holds ${listed}${rootMembers.length > 6 ? ', ...' : ''} (map names with --field or --key-pattern)`,
      ...base,
    };
  }
  return {
    class: 'placeholder_only',
    detail: rootMembers.length > 0 ? `no records; root holds only ${listed}` : 'no records; the file is an empty HDF5 file',
    ...base,
  };
}
