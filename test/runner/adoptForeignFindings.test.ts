/**
 * A source given to `wflo run --adopt` that yields nothing says why, file by file, the way
 * `wflo shards check` would: a damaged group B-tree (unreadable), a file with no records (and what
 * was looked for), records of another campaign (and the grid they missed), a 2.5 KB file whose
 * datasets claim 10^12 rows (refused unread), a 0-byte file, a symbolic link loop, records with
 * a NaN coordinate (in a file with a good record, and alone). A named path that is a symbolic link loop is one line, exit 2. `--dry-run
 * --adopt` previews the same per source and writes nothing. Files are written by h5py.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { hasH5py, PYTHON } from '../helpers.js';
import { runWflo, tempDir, writeCampaign } from './runnerTestKit.js';

const WRITER = String.raw`
import h5py, math, sys
import numpy as np
d = sys.argv[1]
ring = lambda turn: np.array([[1000 * math.cos(2 * math.pi * k / 16 + turn), 1000 * math.sin(2 * math.pi * k / 16 + turn)] for k in range(16)])

def groups(path, records):
    with h5py.File(path, 'w') as h:
        h.create_dataset('init', data=np.zeros(1))
        g = h.create_group('optimized_layouts')
        for key, layout, aep in records:
            g.create_dataset(key, data=layout).attrs['aep'] = aep

# A group B-tree damaged: the second 'TREE' node (HDF5 spec III.A.1) is optimized_layouts'.
groups(d + '/btree.h5', [('farm_0_type_0_seed_%d' % s, ring(0.1 * s), 4e5) for s in range(2)])
raw = bytearray(open(d + '/btree.h5', 'rb').read())
at = raw.find(b'TREE', raw.find(b'TREE') + 1)
raw[at:at + 4] = b'XXXX'
open(d + '/btree.h5', 'wb').write(bytes(raw))

with h5py.File(d + '/unrelated.h5', 'w') as h:
    h.create_dataset('temperature', data=np.arange(10.0))
    h.create_group('config')

groups(d + '/elsewhere.h5', [('farm_7_type_0_seed_%d' % s, ring(0.2 * s), 4e5) for s in range(2)])

bad = ring(0.3)
bad[2] = [np.nan, 5.0]
groups(d + '/good.h5', [('farm_0_type_0_seed_0', bad, 4e5), ('farm_0_type_0_seed_1', ring(0.4), 4e5)])
worse = ring(0.5)
worse[4] = [np.nan, 7.0]
groups(d + '/nan_only.h5', [('farm_0_type_0_seed_1', worse, 4e5)])

# Datasets declaring 10^12 rows that were never written: the file stays about 2.5 KB.
N = 10 ** 12
with h5py.File(d + '/huge.h5', 'w') as h:
    for name, dt in [('farm_id', 'i4'), ('farm_type', 'i4'), ('seed', 'i8'), ('aep', 'f8')]:
        h.create_dataset(name, shape=(N,), maxshape=(None,), chunks=(1024,), dtype=dt)
    h.create_dataset('layout', shape=(N, 16, 2), maxshape=(None, 16, 2), chunks=(64, 16, 2), dtype='f8')
`;

function campaign(dir: string): string {
  return writeCampaign(path.join(dir, 'campaign.yaml'), {
    name: 'findings',
    output: path.join(dir, 'out'),
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
    seeds: { start: 0, count: 2 },
    optimizer: { method: 'gradient', max_iterations: 3, outer_iterations: 1, wec: [1] },
    workers: 2,
    timeout_s: 60,
    attempts: 2,
    backoff: { initial_s: 0.05, factor: 2, max_s: 0.1 },
  });
}

/** Names and modification times of everything under `dir` (to show nothing was written). */
function listing(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
    .map((p) => `${p} ${fs.lstatSync(p).mtimeMs} ${fs.lstatSync(p).size}`);
}

test('every --adopt file that yields nothing says why; --dry-run previews it and writes nothing', async (t) => {
  if (!hasH5py()) return t.skip('python3-h5py not installed');
  const dir = tempDir('adopt-findings');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const incoming = path.join(dir, 'incoming');
  fs.mkdirSync(incoming);
  const py = spawnSync(PYTHON, ['-c', WRITER, incoming], { encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  assert.ok(fs.statSync(path.join(incoming, 'huge.h5')).size < 4096);
  fs.writeFileSync(path.join(incoming, 'empty.h5'), '');
  fs.symlinkSync('loop_b.h5', path.join(incoming, 'loop_a.h5'));
  fs.symlinkSync('loop_a.h5', path.join(incoming, 'loop_b.h5'));
  const file = campaign(dir);
  const out = path.join(dir, 'out');

  /** The line about `name` (exactly one), without the prefix. */
  const lineAbout = (text: string, name: string, prefix: string): string => {
    const lines = text.split('\n').filter((l) => l.startsWith(`${prefix}${path.join('incoming', name)}:`));
    assert.equal(lines.length, 1, `one line about ${name} in\n${text}`);
    return lines[0].slice(prefix.length);
  };
  const expectFindings = (text: string, prefix: string) => {
    assert.match(lineAbout(text, 'btree.h5', prefix), /^incoming\/btree\.h5: unreadable - HDF5 cannot read group optimized_layouts: /);
    assert.match(
      lineAbout(text, 'unrelated.h5', prefix),
      /^incoming\/unrelated\.h5: schema_mismatch - no records: looked for members named like farm_\{farm\}_type_\{type\}_seed_\{seed\} in optimized_layouts or at the root, and for row datasets farm_id, farm_type, seed .*; root holds config \(group, 0 members\), temperature \(dataset \[10\]\)/,
    );
    assert.match(
      lineAbout(text, 'elsewhere.h5', prefix),
      /^incoming\/elsewhere\.h5: 2 records; none of them a task of campaign findings \(e\.g\. farm_7_type_0_seed_0; its grid: farms 0, farm types 0, seeds 0-1\)$/,
    );
    assert.match(
      lineAbout(text, 'huge.h5', prefix),
      /^incoming\/huge\.h5: unreadable - dataset \w+ declares 1e12( × 16 × 2)? values \([\d.e]+ bytes\) in a file of \d+ bytes: they were never written/,
    );
    assert.match(lineAbout(text, 'empty.h5', prefix), /^incoming\/empty\.h5: empty - file is 0 bytes$/);
    assert.match(lineAbout(text, 'loop_a.h5', prefix), /^incoming\/loop_a\.h5: unreadable - a symbolic link loop \(ELOOP\), not a file$/);
    assert.match(
      text,
      /not adopted: farm_0_type_0_seed_0 from incoming\/good\.h5 \(optimized_layouts\/farm_0_type_0_seed_0\): turbine 2 has a non-finite position \(NaN, 5\)/,
    );
    assert.match(lineAbout(text, 'nan_only.h5', prefix), /^incoming\/nan_only\.h5: rejected - no usable record: 1 record rejected/);
    assert.match(
      text,
      /not adopted: farm_0_type_0_seed_1 from incoming\/nan_only\.h5 \(optimized_layouts\/farm_0_type_0_seed_1\): turbine 4 has a non-finite position \(NaN, 7\)/,
    );
  };

  await t.test('--dry-run --adopt before any run: the preview, nothing written', async () => {
    const r = await runWflo(['run', file, '--dry-run', '--adopt', 'incoming'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    expectFindings(r.stdout, '    ');
    // The preview passes the record through the run's gate: its AEP (4e5 MWh) is not the layout's, so the run would not adopt it.
    assert.match(r.stdout, /^ {2}incoming: 3 records in 9 files, 1 of them tasks of this campaign: 0 to adopt, 1 rejected, 0 already done, 0 repeated$/m);
    assert.match(
      r.stdout,
      /^ {4}not adopted: farm_0_type_0_seed_1 from incoming\/good\.h5: AEP 400000 MWh differs from recomputed [\d.]+ MWh \(rel [\d.]+e-\d\)$/m,
    );
    assert.match(
      r.stdout,
      /^a run would adopt 0 results, reject 1 \(they will be computed\), 2 outside this campaign's grid ignored; 1 of the rejected failed only on their AEP \(computed with another model\?\): with --aep recompute they would be adopted/m,
    );
    assert.match(r.stdout, /a run would compute 2 tasks; dry run: nothing written/);
    assert.equal(fs.existsSync(out), false);
  });

  await t.test('run --adopt: one line per file, then the run goes on', async () => {
    const first = await runWflo(['run', file, '--quiet'], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    const before = listing(out);
    const preview = await runWflo(['run', file, '--dry-run', '--adopt', 'incoming'], { cwd: dir });
    assert.match(preview.stdout, /incoming: 3 records in 9 files, 1 of them tasks of this campaign: 0 to adopt, 0 rejected, 1 already done, 0 repeated/);
    assert.deepEqual(listing(out), before, 'the dry run wrote nothing');

    const r = await runWflo(['run', file, '--quiet', '--adopt', 'incoming'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    expectFindings(r.stderr, 'wflo: --adopt ');
    assert.match(r.stderr, /^wflo: --adopt incoming: 3 records from 2 of 9 files, 1 of them tasks of campaign findings$/m);
    assert.match(r.stderr, /^wflo: adopted 0 results, 1 already done/m);
  });

  await t.test('a campaign file that does not load: its one line, exit 2, the files being read are let go', async () => {
    const bad = writeCampaign(path.join(dir, 'bad.yaml'), 'name: bad\nfarms: [\n');
    const r = await runWflo(['run', bad, '--adopt', 'incoming'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^wflo: \S*bad\.yaml:\d+: farms: /);
  });

  await t.test('a named path that is a symbolic link loop: one line, exit 2', async () => {
    const r = await runWflo(['run', file, '--adopt', path.join('incoming', 'loop_a.h5')], { cwd: dir });
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim(), 'wflo: --adopt incoming/loop_a.h5: a symbolic link loop (ELOOP), not a file or folder');
  });
});
