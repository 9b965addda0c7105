/**
 * The probe pool that opens untrusted files in child processes: a file that kills or hangs
 * its reader is `unreadable` and costs nothing else; a file that makes HDF5 fail is followed
 * by a fresh child (h5wasm issue #46), so the next good file still reads; spilled records read
 * back bit-identical. Fault injection: WFLO_PROBE_FAULT (see probeWorker.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProbePool } from '../../src/shards/probePool.js';
import { SpillReader } from '../../src/shards/spillStore.js';
import { buildReadOptions } from '../../src/shards/readOptions.js';
import { writeLayoutsFile } from '../../src/io/hdf5/index.js';
import { makeRecord } from './helpers/records.js';
import { writeNoise } from './helpers/corpus.js';
import { HDF5_SIGNATURE } from '../../src/shards/superblock.js';

async function goodFiles(dir: string, names: string[]): Promise<string[]> {
  const paths: string[] = [];
  for (const [i, name] of names.entries()) {
    const records = [0, 1].map((s) => makeRecord({ farmId: i, farmType: 0, seed: s, nTurbines: 4 }));
    const file = path.join(dir, name);
    await writeLayoutsFile(file, [records], { campaignName: name, campaignHash: 'h', nExpected: 2, complete: true, maxTurbines: 4, nRows: 2 });
    paths.push(file);
  }
  return paths;
}

async function withFault<T>(fault: string, fn: () => Promise<T>): Promise<T> {
  process.env.WFLO_PROBE_FAULT = fault;
  try {
    return await fn();
  } finally {
    delete process.env.WFLO_PROBE_FAULT;
  }
}

test('a reader that dies on a file makes only that file unreadable', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-pool-'));
  const files = await goodFiles(dir, ['a.h5', 'b.h5', 'c.h5', 'd.h5']);
  const pool = new ProbePool({ jobs: 1 });
  try {
    const results = await withFault('crash:b.h5', () => pool.probeAll(files, buildReadOptions()));
    assert.deepEqual(
      results.map((r) => r.class),
      ['valid', 'unreadable', 'valid', 'valid'],
    );
    assert.match(results[1].detail, /the HDF5 reader process died on this file \(SIGKILL\)/);
    assert.deepEqual(
      results.map((r) => r.records.length),
      [2, 0, 2, 2],
    );
    assert.equal(pool.started, 2, 'one replacement child');
  } finally {
    pool.close();
  }
});

test('a reader that hangs is killed after the timeout; the file is unreadable', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-pool-'));
  const files = await goodFiles(dir, ['a.h5', 'b.h5', 'c.h5']);
  const pool = new ProbePool({ jobs: 2, timeoutMs: 1500 });
  try {
    const results = await withFault('hang:b.h5', () => pool.probeAll(files, buildReadOptions()));
    assert.deepEqual(
      results.map((r) => r.class),
      ['valid', 'unreadable', 'valid'],
    );
    assert.match(results[1].detail, /did not finish within 2 s/);
  } finally {
    pool.close();
  }
});

test('after a file HDF5 cannot open, the next good file is read by a fresh process', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-pool-'));
  const [good1, good2] = await goodFiles(dir, ['good1.h5', 'good2.h5']);
  // A signature and a plausible v0 superblock followed by garbage: passes the byte checks, then
  // HDF5 fails inside its open (the h5wasm #46 situation).
  const bad = path.join(dir, 'bad.h5');
  writeNoise(bad, 4096, 3);
  const bytes = fs.readFileSync(bad);
  bytes.set(HDF5_SIGNATURE, 0);
  bytes.fill(0, 8, 24);
  bytes[13] = 8;
  bytes[14] = 8;
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  view.setBigUint64(24, 0n, true);
  view.setBigUint64(40, 4096n, true);
  fs.writeFileSync(bad, bytes);
  const pool = new ProbePool({ jobs: 1 });
  try {
    const results = await pool.probeAll([good1, bad, good2, bad, good1], buildReadOptions());
    assert.deepEqual(
      results.map((r) => r.class),
      ['valid', 'unreadable', 'valid', 'unreadable', 'valid'],
    );
    assert.match(results[1].detail, /^HDF5 cannot open it: /);
    assert.deepEqual(
      results.map((r) => r.records.length),
      [2, 0, 2, 0, 2],
    );
    assert.ok(pool.started >= 3, `a fresh child after each failed open (started ${pool.started})`);
  } finally {
    pool.close();
  }
});

test('spilled records read back bit-identical from the spill files', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-pool-'));
  const spillDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-spill-'));
  const records = [0, 1, 2].map((s) => makeRecord({ farmId: 9, farmType: 1, seed: s, nTurbines: 7 }));
  const file = path.join(dir, 'w.h5');
  await writeLayoutsFile(file, [records], { campaignName: 'w', campaignHash: 'h', nExpected: 3, complete: true, maxTurbines: 7, nRows: 3 });
  const pool = new ProbePool({ jobs: 1, spillDir });
  try {
    const [result] = await pool.probeAll([file], buildReadOptions());
    assert.equal(result.records.length, 3);
    const reader = new SpillReader((n) => pool.spillPath(n));
    try {
      result.records.forEach((found, i) => assert.deepEqual(reader.read(found.spill!), records[i]));
    } finally {
      reader.close();
    }
  } finally {
    pool.close();
  }
});
