/**
 * The shard doctor on a corpus written by h5py with every broken class (helpers/brokenCorpus):
 * every file lands in its class, the merge keeps every usable record and only those (values
 * compared with the generated records), policies (abort/skip/quarantine, conflict rules,
 * cleanup) behave as documented, the audit lists every file, and h5py reads the output.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { checkShards } from '../../src/shards/shardCheck.js';
import { mergeShards, type MergeOptions } from '../../src/shards/shardMerge.js';
import { buildReadOptions } from '../../src/shards/readOptions.js';
import { listShardFiles } from '../../src/shards/fileSelection.js';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { CheckFailed } from '../../src/util/errors.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';
import { buildBrokenCorpus, type BrokenCorpus } from './helpers/brokenCorpus.js';
import { dumpWithH5py, H5PY_SKIP_MESSAGE, h5pyPython } from './helpers/python.js';
import { writeWithH5py, toPy } from './helpers/corpus.js';
import { makeRecord } from './helpers/records.js';

const haveH5py = !!h5pyPython();
let corpus: BrokenCorpus;

/** A private copy of the corpus (merges move and delete files). */
function copyCorpus(): string {
  const dir = fs.mkdtempSync(`${corpus.dir}-copy-`);
  for (const name of fs.readdirSync(corpus.dir)) fs.copyFileSync(path.join(corpus.dir, name), path.join(dir, name));
  return dir;
}

function digestDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (fs.statSync(full).isFile()) out[name] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
  return out;
}

function mergeOptions(dir: string, output: string, extra: Partial<MergeOptions> = {}): MergeOptions {
  return {
    inputs: [dir],
    files: listShardFiles(dir, '*.h5', [output]),
    output,
    read: buildReadOptions(),
    onInvalid: 'quarantine',
    onConflict: 'best-aep',
    cleanup: false,
    force: false,
    jobs: 2,
    ...extra,
  };
}

function assertSameValues(actual: LayoutRecord, expected: LayoutRecord, fullFields: boolean): void {
  assert.equal(actual.taskId, expected.taskId);
  assert.equal(actual.nTurbines, expected.nTurbines, expected.taskId);
  assert.equal(actual.aep, expected.aep, expected.taskId);
  assert.deepEqual(actual.x, expected.x, expected.taskId);
  assert.deepEqual(actual.y, expected.y, expected.taskId);
  // Columns the reader adds beyond a shard's record (e.g. source, spec hash) are not compared.
  if (fullFields) assert.deepEqual(Object.fromEntries(Object.keys(expected).map((k) => [k, (actual as unknown as Record<string, unknown>)[k]])), expected);
}

before(async () => {
  if (haveH5py) corpus = await buildBrokenCorpus();
});

after(() => {
  if (!corpus) return;
  const parent = path.dirname(corpus.dir);
  const base = path.basename(corpus.dir);
  for (const name of fs.readdirSync(parent)) {
    if (name.startsWith(base)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
});

test('check: every file of the corpus lands in its class, with its usable and unusable records', async (t) => {
  if (!haveH5py) return t.skip(H5PY_SKIP_MESSAGE);
  const report = await checkShards({ files: listShardFiles(corpus.dir, '*.h5'), read: buildReadOptions(), jobs: 2 });
  assert.equal(report.files.length, corpus.expect.size);
  for (const f of report.files) {
    const name = path.basename(f.path);
    const e = corpus.expect.get(name)!;
    assert.equal(f.class, e.class, `${name}: ${f.detail}`);
    assert.equal(f.records, e.usable.length, `${name} records: ${f.detail}`);
    assert.ok(f.detail.length > 0 && !f.detail.includes('\n'), `${name} has a one-line detail`);
    if (e.lost) assert.deepEqual(f.lost.map((l) => l.taskId).sort(), [...e.lost].sort(), `${name} lost`);
  }
  const detail = (name: string) => report.files.find((f) => path.basename(f.path) === name)!.detail;
  assert.match(detail('badlen.h5'), /unequal lengths: .*aep 1/);
  assert.match(detail('nan_some.h5'), /aep is NaN/);
  assert.match(detail('smashed.h5'), /HDF5 cannot read it/);
  assert.match(detail('trunc_1.h5'), /ends inside the .*superblock/);
  assert.match(detail('trunc_3.h5'), /1 bytes missing/);
  assert.match(detail('noise.h5'), /signature not found at offsets 0, 512, 1024, 2048/);
  assert.match(detail('unknown.h5'), /results \(dataset \[3,4\]\)/);
  assert.match(detail('init_only.h5'), /only init/);
  // Duplicates across files: one identical, one conflicting.
  const byTask = new Map(report.duplicates.map((d) => [d.taskId, d]));
  assert.equal(byTask.get(corpus.identicalTaskId)?.identical, true);
  assert.equal(byTask.get(corpus.conflict.taskId)?.identical, false);
  assert.equal(report.duplicates.length, 2);
  assert.equal(report.conflicts, 1);
  assert.equal(report.problems, true);
  assert.equal(report.tasks, corpus.records.size);
});

test('merge --on-invalid quarantine --on-conflict best-aep: every usable record, only those, read back by h5py', async (t) => {
  if (!haveH5py) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = copyCorpus();
  const output = path.join(path.dirname(dir), `${path.basename(dir)}-merged.h5`);
  const before = digestDir(dir);
  const report = await mergeShards(mergeOptions(dir, output));
  assert.equal(report.outcome, 'merged');
  const { records, info } = await readLayoutsFile(output);
  assert.deepEqual(records.map((r) => r.taskId).sort(), [...corpus.records.keys()].sort());
  for (const r of records) {
    const expected = r.taskId === corpus.conflict.taskId ? corpus.conflict.inRows : corpus.records.get(r.taskId)!;
    assertSameValues(r, expected, r.farmId === 4);
  }
  assert.equal(records.find((r) => r.taskId === corpus.conflict.taskId)!.aep, corpus.conflict.inRows.aep, 'best-aep keeps the higher AEP');
  assert.equal(info.source, 'wflo shards merge');
  assert.equal(info.nExpected, -1);
  // Invalid files moved to quarantine/, unchanged; every other input untouched.
  const invalid = [...corpus.expect]
    .filter(([, e]) => ['empty', 'no_signature', 'truncated', 'unreadable', 'schema_mismatch'].includes(e.class))
    .map(([n]) => n)
    .sort();
  assert.deepEqual(fs.readdirSync(path.join(dir, 'quarantine')).sort(), invalid);
  const after = digestDir(dir);
  for (const [name, hash] of Object.entries(before)) {
    if (invalid.includes(name))
      assert.equal(
        createHash('sha256')
          .update(fs.readFileSync(path.join(dir, 'quarantine', name)))
          .digest('hex'),
        hash,
      );
    else assert.equal(after[name], hash, `${name} untouched`);
  }
  // Audit: one file event per input with its class; the summary names each quarantined file.
  const events = fs
    .readFileSync(report.auditPath, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const fileEvents = events.filter((e) => e.event === 'file');
  assert.equal(fileEvents.length, corpus.expect.size);
  for (const e of fileEvents) assert.equal(e.class, corpus.expect.get(path.basename(e.path as string))!.class);
  assert.equal(events.at(-1)!.event, 'merge_finished');
  assert.equal(events.at(-1)!.outcome, 'merged');
  assert.equal(events.at(-1)!.rows, corpus.records.size);
  const conflictEvent = events.find((e) => e.event === 'duplicate' && e.task_id === corpus.conflict.taskId)!;
  assert.equal((conflictEvent.chosen as { path: string }).path, path.join(dir, 'rows.h5'));
  const summary = fs.readFileSync(report.summaryPath, 'utf8');
  for (const name of invalid) assert.match(summary, new RegExp(`${name.replace('.', '\\.')}: .* -> quarantine/${name.replace('.', '\\.')}`));
  // An independent reader agrees.
  const dump = dumpWithH5py(output);
  assert.deepEqual((dump.datasets.task_id.value as string[]).slice().sort(), [...corpus.records.keys()].sort());
  const aepByTask = new Map((dump.datasets.task_id.value as string[]).map((id, i) => [id, (dump.datasets.aep.value as number[])[i]]));
  for (const [id, r] of corpus.records) assert.equal(aepByTask.get(id), id === corpus.conflict.taskId ? corpus.conflict.inRows.aep : r.aep);
});

test('merge policies: abort by default, conflicts refused unless a rule is chosen, first rule, cleanup', async (t) => {
  if (!haveH5py) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = copyCorpus();
  const out = (name: string) => path.join(path.dirname(dir), `${path.basename(dir)}-${name}.h5`);
  const before = digestDir(dir);
  const invalidCount = [...corpus.expect.values()].filter((e) =>
    ['empty', 'no_signature', 'truncated', 'unreadable', 'schema_mismatch'].includes(e.class),
  ).length;
  assert.equal(invalidCount, 13);
  await assert.rejects(mergeShards(mergeOptions(dir, out('abort'), { onInvalid: 'abort' })), (err: Error) => {
    assert.ok(err instanceof CheckFailed);
    assert.match(err.message, /^merge aborted: 13 invalid files \(badkeys\.h5 is schema_mismatch: .*\); nothing written/);
    return true;
  });
  assert.equal(fs.existsSync(out('abort')), false);
  assert.deepEqual(digestDir(dir), before, 'inputs untouched');
  const abortAudit = fs
    .readFileSync(`${out('abort')}.audit.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(abortAudit.at(-1).outcome, 'aborted');

  await assert.rejects(mergeShards(mergeOptions(dir, out('maxinv'), { onInvalid: 'skip', maxInvalid: 12 })), /13 invalid files exceed --max-invalid 12/);
  await assert.rejects(mergeShards(mergeOptions(dir, out('conflict'), { onInvalid: 'skip', onConflict: 'error' })), (err: Error) => {
    assert.ok(err instanceof CheckFailed);
    assert.match(
      err.message,
      new RegExp(`1 task with conflicting duplicates \\(${corpus.conflict.taskId}: aep .* in dup_conflict\\.h5 .* vs aep .* in rows\\.h5`),
    );
    return true;
  });
  assert.deepEqual(digestDir(dir), before, 'inputs untouched');

  // first: dup_conflict.h5 sorts before rows.h5, so its (lower) AEP is kept. Skip leaves invalid files.
  const first = await mergeShards(mergeOptions(dir, out('first'), { onInvalid: 'skip', onConflict: 'first', maxInvalid: 13 }));
  assert.equal(first.rows, corpus.records.size);
  const firstRecords = (await readLayoutsFile(out('first'))).records;
  assert.equal(firstRecords.find((r) => r.taskId === corpus.conflict.taskId)!.aep, corpus.conflict.inConflictFile.aep);
  assert.deepEqual(digestDir(dir), before, 'skip leaves every input in place');

  // An existing output is never replaced without force.
  await assert.rejects(mergeShards(mergeOptions(dir, out('first'), { onInvalid: 'skip', onConflict: 'first' })), /already exists/);

  // cleanup: deletes only inputs whose every record reached the output (or is an identical copy).
  const cleaned = await mergeShards(mergeOptions(dir, out('cleanup'), { onInvalid: 'skip', onConflict: 'best-aep', cleanup: true }));
  const deleted = cleaned.deleted.map((p) => path.basename(p)).sort();
  const expectedDeleted = [...corpus.expect]
    .filter(([name, e]) => (e.class === 'valid' || e.class === 'placeholder_only') && !e.lost && name !== 'dup_conflict.h5')
    .map(([name]) => name)
    .sort();
  assert.deepEqual(deleted, expectedDeleted);
  for (const name of ['nan_some.h5', 'smashed.h5', 'dup_conflict.h5', 'empty.h5', 'badlen.h5']) assert.ok(fs.existsSync(path.join(dir, name)), `${name} kept`);
  assert.equal((await readLayoutsFile(out('cleanup'))).records.length, corpus.records.size);
});

test("--key-pattern and --field map other pipelines' names", async (t) => {
  if (!haveH5py) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = fs.mkdtempSync(`${corpus.dir}-names-`);
  fs.copyFileSync(path.join(corpus.dir, 'badkeys.h5'), path.join(dir, 'badkeys.h5'));
  const custom = [0, 1, 2].map((s) => makeRecord({ farmId: 7, farmType: 3, seed: s, nTurbines: 4, withInitial: false }));
  writeWithH5py([
    {
      path: path.join(dir, 'custom.h5'),
      shape: 'groups',
      group: 'results',
      aepName: 'AEP_opt',
      records: custom.map((r) => ({ ...toPy(r), key: `f${r.farmId}t${r.farmType}s${r.seed}` })),
    },
  ]);
  const files = listShardFiles(dir, '*.h5');
  const plain = await checkShards({ files, read: buildReadOptions(), jobs: 1 });
  assert.deepEqual(
    plain.files.map((f) => f.class),
    ['schema_mismatch', 'schema_mismatch'],
  );
  assert.match(plain.files[0].detail, /no member of optimized_layouts matches --key-pattern farm_\{farm\}_type_\{type\}_seed_\{seed\} \(e\.g\. "f3t0s0"\)/);
  const mapped = await checkShards({
    files,
    read: buildReadOptions({ keyPattern: 'f{farm}t{type}s{seed}', fields: ['group=optimized_layouts,results', 'aep=aep,AEP_opt'] }),
    jobs: 1,
  });
  assert.deepEqual(
    mapped.files.map((f) => [f.class, f.records]),
    [
      ['valid', 2],
      ['valid', 3],
    ],
  );
  const regex = await checkShards({
    files: [files[1]],
    read: buildReadOptions({ keyPattern: '^f(?<farm>\\d+)t(?<type>\\d+)s(?<seed>\\d+)$', fields: ['group=results', 'aep=AEP_opt'], shape: 'groups' }),
    jobs: 1,
  });
  assert.equal(regex.files[0].records, 3);
});

test('workers SIGKILLed by the OS: unflushed records are reported as unreachable, flushed ones kept', async (t) => {
  const python = h5pyPython();
  if (!python) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = fs.mkdtempSync(`${corpus.dir}-killed-`);
  const script = `
import h5py, numpy as np, os, signal, sys
path, flush_after = sys.argv[1], int(sys.argv[2])
f = h5py.File(path, 'w')
f.create_dataset('init', data=np.zeros(1))
f.flush()
g = f.create_group('optimized_layouts')
for s in range(5):
    d = g.create_dataset('farm_0_type_0_seed_%d' % s, data=np.arange(32.0).reshape(16, 2) + s)
    d.attrs['aep'] = 1000.0 + s
    if s == flush_after:
        f.flush()
os.kill(os.getpid(), signal.SIGKILL)
`;
  for (const [name, flushAfter] of [
    ['never.h5', -1],
    ['after3.h5', 2],
  ] as const) {
    const r: SpawnSyncReturns<Buffer> = spawnSync(python, ['-c', script, path.join(dir, name), String(flushAfter)]);
    assert.equal(r.signal, 'SIGKILL', 'the writer died without closing its file');
  }
  const report = await checkShards({ files: listShardFiles(dir, '*.h5'), read: buildReadOptions(), jobs: 1 });
  const [after3, never] = report.files;
  assert.equal(never.class, 'placeholder_only');
  assert.match(never.detail, /only init .*\d+ bytes past the superblock's end of file \(written after the last flush, not reachable\)/);
  assert.equal(after3.class, 'valid');
  assert.equal(after3.records, 3, 'the three records flushed before the kill survive');
});
