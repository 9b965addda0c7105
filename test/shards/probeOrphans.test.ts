/**
 * A probe child (shards/probeWorker.ts: h5wasm reading an untrusted worker file for
 * `wflo shards check` and `merge`) does not outlive its parent: with its main thread stuck in a
 * read that never ends (the pool's own fault injection, WFLO_PROBE_FAULT=hang:<file>), a SIGKILL
 * of `wflo shards check` takes every probe child with it (runner/parentLeaves.ts's watchdog).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { CLI, tempDir } from '../helpers.js';
import { descendants, killAndWatch } from '../runner/processTree.js';
import { waitFor } from '../runner/runnerTestKit.js';
import { writeLayoutsFile } from '../../src/io/hdf5/index.js';
import { makeRecord } from './helpers/records.js';

test('SIGKILL of wflo shards check while a probe child is stuck in a read: no probe child left', async () => {
  const dir = tempDir('wflo-probe-orphans-');
  const shards = path.join(dir, 'shards');
  fs.mkdirSync(shards);
  for (const [i, name] of ['stuck.h5', 'other.h5'].entries()) {
    const records = [0, 1].map((s) => makeRecord({ farmId: i, farmType: 0, seed: s, nTurbines: 4 }));
    await writeLayoutsFile(path.join(shards, name), [records], {
      campaignName: name,
      campaignHash: 'h',
      nExpected: 2,
      complete: true,
      maxTurbines: 4,
      nRows: 2,
    });
  }
  const parent = spawn(process.execPath, [CLI, 'shards', 'check', shards, '--jobs', '2'], {
    env: { ...process.env, WFLO_PROBE_FAULT: 'hang:stuck.h5' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    // The probe children: started, and one spinning on stuck.h5.
    const started = await waitFor(() => descendants(parent.pid!).length > 0, 30_000, 50);
    assert.ok(started, 'no probe child started');
    await new Promise((r) => setTimeout(r, 1500));
    const procs = descendants(parent.pid!);
    assert.ok(procs.length > 0 && procs.every((p) => p.cmd.includes('probeWorker')), procs.map((p) => p.cmd).join('; '));
    const ms = await killAndWatch(parent.pid!, procs, 'probe children');
    console.log(`ℹ ${procs.length} probe children gone ${ms} ms after the SIGKILL of wflo shards check`);
  } finally {
    try {
      parent.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
});
