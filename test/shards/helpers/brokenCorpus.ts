/**
 * Test helper: a directory of worker files covering every class the shard doctor knows, both
 * shapes, a user block, HDF5 superblock versions 0 and 3, duplicates (identical and
 * conflicting), NaN AEPs, a smashed object header (salvage) and wflo's own output. Each file
 * comes with the class it must get and the tasks whose records must survive, computed from the
 * records generated here (not from anything the code under test reports).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLayoutsFile } from '../../../src/io/hdf5/index.js';
import type { LayoutRecord } from '../../../src/io/layoutRecord.js';
import type { ShardClass } from '../../../src/shards/shardTypes.js';
import { makeRecord } from './records.js';
import { smashBytes, toPy, truncateFile, writeNoise, writeWithH5py, type PyFile } from './corpus.js';

export interface FileExpectation {
  class: ShardClass;
  /** Task ids of the usable records in the file. */
  usable: string[];
  /** Task ids the file holds but that must be reported unusable. */
  lost?: string[];
}

export interface BrokenCorpus {
  dir: string;
  expect: Map<string, FileExpectation>;
  /** The record each task id must have in a merge (conflict resolved as documented per test). */
  records: Map<string, LayoutRecord>;
  /** The conflicting duplicate: same task as in rows.h5, AEP 1000 MWh lower (dup_conflict.h5 sorts first). */
  conflict: { taskId: string; inRows: LayoutRecord; inConflictFile: LayoutRecord };
  /** The identical duplicate's task id. */
  identicalTaskId: string;
}

const rec = (farmId: number, farmType: number, seed: number, nTurbines: number) => makeRecord({ farmId, farmType, seed, nTurbines, withInitial: false });

export async function buildBrokenCorpus(): Promise<BrokenCorpus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-corpus-'));
  const at = (name: string) => path.join(dir, name);
  const expect = new Map<string, FileExpectation>();
  const records = new Map<string, LayoutRecord>();
  const keep = (...rs: LayoutRecord[]) => rs.forEach((r) => records.set(r.taskId, r));
  const ids = (rs: LayoutRecord[]) => rs.map((r) => r.taskId);

  const groupsDs = [0, 1, 2].map((s) => rec(0, 0, s, 5));
  const groupsGrpDs = [0, 1].map((s) => rec(0, 1, s, 6));
  const groupsGrpAttr = [0, 1].map((s) => rec(0, 2, s, 7));
  const rows = [0, 1, 2, 3].map((s) => rec(1, 0, s, 3 + s));
  const rowsV3 = [0, 1].map((s) => rec(1, 1, s, 4));
  const userblock = [0, 1].map((s) => rec(1, 2, s, 4));
  const nanSome = [0, 1, 2].map((s) => rec(2, 0, s, 5));
  const nanAll = [0, 1].map((s) => rec(2, 1, s, 5));
  const badLen = [0, 1].map((s) => rec(2, 2, s, 5));
  const badKeys = [0, 1].map((s) => rec(3, 0, s, 5));
  const smashed = [0, 1, 2].map((s) => rec(3, 1, s, 5));
  const badShape = [rec(3, 2, 0, 5)];
  const truncatedRecs = [0, 1, 2, 3].map((t) => [0, 1, 2].map((s) => rec(5, t, s, 8)));
  const conflictInRows = rows[0];
  const conflictOther: LayoutRecord = { ...conflictInRows, aep: conflictInRows.aep - 1000 };

  const files: PyFile[] = [
    { path: at('groups_ds.h5'), shape: 'groups', records: groupsDs.map((r) => toPy(r)) },
    { path: at('groups_grp_dsaep.h5'), shape: 'groups', entry: 'group', aepAs: 'dataset', records: groupsGrpDs.map((r) => toPy(r)) },
    { path: at('groups_grp_attraep.h5'), shape: 'groups', entry: 'group', aepAs: 'attr', records: groupsGrpAttr.map((r) => toPy(r)) },
    { path: at('rows.h5'), shape: 'rows', records: rows.map((r) => toPy(r)) },
    { path: at('rows_v3.h5'), shape: 'rows', libver: 'latest', records: rowsV3.map((r) => toPy(r)) },
    { path: at('userblock.h5'), shape: 'groups', userblock: 512, records: userblock.map((r) => toPy(r)) },
    { path: at('init_only.h5') },
    { path: at('empty_group.h5'), post: "h.create_group('optimized_layouts')" },
    { path: at('bare_hdf5.h5'), init: false },
    { path: at('badlen.h5'), shape: 'rows', records: badLen.map((r) => toPy(r)), post: "d = h['aep'][:1]\ndel h['aep']\nh['aep'] = d" },
    { path: at('nan_some.h5'), shape: 'rows', records: nanSome.map((r, i) => toPy(r, i === 1 ? null : r.aep)) },
    { path: at('nan_all.h5'), shape: 'groups', records: nanAll.map((r) => toPy(r, null)) },
    { path: at('unknown.h5'), init: false, post: "h['results'] = np.zeros((3, 4))\nh['meta'] = np.zeros(1)" },
    { path: at('badkeys.h5'), shape: 'groups', records: badKeys.map((r) => ({ ...toPy(r), key: `f${r.farmId}t${r.farmType}s${r.seed}` })) },
    { path: at('smashed.h5'), shape: 'groups', records: smashed.map((r) => toPy(r)), reportAddr: [`optimized_layouts/${smashed[1].taskId}`] },
    { path: at('dup_identical.h5'), shape: 'groups', records: [toPy(groupsDs[1])] },
    { path: at('dup_conflict.h5'), shape: 'groups', records: [toPy(conflictOther)] },
    {
      path: at('layout_bad_shape.h5'),
      shape: 'groups',
      records: [],
      post: `d = h.require_group('optimized_layouts').create_dataset('${badShape[0].taskId}', data=np.zeros((5, 3)))\nd.attrs['aep'] = 1.0`,
    },
    { path: at('unreadable.h5'), shape: 'groups', records: [toPy(rec(6, 0, 0, 4))], reportAddr: ['/'] },
    ...truncatedRecs.map((rs, t) => ({ path: at(`trunc_${t}.h5`), shape: 'rows' as const, records: rs.map((r) => toPy(r)) })),
  ];
  const addresses = writeWithH5py(files);

  // Byte-level damage.
  fs.writeFileSync(at('empty.h5'), '');
  writeNoise(at('noise.h5'), 4096, 11);
  fs.writeFileSync(at('text.h5'), 'this is not an HDF5 file\n');
  const truncSize = fs.statSync(at('trunc_2.h5')).size;
  truncateFile(at('trunc_0.h5'), 5); // inside the signature
  truncateFile(at('trunc_1.h5'), 40); // inside the superblock
  truncateFile(at('trunc_2.h5'), Math.floor(truncSize / 2));
  truncateFile(at('trunc_3.h5'), fs.statSync(at('trunc_3.h5')).size - 1);
  smashBytes(at('smashed.h5'), addresses[at('smashed.h5')][`optimized_layouts/${smashed[1].taskId}`], 16);
  smashBytes(at('unreadable.h5'), addresses[at('unreadable.h5')]['/'], 64);

  // wflo's own output is a rows-shaped shard too (full fields: initial layouts, iterations, ...).
  const own = [0, 1, 2].map((s) => makeRecord({ farmId: 4, farmType: 0, seed: s, nTurbines: 6 }));
  await writeLayoutsFile(at('wflo_output.h5'), [own], { campaignName: 'earlier', campaignHash: 'h', nExpected: 3, complete: true, maxTurbines: 6, nRows: 3 });

  const set = (name: string, e: FileExpectation) => expect.set(name, e);
  set('groups_ds.h5', { class: 'valid', usable: ids(groupsDs) });
  set('groups_grp_dsaep.h5', { class: 'valid', usable: ids(groupsGrpDs) });
  set('groups_grp_attraep.h5', { class: 'valid', usable: ids(groupsGrpAttr) });
  set('rows.h5', { class: 'valid', usable: ids(rows) });
  set('rows_v3.h5', { class: 'valid', usable: ids(rowsV3) });
  set('userblock.h5', { class: 'valid', usable: ids(userblock) });
  set('init_only.h5', { class: 'placeholder_only', usable: [] });
  set('empty_group.h5', { class: 'placeholder_only', usable: [] });
  set('bare_hdf5.h5', { class: 'placeholder_only', usable: [] });
  set('badlen.h5', { class: 'schema_mismatch', usable: [] });
  set('nan_some.h5', { class: 'valid', usable: [nanSome[0].taskId, nanSome[2].taskId], lost: [nanSome[1].taskId] });
  set('nan_all.h5', { class: 'schema_mismatch', usable: [], lost: ids(nanAll) });
  set('unknown.h5', { class: 'schema_mismatch', usable: [] });
  set('badkeys.h5', { class: 'schema_mismatch', usable: [] });
  set('smashed.h5', { class: 'valid', usable: [smashed[0].taskId, smashed[2].taskId], lost: [smashed[1].taskId] });
  set('dup_identical.h5', { class: 'valid', usable: [groupsDs[1].taskId] });
  set('dup_conflict.h5', { class: 'valid', usable: [conflictOther.taskId] });
  set('layout_bad_shape.h5', { class: 'schema_mismatch', usable: [], lost: ids(badShape) });
  set('unreadable.h5', { class: 'unreadable', usable: [] });
  set('empty.h5', { class: 'empty', usable: [] });
  set('noise.h5', { class: 'no_signature', usable: [] });
  set('text.h5', { class: 'no_signature', usable: [] });
  for (let t = 0; t < 4; t++) set(`trunc_${t}.h5`, { class: 'truncated', usable: [] });
  set('wflo_output.h5', { class: 'valid', usable: ids(own) });

  keep(...groupsDs, ...groupsGrpDs, ...groupsGrpAttr, ...rows, ...rowsV3, ...userblock, nanSome[0], nanSome[2], smashed[0], smashed[2], ...own);
  return {
    dir,
    expect,
    records,
    conflict: { taskId: conflictInRows.taskId, inRows: conflictInRows, inConflictFile: conflictOther },
    identicalTaskId: groupsDs[1].taskId,
  };
}
