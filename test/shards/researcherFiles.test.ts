/**
 * Researchers' own HDF5 files (written by h5py) whose meaning the readers must not guess:
 * - a per-record column with more than one value per row (a seed (N, 2), a per-turbine AEP
 *   (N, T)) is a schema problem naming it and its shape, not read by flat index; in the groups
 *   shape an AEP or n_turbines that is an array costs its record, and x and y must be vectors;
 * - a 2 x 2 layout ((T, 2) or (2, T)?) is read only when an axis is labelled `xy`;
 * - a task_id column contradicting farm_id/farm_type/seed makes the row unusable, naming both;
 * - adoption with `--aep recompute` reads records without an AEP (their AEP NaN);
 * - an AEP `units` attribute is converted to MWh; an unknown unit is refused.
 * Records are read the way `wflo run --adopt` reads them (readAdoptionFiles), so their values can
 * be compared with what was written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readAdoptionFiles, type AdoptionReadOptions } from '../../src/shards/adoptionSources.js';
import { buildReadOptions, type ReadFlags } from '../../src/shards/readOptions.js';
import { SpillReader } from '../../src/shards/spillStore.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';
import type { ShardFileReport } from '../../src/shards/shardTypes.js';
import { H5PY_SKIP_MESSAGE, h5pyPython, runPython } from './helpers/python.js';
import { wflo } from './helpers/runCli.js';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-researcher-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface ReadFile {
  report: ShardFileReport;
  records: LayoutRecord[];
}

/** Read `names` in `dir` as `wflo run --adopt` does; each file's report and its records' values. */
async function readAll(dir: string, names: string[], flags: ReadFlags = {}, aep?: 'verify' | 'recompute'): Promise<Map<string, ReadFile>> {
  const options: AdoptionReadOptions = { read: buildReadOptions(flags), pattern: '*.h5', keepRecords: true, aep };
  const read = await readAdoptionFiles(
    names.map((n) => path.join(dir, n)),
    options,
  );
  const reader = new SpillReader((n) => read.scan.spillPath(n));
  try {
    const out = new Map<string, ReadFile>();
    read.scan.files.forEach((report, i) => {
      const records = read.scan.records.filter((r) => r.fileIndex === i).map((r) => reader.read(r.spill!));
      out.set(path.basename(report.path), { report, records });
    });
    return out;
  } finally {
    reader.close();
    read.close();
  }
}

const PRELUDE = String.raw`
import h5py, sys
import numpy as np
d = sys.argv[1]
def layout(seed, n=4):
    return np.array([[100.0 * k + seed, 50.0 * k] for k in range(n)])
def rows(name, n=4, **cols):
    with h5py.File(d + '/' + name, 'w') as f:
        f['farm_id'] = np.zeros(n, dtype='i4')
        f['farm_type'] = np.zeros(n, dtype='i4')
        f['seed'] = np.arange(n)
        f['aep'] = 1000.0 + np.arange(n)
        f['layout'] = np.stack([layout(s) for s in range(n)])
        for k, v in cols.items():
            if k in f:
                del f[k]
            f[k] = v
`;

test('rows: a per-record column holding more than one value per row is a schema problem naming it and its shape', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  runPython(
    PRELUDE +
      String.raw`
rows('seed_2col.h5', seed=np.stack([np.arange(4), np.arange(4) + 100], axis=1))
rows('aep_per_turbine.h5', aep=np.tile(250.0, (4, 4)))
rows('nt_2col.h5', n_turbines=np.full((4, 2), 4))
with h5py.File(d + '/in_group.h5', 'w') as f:
    g = f.create_group('table')
    g['farm_id'] = np.zeros((4, 3), dtype='i4'); g['farm_type'] = np.zeros(4, dtype='i4'); g['seed'] = np.arange(4)
    g['aep'] = 1000.0 + np.arange(4); g['layout'] = np.stack([layout(s) for s in range(4)])
rows('column_n1.h5', seed=np.arange(4).reshape(4, 1), aep=(1000.0 + np.arange(4)).reshape(4, 1))
rows('iterations_2col.h5', iterations=np.ones((4, 3), dtype='i4'))
`,
    [dir],
  );
  const files = await readAll(dir, ['seed_2col.h5', 'aep_per_turbine.h5', 'nt_2col.h5', 'column_n1.h5', 'iterations_2col.h5'], {});
  const got = (name: string) => files.get(name)!;
  assert.equal(got('seed_2col.h5').report.class, 'schema_mismatch');
  assert.equal(got('seed_2col.h5').report.detail, 'seed has shape (4, 2); a per-record column must be (N,) or (N, 1)');
  assert.equal(got('aep_per_turbine.h5').report.detail, 'aep has shape (4, 4); a per-record column must be (N,) or (N, 1)');
  assert.equal(got('nt_2col.h5').report.detail, 'n_turbines has shape (4, 2); a per-record column must be (N,) or (N, 1)');
  // (N, 1) is one value per row: read as (N,).
  assert.equal(got('column_n1.h5').report.class, 'valid');
  assert.deepEqual(
    got('column_n1.h5').records.map((r) => [r.seed, r.aep]),
    [
      [0, 1000],
      [1, 1001],
      [2, 1002],
      [3, 1003],
    ],
  );
  // An optional column of another shape is left out (unknown), with a note; the records stay.
  assert.equal(got('iterations_2col.h5').report.class, 'valid');
  assert.match(got('iterations_2col.h5').report.detail, /iterations has shape \(4, 3\); a per-record column must be \(N,\) or \(N, 1\): not read/);
  assert.ok(got('iterations_2col.h5').records.every((r) => r.iterations === -1));
  // Inside a group, the path is named; check says it in one line.
  const r = await wflo(['shards', 'check', path.join(dir, 'in_group.h5'), '--field', 'group=table']);
  assert.equal(r.code, 3);
  assert.match(r.stdout, /in_group\.h5: schema_mismatch - table\/farm_id has shape \(4, 3\); a per-record column must be \(N,\) or \(N, 1\)\n/);
});

test('groups: an AEP or n_turbines that is an array costs its record, naming it; x and y must be vectors', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  runPython(
    PRELUDE +
      String.raw`
with h5py.File(d + '/groups.h5', 'w') as f:
    r = f.create_group('optimized_layouts/farm_0_type_0_seed_0')      # per-turbine AEP dataset
    r['layout'] = layout(0); r['aep'] = np.full(4, 250.0)
    r = f.create_group('optimized_layouts/farm_0_type_0_seed_1')      # n_turbines attribute array
    r['layout'] = layout(1); r['aep'] = 1001.0; r.attrs['n_turbines'] = [4, 4]
    r = f.create_group('optimized_layouts/farm_0_type_0_seed_2')      # x, y as (T, 2) each
    r['x'] = layout(2); r['y'] = layout(2); r['aep'] = 1002.0
    r = f.create_group('optimized_layouts/farm_0_type_0_seed_3')      # fine
    r['layout'] = layout(3); r['aep'] = 1003.0
`,
    [dir],
  );
  const file = (await readAll(dir, ['groups.h5'])).get('groups.h5')!;
  assert.equal(file.report.class, 'valid');
  assert.deepEqual(
    file.records.map((r) => r.seed),
    [3],
  );
  const reasons = Object.fromEntries(file.report.lost.map((l) => [l.taskId, l.reason]));
  assert.equal(reasons.farm_0_type_0_seed_0, "aep has shape (4,); a record's aep must be one number");
  assert.equal(reasons.farm_0_type_0_seed_1, "attribute n_turbines has shape (2,); a record's n_turbines must be one number");
  assert.equal(reasons.farm_0_type_0_seed_2, 'x has shape (4, 2); x and y must be vectors (T,)');
});

test('a 2 x 2 layout is read only when an axis is labelled xy; else its record is refused as ambiguous', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  runPython(
    PRELUDE +
      String.raw`
xy = np.array([[0.0, 10.0], [500.0, 20.0]])                 # (T, 2): turbines (0, 10), (500, 20)
with h5py.File(d + '/square.h5', 'w') as f:
    g = f.create_group('optimized_layouts')
    a = g.create_dataset('farm_0_type_0_seed_0', data=xy.T.copy()); a.attrs['aep'] = 1.0   # (2, T), unlabelled
    b = g.create_dataset('farm_0_type_0_seed_1', data=xy); b.attrs['aep'] = 1.0            # (T, 2), unlabelled
    c = g.create_dataset('farm_0_type_0_seed_2', data=xy); c.attrs['aep'] = 1.0; c.dims[1].label = 'xy'
    e = g.create_dataset('farm_0_type_0_seed_3', data=xy.T.copy()); e.attrs['aep'] = 1.0; e.dims[0].label = 'xy'
    r = g.create_group('farm_0_type_0_seed_4')              # an ambiguous layout, but x and y beside it
    r['layout'] = xy.T.copy(); r['x'] = xy[:, 0]; r['y'] = xy[:, 1]; r['aep'] = 1.0
    h = g.create_dataset('farm_0_type_0_seed_5', data=layout(5, 3).T.copy()); h.attrs['aep'] = 1.0  # (2, 3): not ambiguous
`,
    [dir],
  );
  const file = (await readAll(dir, ['square.h5'])).get('square.h5')!;
  const bySeed = new Map(file.records.map((r) => [r.seed, r]));
  assert.deepEqual([...bySeed.keys()].sort(), [2, 3, 4, 5]);
  for (const seed of [2, 3, 4]) {
    assert.deepEqual([...bySeed.get(seed)!.x], [0, 500], `seed ${seed}`);
    assert.deepEqual([...bySeed.get(seed)!.y], [10, 20], `seed ${seed}`);
  }
  assert.deepEqual([...bySeed.get(5)!.x], [5, 105, 205]);
  const message =
    "layout has shape (2, 2): (T, 2) or (2, T) cannot be told apart; store x and y as separate datasets, or label the axis holding x and y (h5py: d.dims[1].label = 'xy')";
  assert.deepEqual(
    file.report.lost.map((l) => [l.taskId, l.reason]),
    [
      ['farm_0_type_0_seed_0', message],
      ['farm_0_type_0_seed_1', message],
    ],
  );
});

test('rows: a task_id that contradicts farm_id/farm_type/seed makes its row unusable, naming both', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  runPython(
    PRELUDE +
      String.raw`
ids = ['farm_0_type_0_seed_0', 'farm_0_type_0_seed_2', 'farm_0_type_0_seed_2', 'farm_0_type_0_seed_3']
rows('task_id.h5', task_id=np.array([s.encode() for s in ids]))
rows('other_key.h5', key=np.array([b'run-a', b'run-b', b'run-c', b'run-d']))   # not a task id: left alone
`,
    [dir],
  );
  const files = await readAll(dir, ['task_id.h5', 'other_key.h5']);
  const keyed = files.get('task_id.h5')!;
  assert.equal(keyed.report.class, 'valid');
  assert.deepEqual(
    keyed.records.map((r) => r.seed),
    [0, 2, 3],
  );
  assert.deepEqual(
    keyed.report.lost.map((l) => [l.where, l.reason]),
    [['row 1', 'task_id farm_0_type_0_seed_2 but farm_id/farm_type/seed say 0/0/1']],
  );
  assert.equal(files.get('other_key.h5')!.records.length, 4);
});

test('with --aep recompute (adoption) a record without an AEP is usable, its AEP NaN; otherwise refused', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  runPython(
    PRELUDE +
      String.raw`
with h5py.File(d + '/groups_noaep.h5', 'w') as f:
    for s in range(2):
        f.create_dataset('optimized_layouts/farm_0_type_0_seed_%d' % s, data=layout(s))
with h5py.File(d + '/rows_noaep.h5', 'w') as f:
    f['farm_id'] = np.zeros(2, dtype='i4'); f['farm_type'] = np.zeros(2, dtype='i4'); f['seed'] = np.arange(2)
    f['layout'] = np.stack([layout(s) for s in range(2)])
`,
    [dir],
  );
  const names = ['groups_noaep.h5', 'rows_noaep.h5'];
  const recomputed = await readAll(dir, names, {}, 'recompute');
  for (const name of names) {
    const file = recomputed.get(name)!;
    assert.equal(file.report.class, 'valid', `${name}: ${file.report.detail}`);
    assert.equal(file.records.length, 2, name);
    assert.ok(
      file.records.every((r) => Number.isNaN(r.aep)),
      name,
    );
    assert.deepEqual([...file.records[1].x], [1, 101, 201, 301], name);
  }
  for (const aep of [undefined, 'verify'] as const) {
    const verified = await readAll(dir, names, {}, aep);
    assert.equal(verified.get('groups_noaep.h5')!.report.class, 'schema_mismatch');
    assert.ok(verified.get('groups_noaep.h5')!.report.lost.every((l) => l.reason === 'no aep'));
    assert.match(verified.get('rows_noaep.h5')!.report.detail, /present but aep\|AEP missing/);
  }
});

test('AEP units attributes are converted to MWh; an unknown unit is refused naming the dataset and unit', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  runPython(
    PRELUDE +
      String.raw`
with h5py.File(d + '/groups_units.h5', 'w') as f:
    g = f.create_group('optimized_layouts')
    a = g.create_dataset('farm_0_type_0_seed_0', data=layout(0)); a.attrs['aep'] = 1.5; a.attrs['units'] = 'GWh'
    b = g.create_dataset('farm_0_type_0_seed_1', data=layout(1)); b.attrs['aep'] = 2.0e6; b.attrs['aep_units'] = np.bytes_('kWh/yr')
    c = g.create_dataset('farm_0_type_0_seed_2', data=layout(2)); c.attrs['aep'] = 3.0; c.attrs['units'] = 'm'   # the coordinates' unit
    r = g.create_group('farm_0_type_0_seed_3'); r['layout'] = layout(3); r['aep'] = 4.0e9; r['aep'].attrs['unit'] = 'wh'
    r = g.create_group('farm_0_type_0_seed_4'); r['layout'] = layout(4); r['aep'] = 5.0; r['aep'].attrs['units'] = 'kW'
    e = g.create_dataset('farm_0_type_0_seed_5', data=layout(5)); e.attrs['aep'] = 6.0; e.attrs['units'] = 'MW'
    h = g.create_dataset('farm_0_type_0_seed_6', data=layout(6)); h.attrs['aep'] = 7.0e-3; h.attrs['units'] = 'TWh'
rows('rows_gwh.h5')
with h5py.File(d + '/rows_gwh.h5', 'a') as f:
    f['aep'].attrs['units'] = 'GWh'
rows('rows_bad.h5')
with h5py.File(d + '/rows_bad.h5', 'a') as f:
    f['aep'].attrs['units'] = 'MJ'
`,
    [dir],
  );
  const files = await readAll(dir, ['groups_units.h5', 'rows_gwh.h5', 'rows_bad.h5']);
  const groups = files.get('groups_units.h5')!;
  assert.deepEqual(
    groups.records.map((r) => [r.seed, r.aep]),
    [
      [0, 1500],
      [1, 2000],
      [2, 3],
      [3, 4000],
      [6, 7000],
    ],
  );
  assert.deepEqual(
    groups.report.lost.map((l) => [l.taskId, l.reason]),
    [
      ['farm_0_type_0_seed_4', 'aep has units "kW"; expected Wh, kWh, MWh, GWh or TWh'],
      ['farm_0_type_0_seed_5', 'attribute aep (units of its holder) has units "MW"; expected Wh, kWh, MWh, GWh or TWh'],
    ],
  );
  assert.deepEqual(
    files.get('rows_gwh.h5')!.records.map((r) => r.aep),
    [1e6, 1001e3, 1002e3, 1003e3],
  );
  assert.equal(files.get('rows_bad.h5')!.report.class, 'schema_mismatch');
  assert.equal(files.get('rows_bad.h5')!.report.detail, 'aep has units "MJ"; expected Wh, kWh, MWh, GWh or TWh');
});
