/**
 * The shard doctor on files other pipelines write, each written by h5py:
 * - declared sizes against reality: datasets claiming 10^12 rows in a 2.5 KB file (chunked and
 *   never written; contiguous and never allocated) are refused unread, in one line, by `check` and
 *   `merge`; so is a column under the row cap whose bytes cannot be in the file, a column beyond
 *   `--max-rows`, and one record's `aep` claiming 10^12 values (that record only); a wflo layouts
 *   file resized by h5py to claim 10^12 rows is refused by the layouts reader too;
 * - records where the file keeps them: at the root (found by their names, or `--field group=/`),
 *   under a nested group path (`--field group=runs/2024/results`), and row datasets inside a group;
 * - mapping options: other column names; a bad `--field` is one line, exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LayoutsFileReader, writeLayoutsFile } from '../../src/io/hdf5/index.js';
import { H5PY_SKIP_MESSAGE, h5pyPython, runPython } from './helpers/python.js';
import { makeRecord } from './helpers/records.js';
import { wflo } from './helpers/runCli.js';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-foreign-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface CheckedFile {
  path: string;
  class: string;
  records: number;
  detail: string;
  lost: { where: string; reason: string }[];
}

async function check(args: string[]): Promise<{ code: number | null; files: Map<string, CheckedFile>; stderr: string }> {
  const r = await wflo(['shards', 'check', ...args, '--json']);
  const files = new Map<string, CheckedFile>();
  if (r.stdout.trim()) for (const f of (JSON.parse(r.stdout) as { files: CheckedFile[] }).files) files.set(path.basename(f.path), f);
  return { code: r.code, files, stderr: r.stderr };
}

/** Python helpers shared by the writers below: a feasible-looking layout per seed. */
const PRELUDE = String.raw`
import h5py, math, sys
import numpy as np
d = sys.argv[1]
def layout(seed, n=5):
    return np.array([[100.0 * k + seed, 50.0 * k] for k in range(n)])
`;

test('declared sizes the file cannot hold are refused unread, in one line, by check and merge', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  runPython(
    PRELUDE +
      String.raw`
N = 10 ** 12
cols = [('farm_id', 'i4'), ('farm_type', 'i4'), ('seed', 'i8'), ('aep', 'f8')]
with h5py.File(d + '/chunked.h5', 'w') as h:          # chunked, maxshape huge, no chunk ever written
    for name, dt in cols:
        h.create_dataset(name, shape=(N,), maxshape=(None,), chunks=(4096,), dtype=dt)
    h.create_dataset('layout', shape=(N, 16, 2), maxshape=(None, 16, 2), chunks=(64, 16, 2), dtype='f8')
with h5py.File(d + '/contiguous.h5', 'w') as h:       # contiguous, storage never allocated
    for name, dt in cols:
        h.create_dataset(name, shape=(N,), dtype=dt)
    h.create_dataset('layout', shape=(N, 16, 2), dtype='f8')
with h5py.File(d + '/under_cap.h5', 'w') as h:        # 10^5 rows: under --max-rows, but 25.6 MB in a 2.5 KB file
    for name, dt in cols:
        h.create_dataset(name, shape=(10 ** 5,), maxshape=(None,), chunks=(4096,), dtype=dt)
    h.create_dataset('layout', shape=(10 ** 5, 16, 2), maxshape=(None, 16, 2), chunks=(64, 16, 2), dtype='f8')
with h5py.File(d + '/one_record.h5', 'w') as h:       # one record's aep claims 10^12 values; the other record is fine
    g = h.create_group('optimized_layouts')
    for s in range(2):
        r = g.create_group('farm_0_type_0_seed_%d' % s)
        r.create_dataset('layout', data=layout(s))
        if s == 0:
            r.create_dataset('aep', shape=(N,), maxshape=(None,), chunks=(1024,), dtype='f8')
        else:
            r.create_dataset('aep', data=1234.5)
with h5py.File(d + '/ten_rows.h5', 'w') as h:         # a real file: 10 rows, read unless --max-rows is below 10
    h.create_dataset('farm_id', data=np.zeros(10, dtype='i4'))
    h.create_dataset('farm_type', data=np.zeros(10, dtype='i4'))
    h.create_dataset('seed', data=np.arange(10))
    h.create_dataset('aep', data=np.full(10, 1000.0))
    h.create_dataset('layout', data=np.stack([layout(s) for s in range(10)]))
`,
    [dir],
  );
  for (const f of ['chunked.h5', 'contiguous.h5', 'under_cap.h5']) assert.ok(fs.statSync(path.join(dir, f)).size < 4096, f);

  const r = await check([dir]);
  assert.equal(r.code, 3, r.stderr);
  for (const name of ['chunked.h5', 'contiguous.h5']) {
    const f = r.files.get(name)!;
    assert.equal(f.class, 'unreadable', name);
    assert.match(
      f.detail,
      /^dataset farm_id declares 1e12 values \(4e12 bytes\) in a file of \d+ bytes: they were never written \(a preallocated or forged size\); not read$/,
      name,
    );
  }
  assert.equal(r.files.get('under_cap.h5')!.class, 'unreadable');
  assert.match(r.files.get('under_cap.h5')!.detail, /^dataset layout declares 100000 × 16 × 2 values \(2\.56e7 bytes\) in a file of \d+ bytes/);
  const one = r.files.get('one_record.h5')!;
  assert.equal(one.class, 'valid');
  assert.equal(one.records, 1);
  assert.deepEqual(
    one.lost.map((l) => l.where),
    ['optimized_layouts/farm_0_type_0_seed_0'],
  );
  assert.match(one.lost[0].reason, /^dataset aep declares 1e12 values/);
  assert.equal(r.files.get('ten_rows.h5')!.class, 'valid');

  const capped = await check([path.join(dir, 'ten_rows.h5'), '--max-rows', '5']);
  assert.equal(capped.files.get('ten_rows.h5')!.class, 'unreadable');
  assert.equal(capped.files.get('ten_rows.h5')!.detail, 'dataset farm_id declares 10 rows, more than --max-rows 5; not read');

  // wflo's own format, every column resized by h5py to claim 10^12 rows (n_done to match).
  const forged = path.join(dir, 'forged', 'layouts.h5');
  fs.mkdirSync(path.dirname(forged));
  const records = [0, 1].map((seed) => makeRecord({ farmId: 0, farmType: 0, seed, nTurbines: 4, withInitial: false }));
  await writeLayoutsFile(forged, [records], { campaignName: 'forged', campaignHash: 'h', nExpected: 2, complete: true, maxTurbines: 4, nRows: 2 });
  runPython(
    String.raw`
import h5py, sys
with h5py.File(sys.argv[1], 'r+') as h:
    for name, d in h.items():
        if isinstance(d, h5py.Dataset) and d.maxshape and d.maxshape[0] is None:   # row columns; the fixed dimension scales stay
            d.resize((10 ** 12,) + d.shape[1:])
    h.attrs['n_done'] = 10 ** 12
`,
    [forged],
  );
  await assert.rejects(
    LayoutsFileReader.open(forged),
    /layouts\.h5: not a wflo layouts file: dataset \/farm_id declares 1e12 values \(4e12 bytes\) in a file of \d+ bytes/,
  );
  const forgedCheck = await check([forged]);
  assert.equal(forgedCheck.files.get('layouts.h5')!.class, 'unreadable');
  assert.match(forgedCheck.files.get('layouts.h5')!.detail, /^dataset farm_id declares 1e12 values/);

  const merged = path.join(dir, 'merged.h5');
  const m = await wflo(['shards', 'merge', path.join(dir, 'chunked.h5'), path.join(dir, 'ten_rows.h5'), '-o', merged, '--on-invalid', 'skip']);
  assert.equal(m.code, 3, m.stderr);
  assert.match(m.stdout, /chunked\.h5: unreadable - dataset farm_id declares 1e12 values/);
  assert.ok(fs.existsSync(merged));
});

test('records at the root, under a nested group path, and rows inside a group; --field mapping', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  runPython(
    PRELUDE +
      String.raw`
with h5py.File(d + '/root.h5', 'w') as h:
    h.create_group('metadata').attrs['tool'] = 'my_pipeline'
    for s in range(3):
        h.create_dataset('farm_0_type_0_seed_%d' % s, data=layout(s)).attrs['aep'] = 1000.0 + s
with h5py.File(d + '/root_keys.h5', 'w') as h:          # other key names: needs --key-pattern, then group=/
    for s in range(2):
        g = h.create_group('f0-t0-s%d' % s)
        g.create_dataset('layout', data=layout(s))
        g.attrs['aep'] = 2000.0 + s
with h5py.File(d + '/deep.h5', 'w') as h:
    h.create_group('runs/2023')
    for s in range(2):
        g = h.create_group('runs/2024/results/farm_1_type_0_seed_%d' % s)
        g.create_dataset('x', data=layout(s)[:, 0])
        g.create_dataset('y', data=layout(s)[:, 1])
        g.create_dataset('AEP_opt', data=3000.0 + s)
with h5py.File(d + '/table.h5', 'w') as h:             # rows inside a group, other column names
    t = h.create_group('table')
    t.create_dataset('wf', data=np.array([2, 2]))
    t.create_dataset('ft', data=np.array([0, 0]))
    t.create_dataset('rs', data=np.array([0, 1]))
    t.create_dataset('AEP_opt', data=np.array([4000.0, 4001.0]))
    t.create_dataset('xy', data=np.stack([layout(0), layout(1)]))
`,
    [dir],
  );
  const file = (name: string) => path.join(dir, name);

  const auto = await check([file('root.h5')]);
  assert.equal(auto.code, 0, auto.stderr);
  assert.equal(auto.files.get('root.h5')!.records, 3, 'root members named like tasks are records without any option');
  const explicitRoot = await check([file('root.h5'), '--field', 'group=/']);
  assert.equal(explicitRoot.files.get('root.h5')!.records, 3);

  const keys = await check([file('root_keys.h5'), '--field', 'group=/', '--key-pattern', 'f{farm}-t{type}-s{seed}']);
  assert.equal(keys.code, 0, JSON.stringify([...keys.files.values()]));
  assert.equal(keys.files.get('root_keys.h5')!.records, 2);

  const deepDefault = await check([file('deep.h5')]);
  assert.equal(deepDefault.files.get('deep.h5')!.class, 'schema_mismatch');
  assert.match(
    deepDefault.files.get('deep.h5')!.detail,
    /^no records: looked for members named like farm_\{farm\}_type_\{type\}_seed_\{seed\} in optimized_layouts or at the root, .*; root holds runs \(group, 2 members\)/,
  );
  const deep = await check([file('deep.h5'), '--field', 'group=runs/2024/results/', '--field', 'aep=AEP_opt']);
  assert.equal(deep.code, 0, JSON.stringify([...deep.files.values()]));
  assert.equal(deep.files.get('deep.h5')!.records, 2);

  const table = await check([
    file('table.h5'),
    '--field',
    'group=table',
    '--field',
    'farm_id=wf',
    '--field',
    'farm_type=ft',
    '--field',
    'seed=rs',
    '--field',
    'aep=AEP_opt',
    '--field',
    'layout=xy',
  ]);
  assert.equal(table.code, 0, JSON.stringify([...table.files.values()]));
  assert.equal(table.files.get('table.h5')!.records, 2);

  // All four in one merge, one set of options (candidates: the first name present wins).
  const out = path.join(dir, 'all.h5');
  const m = await wflo([
    'shards',
    'merge',
    file('root.h5'),
    file('deep.h5'),
    file('table.h5'),
    '-o',
    out,
    '--field',
    'group=runs/2024/results,table',
    '--field',
    'aep=AEP_opt,aep',
    '--field',
    'layout=xy,layout',
    '--field',
    'farm_id=wf,farm_id',
    '--field',
    'farm_type=ft,farm_type',
    '--field',
    'seed=rs,seed',
  ]);
  assert.equal(m.code, 0, m.stdout + m.stderr);
  const rows = JSON.parse(
    runPython(
      String.raw`
import h5py, json, sys
f = h5py.File(sys.argv[1], 'r')
print(json.dumps({'task': [t.decode() for t in f['task_id'][:]], 'aep': f['aep'][:].tolist()}))
`,
      [out],
    ),
  ) as { task: string[]; aep: number[] };
  assert.deepEqual(rows.task, [
    'farm_0_type_0_seed_0',
    'farm_0_type_0_seed_1',
    'farm_0_type_0_seed_2',
    'farm_1_type_0_seed_0',
    'farm_1_type_0_seed_1',
    'farm_2_type_0_seed_0',
    'farm_2_type_0_seed_1',
  ]);
  assert.deepEqual(rows.aep, [1000, 1001, 1002, 3000, 3001, 4000, 4001]);

  for (const [args, message] of [
    [['--field', 'group=../x'], /--field "group=\.\.\/x": a group path inside the file, without \. or \.\./],
    [
      ['--field', 'aep=results/aep'],
      /--field "aep=results\/aep": aep names a member of the record's group, without "\/" \(where the records are is --field group=PATH\)/,
    ],
    [['--max-rows', '0'], /--max-rows: expected an integer >= 1, got '0'/],
  ] as const) {
    const bad = await wflo(['shards', 'check', file('root.h5'), ...args]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
    assert.match(bad.stderr, message);
  }
});
