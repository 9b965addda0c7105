/**
 * Two adopted files with one task's result, written differently: a conflict line must say how the
 * two differ, not print the same AEP twice. The second file is the first rewritten by h5py with
 * its layouts as float32 (what a pipeline that stores single precision leaves): same AEPs,
 * layouts a few micrometres apart. And a copy whose seed-1 layout is moved 10 m: other AEP.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { hasH5py, PYTHON } from '../helpers.js';
import { runWflo, tempDir, writeCampaign } from './runnerTestKit.js';

test('adopt conflicts say how two results differ: a float32 copy (same AEP, micrometres apart), a moved turbine (10 m apart)', {
  skip: hasH5py() ? false : 'python3-h5py is not installed',
  timeout: 120_000,
}, async () => {
  const dir = tempDir('adopt-conflict');
  const campaign = (out: string) => ({
    name: 'adopt-conflict',
    output: out,
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 5 }],
    seeds: { start: 0, count: 3 },
    optimizer: { method: 'gradient', max_iterations: 5 },
    workers: 1,
    timeout_s: 60,
  });
  const first = await runWflo(['run', writeCampaign(path.join(dir, 'a.yaml'), campaign(path.join(dir, 'a'))), '--quiet']);
  assert.equal(first.code, 0, first.stderr);
  const original = path.join(dir, 'a', 'layouts.h5');
  const f32 = path.join(dir, 'f32.h5'),
    moved = path.join(dir, 'moved.h5');
  const py = spawnSync(
    PYTHON,
    [
      '-c',
      `
import sys, shutil, h5py, numpy as np
src, f32, moved = sys.argv[1:4]
for out in (f32, moved):
    shutil.copyfile(src, out)
with h5py.File(f32, 'r+') as f:
    l = f['layout'][:].astype(np.float32)
    del f['layout']
    f['layout'] = l
with h5py.File(moved, 'r+') as f:
    l = f['layout'][:]
    l[1, 0, 0] += 10.0
    f['layout'][:] = l
`,
      original,
      f32,
      moved,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);

  const out = path.join(dir, 'b');
  const r = await runWflo(['run', writeCampaign(path.join(dir, 'b.yaml'), campaign(out)), '--adopt', original, f32, '--aep-tolerance', '1e-4']);
  const lines = r.stderr.split('\n').filter((l) => /^wflo: conflict: /.test(l));
  assert.equal(lines.length, 3, r.stderr);
  for (const l of lines)
    assert.match(l, /with another result \(the same AEP [\d.]+ MWh, layouts up to [\d.e-]+ m apart \(a rounded copy, e\.g\. float32\?\)\); kept adopted:/);
  const r2 = await runWflo(['run', writeCampaign(path.join(dir, 'c.yaml'), campaign(path.join(dir, 'c'))), '--adopt', original, moved]);
  const moves = r2.stderr.split('\n').filter((l) => /^wflo: conflict: /.test(l));
  assert.equal(moves.length, 1, r2.stderr);
  assert.match(moves[0], /farm_0_type_0_seed_1: .* \(the same AEP [\d.]+ MWh, layouts up to 10 m apart\); kept adopted:/);
});
