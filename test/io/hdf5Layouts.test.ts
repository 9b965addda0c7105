/**
 * Tests of wflo's HDF5 output (`layouts.h5`): round trip, the exact schema as h5py and h5dump
 * see it (every column, dtype, attribute), an empty file, and the atomic-write guarantees
 * (failure mid-write, ENOSPC, SIGKILL of the writer, single-writer lock).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readLayoutsFile, streamLayoutsFile, verifyLayoutsFile, writeLayoutsFile, type LayoutsFileMeta } from '../../src/io/hdf5/index.js';
import { InputError, RuntimeFailure } from '../../src/util/errors.js';
import { VERSION } from '../../src/version.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';
import { batchesOf, makeGridRecords, makeRecord } from '../shards/helpers/records.js';
import { dumpWithH5py, H5DUMP_SKIP_MESSAGE, H5PY_SKIP_MESSAGE, h5pyPython, hasH5dump } from '../shards/helpers/python.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-h5-'));
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function metaFor(records: LayoutRecord[], extra: Partial<LayoutsFileMeta> = {}): LayoutsFileMeta {
  return {
    campaignName: 'test-campaign',
    campaignHash: 'sha256:0123abcd',
    nExpected: records.length,
    complete: true,
    maxTurbines: Math.max(0, ...records.map((r) => r.nTurbines)),
    nRows: records.length,
    ...extra,
  };
}

/** Records with turbine counts 4, 9 and 16 so NaN padding is exercised; seeds beyond 2^32. */
function sampleRecords(): LayoutRecord[] {
  const grid = makeGridRecords(2, 3, 4, (t) => [4, 9, 16][t]);
  grid.push(makeRecord({ farmId: 3, farmType: 0, seed: 2 ** 40 + 7, nTurbines: 5 }));
  return grid;
}

function sameFloat(actual: unknown, expected: number): boolean {
  return Number.isNaN(expected) ? actual === 'NaN' : actual === expected;
}

test('round trip: every field of every record reads back identical, also through the stream reader', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'layouts.h5');
  const records = sampleRecords();
  const result = await writeLayoutsFile(file, batchesOf(records, 7), metaFor(records, { farms: { 0: { name: 'a' } }, types: { 0: { n: 4 } } }));
  assert.equal(result.rows, records.length);
  assert.equal(result.bytes, fs.statSync(file).size);
  const back = await readLayoutsFile(file);
  assert.equal(back.records.length, records.length);
  for (let i = 0; i < records.length; i++) assert.deepEqual(back.records[i], records[i]);
  const streamed: LayoutRecord[] = [];
  for await (const batch of streamLayoutsFile(file, 5)) {
    assert.ok(batch.length <= 5);
    streamed.push(...batch);
  }
  assert.deepEqual(streamed, records);
  assert.deepEqual(back.farms, { 0: { name: 'a' } });
  assert.deepEqual(back.types, { 0: { n: 4 } });
  const report = await verifyLayoutsFile(file);
  assert.deepEqual(report.problems, []);
  assert.equal(report.ok, true);
  assert.deepEqual(fs.readdirSync(dir), ['layouts.h5'], 'no lock or temp file left behind');
});

test('many slices: rows cross slice and chunk boundaries and stay in order', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'big.h5');
  const records = makeGridRecords(3, 2, 50, (t) => 3 + t * 5);
  await writeLayoutsFile(file, batchesOf(records, 13), metaFor(records, { nRows: undefined }), { rowsPerSlice: 17 });
  const back = await readLayoutsFile(file);
  assert.deepEqual(back.records, records);
});

test('an array of batches needs no maxTurbines/nRows; a stream without maxTurbines is refused', async () => {
  const dir = tempDir();
  const records = sampleRecords();
  const file = path.join(dir, 'a.h5');
  const { rows } = await writeLayoutsFile(file, batchesOf(records, 4), { campaignName: 'c', campaignHash: 'h', nExpected: -1, complete: false });
  assert.equal(rows, records.length);
  assert.equal((await readLayoutsFile(file)).info.maxTurbines, 16);
  async function* stream() {
    yield records;
  }
  await assert.rejects(
    writeLayoutsFile(path.join(dir, 'b.h5'), stream(), { campaignName: 'c', campaignHash: 'h', nExpected: -1, complete: false }),
    /maxTurbines is required/,
  );
});

test('h5py reads every column with the documented dtype, shape, values and attributes', (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  return (async () => {
    const dir = tempDir();
    const file = path.join(dir, 'layouts.h5');
    const records = sampleRecords();
    const created = new Date('2024-05-06T07:08:09.000Z');
    await writeLayoutsFile(
      file,
      batchesOf(records, 5),
      metaFor(records, {
        created,
        source: 'wflo test',
        nExpected: 30,
        complete: false,
        attributes: { spec_version: 'v1', extra_number: 2.5 },
        farms: [
          {
            id: 0,
            name: 'IEA37 case 1',
            radius: 1300,
            center: [0, 0],
            vertices: [
              [0, 1],
              [2, 3],
              [4, 5],
            ],
            resource: { sectors: 16, shear: false },
          },
        ],
        types: { 1: { turbine: 'IEA37 3.35 MW', n_turbines: 16, rotor_diameter: 130.0, tags: ['a', 'b'] } },
      }),
    );
    const dump = dumpWithH5py(file);
    const tmax = 16;
    const expectedDtypes: Record<string, string> = {
      farm_id: '<i4',
      farm_type: '<i4',
      seed: '<i8',
      task_id: '|S64',
      n_turbines: '<i4',
      aep: '<f8',
      aep_initial: '<f8',
      layout: '<f8',
      initial_layout: '<f8',
      iterations: '<i4',
      evaluations: '<i8',
      wall_s: '<f8',
      attempts: '<i4',
      spec_hash: '|S64',
      source: '|S256',
      aep_reported: '<f8',
      turbine_type: '<i4',
    };
    for (const [name, dtype] of Object.entries(expectedDtypes)) {
      const ds = dump.datasets[name];
      assert.ok(ds, `dataset ${name} present`);
      assert.equal(ds.dtype, dtype, `dtype of ${name}`);
      const shape = name.includes('layout') ? [records.length, tmax, 2] : name === 'turbine_type' ? [records.length, tmax] : [records.length];
      assert.deepEqual(ds.shape, shape, `shape of ${name}`);
    }
    assert.equal(dump.datasets.aep.attrs.units.value, 'MWh');
    assert.equal(dump.datasets.aep_initial.attrs.units.value, 'MWh');
    assert.equal(dump.datasets.layout.attrs.units.value, 'm');
    assert.equal(dump.datasets.wall_s.attrs.units.value, 's');
    assert.equal(dump.datasets.aep_reported.attrs.units.value, 'MWh');
    const col = (name: string) => dump.datasets[name].value as unknown[];
    records.forEach((r, i) => {
      assert.equal(col('farm_id')[i], r.farmId);
      assert.equal(col('farm_type')[i], r.farmType);
      assert.equal(col('seed')[i], r.seed);
      assert.equal(col('task_id')[i], r.taskId);
      assert.equal(col('n_turbines')[i], r.nTurbines);
      assert.equal(col('aep')[i], r.aep);
      assert.ok(sameFloat(col('aep_initial')[i], r.aepInitial), `aep_initial row ${i}`);
      assert.equal(col('iterations')[i], r.iterations);
      assert.equal(col('evaluations')[i], r.evaluations);
      assert.ok(sameFloat(col('wall_s')[i], r.wallS), `wall_s row ${i}`);
      assert.equal(col('attempts')[i], r.attempts);
      assert.equal(col('aep_reported')[i], 'NaN', 'no producer reported an AEP of its own');
      // One turbine model per farm type here: every turbine is model 0, −1 past n_turbines.
      assert.deepEqual(
        (col('turbine_type') as number[][])[i],
        Array.from({ length: tmax }, (_, k) => (k < r.nTurbines ? 0 : -1)),
        `turbine_type row ${i}`,
      );
      const layout = (col('layout') as number[][][])[i];
      const initial = (col('initial_layout') as (number | string)[][][])[i];
      for (let turbine = 0; turbine < tmax; turbine++) {
        if (turbine < r.nTurbines) {
          assert.deepEqual(layout[turbine], [r.x[turbine], r.y[turbine]]);
          if (r.xInitial.length > 0) assert.deepEqual(initial[turbine], [r.xInitial[turbine], r.yInitial[turbine]]);
          else assert.deepEqual(initial[turbine], ['NaN', 'NaN']);
        } else {
          assert.deepEqual(layout[turbine], ['NaN', 'NaN'], `padding row ${i} turbine ${turbine}`);
          assert.deepEqual(initial[turbine], ['NaN', 'NaN']);
        }
      }
    });
    const attr = (name: string) => dump.attrs[name];
    assert.equal(attr('format').value, 'wflo-layouts');
    assert.equal(attr('format_version').value, 5);
    assert.equal(attr('format_version').dtype, '<i8');
    assert.equal(attr('campaign_name').value, 'test-campaign');
    assert.equal(attr('campaign_hash').value, 'sha256:0123abcd');
    assert.equal(attr('wflo_version').value, VERSION);
    assert.equal(attr('created').value, '2024-05-06T07:08:09.000Z');
    assert.equal(attr('n_expected').value, 30);
    assert.equal(attr('n_done').value, records.length);
    assert.equal(attr('complete').value, 0);
    assert.equal(attr('complete').dtype, '|i1');
    assert.equal(attr('max_turbines').value, tmax);
    assert.equal(attr('source').value, 'wflo test');
    assert.equal(attr('spec_version').value, 'v1');
    assert.equal(attr('extra_number').value, 2.5);
    // Definitions: lossless JSON plus h5py-browsable fields.
    const farm0 = dump.groups['farms/0'];
    assert.deepEqual(JSON.parse(farm0.attrs.json.value as string).vertices, [
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    assert.equal(farm0.attrs.radius.value, 1300);
    assert.equal(farm0.attrs.name.value, 'IEA37 case 1');
    assert.deepEqual(dump.datasets['farms/0/vertices'].shape, [3, 2]);
    assert.deepEqual(dump.datasets['farms/0/vertices'].value, [
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    assert.equal(dump.groups['farms/0/resource'].attrs.sectors.value, 16);
    assert.equal(dump.groups['farms/0/resource'].attrs.shear.value, 0);
    assert.equal(dump.groups['types/1'].attrs.rotor_diameter.value, 130);
    assert.equal(dump.groups['types/1'].attrs.n_turbines.dtype, '<i8');
    assert.deepEqual(dump.groups['types/1'].attrs.tags.value, ['a', 'b']);
  })();
});

test('h5dump reads the file and reports the documented HDF5 datatypes', (t) => {
  if (!hasH5dump()) return t.skip(H5DUMP_SKIP_MESSAGE);
  return (async () => {
    const dir = tempDir();
    const file = path.join(dir, 'layouts.h5');
    const records = sampleRecords();
    await writeLayoutsFile(file, [records], metaFor(records));
    const header = execFileSync('h5dump', ['-H', file], { encoding: 'utf8' });
    const typeOf = (name: string) => new RegExp(`DATASET "${name}" \\{\\s*DATATYPE\\s+(\\S+)`).exec(header)?.[1];
    assert.equal(typeOf('farm_id'), 'H5T_STD_I32LE');
    assert.equal(typeOf('seed'), 'H5T_STD_I64LE');
    assert.equal(typeOf('aep'), 'H5T_IEEE_F64LE');
    assert.equal(typeOf('layout'), 'H5T_IEEE_F64LE');
    assert.equal(typeOf('evaluations'), 'H5T_STD_I64LE');
    assert.equal(typeOf('task_id'), 'H5T_STRING');
    assert.match(header, /DATASET "layout" \{\s*DATATYPE\s+H5T_IEEE_F64LE\s*DATASPACE\s+SIMPLE \{ \( 25, 16, 2 \) \/ \( H5S_UNLIMITED, 16, 2 \) \}/);
    assert.equal(records.length, 25);
    const seeds = execFileSync('h5dump', ['-d', '/seed', file], { encoding: 'utf8' });
    assert.match(seeds, new RegExp(`${2 ** 40 + 7}`));
    const ids = execFileSync('h5dump', ['-d', '/task_id', file], { encoding: 'utf8' });
    assert.match(ids, /"farm_0_type_0_seed_0"/);
  })();
});

test('N = 0: an empty but valid file, readable by wflo and h5py', async (t) => {
  const dir = tempDir();
  const file = path.join(dir, 'empty.h5');
  const result = await writeLayoutsFile(file, [], { campaignName: 'none', campaignHash: 'h', nExpected: 5, complete: false, maxTurbines: 0, nRows: 0 });
  assert.equal(result.rows, 0);
  const back = await readLayoutsFile(file);
  assert.equal(back.records.length, 0);
  assert.equal(back.info.nDone, 0);
  assert.equal(back.info.maxTurbines, 1, 'Tmax is at least 1');
  assert.equal((await verifyLayoutsFile(file)).ok, true);
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dump = dumpWithH5py(file);
  assert.deepEqual(dump.datasets.aep.shape, [0]);
  assert.deepEqual(dump.datasets.layout.shape, [0, 1, 2]);
  assert.equal(dump.attrs.n_done.value, 0);
});

test('bad records are refused with one line and no output file', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'x.h5');
  const a = makeRecord({ farmId: 0, farmType: 0, seed: 1, nTurbines: 3 });
  const b = makeRecord({ farmId: 0, farmType: 0, seed: 0, nTurbines: 3 });
  await assert.rejects(writeLayoutsFile(file, [[a, b]], metaFor([a, b])), (err: Error) => {
    assert.ok(err instanceof RuntimeFailure);
    assert.match(err.message, /not sorted/);
    assert.doesNotMatch(err.message, /\n/);
    return true;
  });
  await assert.rejects(writeLayoutsFile(file, [[a, a]], metaFor([a, a])), /duplicate task farm_0_type_0_seed_1/);
  const nanAep = { ...a, aep: NaN };
  await assert.rejects(writeLayoutsFile(file, [[nanAep]], metaFor([a])), /aep must be finite/);
  const wrongId = { ...a, taskId: 'f0' };
  await assert.rejects(writeLayoutsFile(file, [[wrongId]], metaFor([a])), /taskId is "f0"/);
  await assert.rejects(writeLayoutsFile(file, [[a]], metaFor([a], { maxTurbines: 2 })), /nTurbines must be an integer in \[0, 2\]/);
  await assert.rejects(writeLayoutsFile(file, [[a]], metaFor([a], { nRows: 2 })), /nRows/);
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('a failure mid-write leaves the existing output untouched and no temp file', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'layouts.h5');
  const good = sampleRecords();
  await writeLayoutsFile(file, [good], metaFor(good));
  const before = sha256(file);
  const more = makeGridRecords(1, 1, 100, () => 5);
  async function* failing() {
    yield more.slice(0, 50);
    throw new Error('ledger read failed');
  }
  await assert.rejects(writeLayoutsFile(file, failing(), metaFor(more, { nRows: undefined }), { rowsPerSlice: 10 }), (err: Error) => {
    assert.ok(err instanceof RuntimeFailure);
    assert.equal(err.message, `cannot write ${file}: ledger read failed`);
    return true;
  });
  assert.equal(sha256(file), before);
  assert.deepEqual(fs.readdirSync(dir), ['layouts.h5']);
  await assert.rejects(writeLayoutsFile(file, [good], metaFor(good), { overwrite: false }), (err: Error) => err instanceof InputError);
  assert.equal(sha256(file), before);
});

test('single writer: a live lock holder is refused, a stale lock is taken over', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'layouts.h5');
  const records = sampleRecords();
  // A live process that is not us: a sleeping child.
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: sleeper.pid, host: os.hostname(), created: new Date().toISOString() }));
    await assert.rejects(writeLayoutsFile(file, [records], metaFor(records)), new RegExp(`being written by another process \\(pid ${sleeper.pid}`));
    assert.equal(fs.existsSync(file), false);
  } finally {
    sleeper.kill('SIGKILL');
  }
  // A dead pid: run a process to completion and reuse its pid.
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), created: new Date().toISOString() }));
  const result = await writeLayoutsFile(file, [records], metaFor(records));
  assert.equal(result.rows, records.length);
  assert.equal(fs.existsSync(`${file}.lock`), false, 'lock released');
  // A lock from another host is never guessed stale.
  fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: 1, host: 'elsewhere.example', created: '' }));
  await assert.rejects(writeLayoutsFile(file, [records], metaFor(records)), /locked by pid 1 on host elsewhere\.example/);
  fs.rmSync(`${file}.lock`);
});

test('a writer SIGKILLed mid-write never replaces a good file; the next writer cleans up', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'layouts.h5');
  const good = sampleRecords();
  await writeLayoutsFile(file, [good], metaFor(good));
  const before = sha256(file);
  const child = spawn(process.execPath, [path.join(here, '../shards/helpers/slowLayoutsWriter.js'), file, '100000'], {
    env: { ...process.env, WFLO_TEST_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exit = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/rows (\d+)/.test(seen) && Number([...seen.matchAll(/rows (\d+)/g)].pop()![1]) >= 200) resolve();
      if (seen.includes('done')) reject(new Error('writer finished before it could be killed'));
    });
    child.on('exit', () => reject(new Error(`writer exited early: ${seen.slice(-200)}`)));
  });
  child.kill('SIGKILL');
  assert.equal(await exit, 'SIGKILL');
  assert.equal(sha256(file), before, 'the good file is untouched');
  const leftovers = fs.readdirSync(dir).filter((n) => n !== 'layouts.h5');
  assert.ok(
    leftovers.some((n) => n.startsWith('.layouts.h5.tmp-')),
    `temp file of the killed writer exists: ${leftovers}`,
  );
  assert.ok(leftovers.includes('layouts.h5.lock'));
  assert.deepEqual((await readLayoutsFile(file)).records, good);
  // The next writer takes the stale lock over and removes the dead writer's temp file.
  const next = makeGridRecords(1, 1, 3, () => 2);
  await writeLayoutsFile(file, [next], metaFor(next));
  assert.deepEqual(fs.readdirSync(dir), ['layouts.h5']);
  assert.deepEqual((await readLayoutsFile(file)).records, next);
});

test('ENOSPC: a full disk fails with one line, removes the temp file and keeps the old output', async (t) => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return t.skip('needs root on Linux to mount a small tmpfs');
  const mountPoint = tempDir();
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint], { stdio: 'ignore' });
  if (mounted.status !== 0) return t.skip('cannot mount a tmpfs here (no privilege); ENOSPC subtest skipped');
  try {
    const file = path.join(mountPoint, 'layouts.h5');
    const small = makeGridRecords(1, 1, 2, () => 3);
    await writeLayoutsFile(file, [small], metaFor(small));
    const before = sha256(file);
    const big = makeGridRecords(1, 1, 2000, () => 16);
    await assert.rejects(writeLayoutsFile(file, batchesOf(big, 100), metaFor(big)), (err: Error) => {
      assert.ok(err instanceof RuntimeFailure, `RuntimeFailure, got ${err}`);
      assert.match(err.message, /^cannot write .*layouts\.h5: .*(ENOSPC|no space)/i);
      assert.doesNotMatch(err.message, /\n/);
      process.stdout.write(`# ENOSPC message: ${err.message}\n`);
      return true;
    });
    assert.equal(sha256(file), before);
    assert.deepEqual(fs.readdirSync(mountPoint), ['layouts.h5']);
    // The HDF5 instance is still usable after the failed write.
    const elsewhere = path.join(tempDir(), 'after.h5');
    await writeLayoutsFile(elsewhere, [small], metaFor(small));
    assert.deepEqual((await readLayoutsFile(elsewhere)).records, small);
  } finally {
    spawnSync('umount', [mountPoint], { stdio: 'ignore' });
  }
});
