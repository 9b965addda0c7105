/**
 * The shard doctor findings of issue 8, each on files written by h5py (or made by the OS):
 * records that would blow up the output (100 000 turbines, 2.7e155 m coordinates) are rejected
 * without --expect; files killed mid-write with libver='latest' are read from a copy with the
 * superblock flags cleared exactly as `h5clear -s` clears them, and the input is never touched;
 * a directory, a symlink loop, a dangling link and a FIFO named like a shard are reported; a
 * file that cannot be opened (EACCES, injected: tests run as root) is `unreadable` and is
 * quarantined, not "changed during the merge"; a damaged group B-tree is `unreadable`.
 * (The overwrite rule and verification against duplicates: doctorPolicy.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { checkBytes } from '../../src/shards/byteCheck.js';
import { readSuperblock, withConsistencyFlagsCleared } from '../../src/shards/superblock.js';
import { makeRecord } from './helpers/records.js';
import { smashBytes, toPy, writeWithH5py } from './helpers/corpus.js';
import { writeKilledLatestFile } from './helpers/adoptionIncident.js';
import { H5PY_SKIP_MESSAGE, h5pyPython } from './helpers/python.js';
import { wflo } from './helpers/runCli.js';

const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const rec = (farmId: number, seed: number, nTurbines = 5) => makeRecord({ farmId, farmType: 0, seed, nTurbines, withInitial: false });

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-findings-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('without --expect: a 100 000-turbine record and 2.7e155 m coordinates are rejected, the rest merged', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  const good = [rec(0, 0), rec(0, 1), rec(0, 2)];
  const giant = rec(0, 3, 100_000);
  const absurd = { ...toPy(rec(0, 4)), y: [1, 2, 2.7e155, 4, 5] };
  writeWithH5py([
    { path: path.join(dir, 'w1.h5'), shape: 'groups', records: [toPy(good[0]), toPy(giant)] },
    { path: path.join(dir, 'w2.h5'), shape: 'rows', records: [toPy(good[1]), absurd, toPy(good[2])] },
  ]);
  const check = await wflo(['shards', 'check', dir]);
  assert.equal(check.code, 3, check.stderr + check.stdout);
  assert.match(check.stdout, /^  farm_0_type_0_seed_3: 100000 turbines, more than --max-turbines 10000 \(w1\.h5, optimized_layouts\/farm_0_type_0_seed_3\)$/m);
  assert.match(check.stdout, /^  farm_0_type_0_seed_4: turbine 2 at \(\S+, 2\.70e\+155\) m: coordinates beyond 1e9 m cannot be a site \(w2\.h5, row 1\)$/m);
  const out = path.join(dir, 'out', 'merged.h5');
  fs.mkdirSync(path.dirname(out));
  const merge = await wflo(['shards', 'merge', dir, '-o', out, '--on-invalid', 'skip']);
  assert.equal(merge.code, 3, merge.stderr);
  const { records } = await readLayoutsFile(out);
  assert.deepEqual(
    records.map((r) => r.taskId),
    good.map((r) => r.taskId),
  );
  assert.ok(fs.statSync(out).size < 1024 * 1024, `output stays small: ${fs.statSync(out).size} bytes`);
  // --max-turbines lowers the limit; default --on-invalid abort refuses the merge.
  const strict = await wflo(['shards', 'check', dir, '--max-turbines', '4', '--json']);
  const rejected = (JSON.parse(strict.stdout) as { files: Array<{ lost: Array<{ taskId: string; rejected?: boolean }> }> }).files.flatMap((f) =>
    f.lost.filter((l) => l.rejected).map((l) => l.taskId),
  );
  assert.equal(rejected.length, 5);
  const abort = await wflo(['shards', 'merge', dir, '-o', path.join(dir, 'out', 'again.h5')]);
  assert.equal(abort.code, 3, abort.stderr + abort.stdout);
  assert.match(abort.stderr, /merge aborted: 2 rejected records \(farm_0_type_0_seed_3 in w1\.h5: 100000 turbines/);
});

test('libver=latest files killed mid-write: flags cleared on a copy exactly as h5clear -s does, flushed records merged', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  const shards = path.join(dir, 'shards');
  fs.mkdirSync(shards);
  const file = path.join(shards, 'killed.h5');
  const records = [rec(1, 0), rec(1, 1), rec(1, 2)];
  writeKilledLatestFile(
    file,
    records.map((r) => toPy(r)),
    2,
  );
  const bytes = fs.readFileSync(file);
  const info = readSuperblock((p, n) => bytes.subarray(p, p + n), bytes.length);
  assert.equal(info.kind, 'ok');
  const sb = (info as { info: { version: number; consistencyFlags: number; superblockLength: number; signatureOffset: number } }).info;
  assert.ok(sb.version >= 2 && (sb.consistencyFlags & 1) === 1, `superblock v${sb.version} flags ${sb.consistencyFlags}`);

  // The patched superblock equals the one `h5clear -s` writes (HDF5's own tool), byte for byte.
  if (spawnSync('h5clear', ['--version'], { stdio: 'ignore' }).status === 0) {
    const cleared = path.join(dir, 'cleared.h5');
    fs.copyFileSync(file, cleared);
    execFileSync('h5clear', ['-s', cleared]);
    const expected = fs.readFileSync(cleared).subarray(sb.signatureOffset, sb.signatureOffset + sb.superblockLength);
    const ours = withConsistencyFlagsCleared(bytes.subarray(sb.signatureOffset, sb.signatureOffset + sb.superblockLength), sb.version);
    assert.deepEqual(Buffer.from(ours), Buffer.from(expected));
  } else {
    t.diagnostic('h5clear not found (apt-get install -y hdf5-tools): byte comparison skipped');
  }

  const before = digest(file);
  const check = await wflo(['shards', 'check', shards]);
  assert.equal(check.code, 0, check.stdout);
  assert.match(check.stdout, /files recovered after their writer stopped with them open \(1;/);
  assert.match(check.stdout, /killed\.h5: valid \(2 records\) - .*as h5clear -s/);
  const out = path.join(dir, 'merged.h5');
  const merge = await wflo(['shards', 'merge', shards, '-o', out]);
  assert.equal(merge.code, 0, merge.stderr);
  assert.deepEqual(
    (await readLayoutsFile(out)).records.map((r) => r.taskId),
    records.slice(0, 2).map((r) => r.taskId),
  );
  assert.equal(digest(file), before, 'the input is never modified');
  assert.deepEqual(fs.readdirSync(shards), ['killed.h5'], 'no copy left behind');
});

test('a directory, a symlink loop, a dangling link and a FIFO named like shards are reported as unreadable', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  writeWithH5py([{ path: path.join(dir, 'good.h5'), shape: 'groups', records: [toPy(rec(2, 0))] }]);
  fs.mkdirSync(path.join(dir, 'folder.h5'));
  fs.symlinkSync('loop_b.h5', path.join(dir, 'loop_a.h5'));
  fs.symlinkSync('loop_a.h5', path.join(dir, 'loop_b.h5'));
  fs.symlinkSync('gone.h5', path.join(dir, 'dangling.h5'));
  execFileSync('mkfifo', [path.join(dir, 'pipe.h5')]);
  const check = await wflo(['shards', 'check', dir]);
  assert.equal(check.code, 3, check.stderr + check.stdout);
  assert.match(check.stdout, /^  folder\.h5: unreadable - a directory named like a shard, not a file$/m);
  assert.match(check.stdout, /^  loop_a\.h5: unreadable - a symbolic link loop \(ELOOP\), not a file$/m);
  assert.match(check.stdout, /^  loop_b\.h5: unreadable - a symbolic link loop \(ELOOP\), not a file$/m);
  assert.match(check.stdout, /^  dangling\.h5: unreadable - a dangling symbolic link to gone\.h5$/m);
  assert.match(check.stdout, /^  pipe\.h5: unreadable - a FIFO \(named pipe\) named like a shard, not a file$/m);
  assert.match(check.stdout, /6 files: unreadable 5, valid 1/);
  const merge = await wflo(['shards', 'merge', dir, '-o', path.join(dir, 'merged.out'), '--on-invalid', 'quarantine']);
  assert.equal(merge.code, 3, merge.stderr);
  assert.match(merge.stdout, /invalid files \(5\):/);
  assert.doesNotMatch(merge.stdout, /changed during the merge/);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'quarantine')).sort(), ['dangling.h5', 'folder.h5', 'loop_a.h5', 'loop_b.h5', 'pipe.h5']);
});

test('a file that cannot be opened is unreadable (unit, injected EACCES) and is quarantined, not "changed during the merge"', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  writeWithH5py([
    { path: path.join(dir, 'good.h5'), shape: 'groups', records: [toPy(rec(3, 0))] },
    { path: path.join(dir, 'locked.h5'), shape: 'groups', records: [toPy(rec(3, 1))] },
  ]);
  const saved = process.env.WFLO_SHARD_OPEN_FAULT;
  process.env.WFLO_SHARD_OPEN_FAULT = 'EACCES:locked.h5';
  try {
    const check = checkBytes(path.join(dir, 'locked.h5'));
    assert.equal(check.class, 'unreadable');
    assert.equal(check.detail, 'cannot open the file: permission denied (EACCES)');
    assert.equal(check.bytes, fs.statSync(path.join(dir, 'locked.h5')).size, 'size known from stat');
  } finally {
    if (saved === undefined) delete process.env.WFLO_SHARD_OPEN_FAULT;
    else process.env.WFLO_SHARD_OPEN_FAULT = saved;
  }
  const env = { WFLO_SHARD_OPEN_FAULT: 'EACCES:locked.h5' };
  const merge = await wflo(['shards', 'merge', dir, '-o', path.join(dir, 'merged.out'), '--on-invalid', 'quarantine'], env);
  assert.equal(merge.code, 3, merge.stderr);
  assert.match(merge.stdout, /locked\.h5: unreadable - cannot open the file: permission denied \(EACCES\) -> quarantine\/locked\.h5/);
  assert.doesNotMatch(merge.stdout, /changed during the merge/);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'quarantine')), ['locked.h5']);
});

test('damage to a group B-tree or a row column is unreadable, not schema_mismatch', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = tempDir(t);
  const file = path.join(dir, 'btree.h5');
  // Default libver: groups are symbol tables indexed by a version 1 B-tree ("TREE" nodes, HDF5
  // file format spec III.A.1); the root's is written first, optimized_layouts' second.
  writeWithH5py([{ path: file, shape: 'groups', records: [0, 1, 2, 3].map((s) => toPy(rec(4, s))) }]);
  const bytes = fs.readFileSync(file);
  const trees: number[] = [];
  for (let at = bytes.indexOf('TREE'); at >= 0; at = bytes.indexOf('TREE', at + 1)) trees.push(at);
  assert.equal(trees.length, 2, 'root and optimized_layouts B-trees');
  bytes.write('XXXX', trees[1], 'latin1');
  fs.writeFileSync(file, bytes);
  // Rows shape: the layout column's object header smashed.
  const rows = path.join(dir, 'rows.h5');
  const addresses = writeWithH5py([{ path: rows, shape: 'rows', records: [0, 1].map((s) => toPy(rec(4, 10 + s))), reportAddr: ['layout'] }]);
  smashBytes(rows, addresses[rows]!.layout!, 16);
  const check = await wflo(['shards', 'check', dir]);
  assert.equal(check.code, 3, check.stderr + check.stdout);
  assert.match(check.stdout, /^  btree\.h5: unreadable - HDF5 cannot read group optimized_layouts: /m);
  assert.match(check.stdout, /^  rows\.h5: unreadable - HDF5 cannot read layout: /m);
});
