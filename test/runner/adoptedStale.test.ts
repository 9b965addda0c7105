/**
 * Issue 25: editing one comment in the user's program (a `method: command` optimizer, whose files
 * are in the spec hash) made every adopted row stale, so the run computed them all again. The
 * rule now: an adopted row stands on its task's farm, farm type and seed (what the gate verified
 * it against), not on the optimizer, which did not produce it. After the edit the task the
 * program computed is stale and runs again; the adopted ones stay done (the dry run says the
 * same); `--recompute-adopted` computes them on purpose. Records written by h5py; the program is
 * Debian's python3.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { hasH5py, PYTHON } from '../helpers.js';
import { dumpWithH5py } from '../shards/helpers/python.js';
import { commandCampaign, commandProject, pythonUnavailable } from './commandKit.js';
import { auditEvents, runWflo, tempDir } from './runnerTestKit.js';

const SKIP = !hasH5py() ? 'python3-h5py not installed' : pythonUnavailable();

/** The user's program: one fixed feasible layout (4 turbines 600 m apart, inside the 1300 m circle). */
const PROGRAM = `# version 1 of my optimizer
import json, os
with open(os.environ["WFLO_RESULT"], "w") as f:
    json.dump({"layout": {"x": [-300, 300, -300, 300], "y": [-300, -300, 300, 300]}}, f)
`;

/** Three results a worker pool left (rows shape), for seeds 0-2; their AEP from another model. */
const RECORDS = String.raw`
import h5py, sys
import numpy as np
layouts = np.array([[[-500., 0.], [0., 500.], [500., 0.], [0., -500.]],
                    [[-600., 0.], [0., 600.], [600., 0.], [0., -600.]],
                    [[-700., 0.], [0., 700.], [700., 0.], [0., -700.]]])
with h5py.File(sys.argv[1], 'w') as h:
    h.create_dataset('farm_id', data=[0, 0, 0])
    h.create_dataset('farm_type', data=[0, 0, 0])
    h.create_dataset('seed', data=[0, 1, 2])
    h.create_dataset('aep', data=[90000.0, 91000.0, 92000.0])
    h.create_dataset('aep_initial', data=[80000.0, 81000.0, 82000.0])
    h.create_dataset('layout', data=layouts)
`;

function rowsOf(file: string): Map<string, { source: string; specHash: string; aepInitial: number | string }> {
  const f = dumpWithH5py(file).datasets;
  const out = new Map<string, { source: string; specHash: string; aepInitial: number | string }>();
  (f.task_id!.value as string[]).forEach((id, i) =>
    out.set(id, {
      source: (f.source!.value as string[])[i]!,
      specHash: (f.spec_hash!.value as string[])[i]!,
      aepInitial: (f.aep_initial!.value as number[])[i]!,
    }),
  );
  return out;
}

const attemptsDone = (out: string): string[] =>
  auditEvents(out)
    .filter((e) => e.event === 'attempt' && e.outcome === 'done')
    .map((e) => String(e.task));

test("an edit of the user's program leaves adopted rows done; --recompute-adopted computes them", { skip: SKIP }, async (t) => {
  const dir = tempDir('adopted-stale');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'out');
  const campaign = commandCampaign(out, 4, { aep: 'recompute' });
  campaign.farm_types = [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 4 }];
  const file = commandProject(dir, PROGRAM, campaign);
  const py = spawnSync(PYTHON, ['-c', RECORDS, path.join(dir, 'workers.h5')], { encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  const adopted = ['farm_0_type_0_seed_0', 'farm_0_type_0_seed_1', 'farm_0_type_0_seed_2'];

  const first = await runWflo(['run', file, '--quiet', '--adopt', 'workers.h5', '--aep', 'recompute'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /^wflo: adopted 3 results$/m);
  assert.deepEqual(attemptsDone(out), ['farm_0_type_0_seed_3'], 'the program computed the one task no file had');
  const before = rowsOf(path.join(out, 'layouts.h5'));

  // One comment of the program changes: its tasks' spec hashes change.
  fs.writeFileSync(path.join(dir, 'prog.py'), PROGRAM.replace('version 1', 'version 2'));
  const preview = await runWflo(['run', file, '--dry-run'], { cwd: dir });
  assert.match(preview.stdout, /output \S+ 3 done, 1 stale, 0 failed, 0 missing/);
  const second = await runWflo(['run', file, '--quiet'], { cwd: dir });
  assert.equal(second.code, 0, second.stderr);
  assert.match(
    second.stderr,
    /^wflo: 3 adopted results stay done: the optimizer changed, and adopted rows are not the optimizer's \(`--recompute-adopted` computes them\)$/m,
  );
  assert.deepEqual(attemptsDone(out), ['farm_0_type_0_seed_3', 'farm_0_type_0_seed_3'], 'only the computed task ran again');
  const after = rowsOf(path.join(out, 'layouts.h5'));
  for (const id of adopted) {
    assert.equal(after.get(id)!.source, 'adopted:workers.h5', id);
    // layouts.h5 holds only rows at their task's current spec: the row was carried to the new one.
    assert.notEqual(after.get(id)!.specHash, before.get(id)!.specHash, `${id} carried to the task's new spec hash`);
  }
  assert.equal(after.size, 4);
  assert.deepEqual(
    adopted.map((id) => after.get(id)!.aepInitial),
    [80000, 81000, 82000],
    'their aep_initial, as written',
  );

  // On purpose: --recompute-adopted (the dry run says so first).
  const release = await runWflo(['run', file, '--dry-run', '--recompute-adopted'], { cwd: dir });
  assert.match(release.stdout, /output \S+ 1 done, 3 stale, 0 failed, 0 missing/);
  assert.equal((await runWflo(['run', file, '--adopt', 'workers.h5', '--recompute-adopted'], { cwd: dir })).code, 2, 'with --adopt it would adopt them again');
  const third = await runWflo(['run', file, '--quiet', '--recompute-adopted'], { cwd: dir });
  assert.equal(third.code, 0, third.stderr);
  assert.match(third.stderr, /^wflo: --recompute-adopted: 3 adopted results will be computed/m);
  const final = rowsOf(path.join(out, 'layouts.h5'));
  for (const id of adopted) assert.equal(final.get(id)!.source, 'computed', id);
  assert.deepEqual(attemptsDone(out).sort(), [...adopted, 'farm_0_type_0_seed_3', 'farm_0_type_0_seed_3'].sort());
});
