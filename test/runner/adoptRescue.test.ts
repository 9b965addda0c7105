/**
 * Issue 25, `wflo run --adopt` of a rescue, on the worker folder the rescue example writes with
 * h5py (examples/rescue/make_incident_folder.py) and on h5py files whose AEPs come from another
 * model:
 *   - adopting the worker folder directly keeps every good record with what its worker wrote
 *     (aep_initial also without an initial layout, iterations, evaluations) and the worker file it
 *     came from as `/source`; a conflict names both files; the missing tasks are computed and
 *     layouts.h5 is complete (h5py reads it);
 *   - optimizer slack is adopted only with --tolerance-m, stored as the worker wrote it;
 *   - `--dry-run --adopt` passes every record through the run's gate: it says what the run
 *     adopts, and when records fail only on their AEP it says `--aep recompute` (the run says so
 *     too), with which they are adopted and their AEP kept as /aep_reported.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { hasH5py, PYTHON } from '../helpers.js';
import { dumpWithH5py } from '../shards/helpers/python.js';
import { tasksWith, writeRescueExample, type RescueIncident } from '../shards/helpers/rescueExample.js';
import { auditEvents, runWflo, tempDir } from './runnerTestKit.js';

const SKIP = hasH5py() ? false : 'python3-h5py not installed (the worker files are written by h5py)';

interface Row {
  source: string;
  aep: number | string;
  aepInitial: number | string;
  aepReported: number | string;
  iterations: number;
  evaluations: number;
  x: number[];
  y: number[];
}

/** layouts.h5 as h5py reads it: rows by task id, and the root attributes. */
function readLayouts(file: string): { rows: Map<string, Row>; complete: number } {
  const d = dumpWithH5py(file);
  const f = d.datasets;
  const rows = new Map<string, Row>();
  (f.task_id!.value as string[]).forEach((id, i) => {
    const n = (f.n_turbines!.value as number[])[i]!;
    const layout = (f.layout!.value as number[][][])[i]!.slice(0, n);
    rows.set(id, {
      source: (f.source!.value as string[])[i]!,
      aep: (f.aep!.value as number[])[i]!,
      aepInitial: (f.aep_initial!.value as number[])[i]!,
      aepReported: (f.aep_reported!.value as number[])[i]!,
      iterations: (f.iterations!.value as number[])[i]!,
      evaluations: (f.evaluations!.value as number[])[i]!,
      x: layout.map((p) => p[0]!),
      y: layout.map((p) => p[1]!),
    });
  });
  return { rows, complete: Number(d.attrs.complete!.value) };
}

function expectAdoptedAsWritten(incident: RescueIncident, rows: Map<string, Row>, ids: string[]): void {
  for (const id of ids) {
    const want = incident.tasks[id]!;
    const row = rows.get(id)!;
    assert.equal(row.source, `adopted:layouts.h5_temp/${want.file}`, `${id} names its worker file`);
    assert.equal(row.aepInitial, want.aep_initial ?? 'NaN', `${id} keeps its aep_initial`);
    assert.deepEqual([row.iterations, row.evaluations], [want.iterations, want.evaluations], `${id} keeps iterations and evaluations`);
    assert.deepEqual([row.x, row.y], [want.x, want.y], `${id} layout as the worker wrote it`);
    // wflo's AEP for the layout agrees with the worker's to the verification tolerance.
    assert.ok(Math.abs(Number(row.aep) - want.aep!) <= 1e-6 * want.aep!, `${id} aep ${row.aep} vs ${want.aep}`);
    assert.equal(row.aepReported, want.aep, `${id} keeps the worker's AEP as aep_reported`);
  }
}

test('run --adopt of the worker folder: every good record with its aep_initial and worker file, slack only with --tolerance-m, the rest computed', {
  skip: SKIP,
}, async (t) => {
  const root = tempDir('wflo-adopt-rescue-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const incident = writeRescueExample(root);
  const good = tasksWith(incident, 'good');
  const slack = tasksWith(incident, 'slack');

  // Strict: the preview and the run agree; slack refused, its line naming the option.
  const preview = await runWflo(['run', 'campaign.yaml', '--dry-run', '--adopt', 'layouts.h5_temp'], { cwd: root });
  assert.equal(preview.code, 0, preview.stderr);
  assert.match(
    preview.stdout,
    new RegExp(
      `^ {2}layouts\\.h5_temp: 18 records in 10 files, 18 of them tasks of this campaign: ${good.length} to adopt, 2 rejected, 0 already done, 1 repeated$`,
      'm',
    ),
  );
  assert.match(
    preview.stdout,
    /^ {4}not adopted: farm_1_type_0_seed_4 from layouts\.h5_temp\/worker_41010\.h5: turbine \d+ is 0\.01 m outside the boundary \(0\.01 m off, beyond the 1e-6 m tolerance: --tolerance-m 0\.01 accepts it\)$/m,
  );
  assert.match(
    preview.stdout,
    /^ {4}conflict: farm_0_type_0_seed_1: adopted:layouts\.h5_temp\/worker_41002\.h5 has AEP [\d.]+ MWh, adopted:layouts\.h5_temp\/worker_41009\.h5 has [\d.]+ MWh/m,
  );
  assert.equal(fs.existsSync(path.join(root, 'out')), false, 'the dry run wrote nothing');

  const strict = path.join(root, 'strict.yaml');
  fs.writeFileSync(strict, fs.readFileSync(incident.campaign, 'utf8').replace(/^output: .*$/m, 'output: out/strict'));
  const run = await runWflo(['run', strict, '--quiet', '--adopt', 'layouts.h5_temp'], { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, new RegExp(`^wflo: adopted ${good.length} results, rejected 2 \\(they will be computed\\), 1 conflicting \\(first kept\\)$`, 'm'));
  assert.match(
    run.stderr,
    /^wflo: conflict: farm_0_type_0_seed_1: adopted:layouts\.h5_temp\/worker_41002\.h5 has AEP [\d.]+ MWh, adopted:layouts\.h5_temp\/worker_41009\.h5 has [\d.]+ MWh .*; kept adopted:layouts\.h5_temp\/worker_41002\.h5$/m,
  );
  const strictRows = readLayouts(path.join(root, 'out', 'strict', 'layouts.h5'));
  assert.equal(strictRows.complete, 1);
  assert.equal(strictRows.rows.size, 24);
  expectAdoptedAsWritten(incident, strictRows.rows, good);
  for (const id of slack) assert.equal(strictRows.rows.get(id)!.source, 'computed', `${id} (slack) computed without --tolerance-m`);

  // With the option: the slack rows are adopted as written; only the missing tasks are computed.
  const run2 = await runWflo(['run', 'campaign.yaml', '--quiet', '--adopt', 'layouts.h5_temp', '--tolerance-m', '0.01'], { cwd: root });
  assert.equal(run2.code, 0, run2.stderr);
  assert.match(
    run2.stderr,
    new RegExp(
      `^wflo: adopted ${good.length + 2} results \\(2 of them up to 0\\.01 m off the site or spacing, within --tolerance-m\\), 1 conflicting \\(first kept\\)$`,
      'm',
    ),
  );
  const out = path.join(root, 'out', 'rescue');
  const { rows, complete } = readLayouts(path.join(out, 'layouts.h5'));
  assert.equal(complete, 1);
  assert.equal(rows.size, 24);
  expectAdoptedAsWritten(incident, rows, [...good, ...slack]);
  const missing = tasksWith(incident, 'missing');
  for (const id of missing) assert.equal(rows.get(id)!.source, 'computed', id);
  const computed = auditEvents(out)
    .filter((e) => e.event === 'attempt' && e.outcome === 'done')
    .map((e) => String(e.task))
    .sort();
  assert.deepEqual(computed, missing, 'exactly the missing tasks were computed');
  const tolerated = auditEvents(out)
    .filter((e) => e.event === 'adopt_tolerated')
    .map((e) => String(e.task))
    .sort();
  assert.deepEqual(tolerated, slack, 'the audit log names the rows adopted within the tolerance');
});

/** h5py: the good records of the example folder, their AEPs scaled by 1.03 (another model's numbers), as one rows file. */
const OTHER_MODEL = String.raw`
import h5py, json, sys
import numpy as np
m = json.load(open(sys.argv[1]))['tasks']
ids = sorted(k for k, v in m.items() if v['fate'] == 'good')[:4]
key = lambda k: [int(p) for p in k.split('_')[1::2]]
t = max(len(m[k]['x']) for k in ids)
layout = np.full((len(ids), t, 2), np.nan)
for i, k in enumerate(ids):
    layout[i, :len(m[k]['x'])] = np.stack([m[k]['x'], m[k]['y']], axis=1)
with h5py.File(sys.argv[2], 'w') as h:
    h.create_dataset('farm_id', data=[key(k)[0] for k in ids])
    h.create_dataset('farm_type', data=[key(k)[1] for k in ids])
    h.create_dataset('seed', data=[key(k)[2] for k in ids])
    h.create_dataset('aep', data=[m[k]['aep'] * 1.03 for k in ids])
    h.create_dataset('layout', data=layout)
print(json.dumps(ids))
`;

test("--dry-run --adopt runs the run's gate: AEPs of another model are refused, and --aep recompute is named and works", { skip: SKIP }, async (t) => {
  const root = tempDir('wflo-adopt-model-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const incident = writeRescueExample(root);
  const py = spawnSync(PYTHON, ['-c', OTHER_MODEL, path.join(root, 'incident.json'), path.join(root, 'pywake.h5')], { encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  const ids = JSON.parse(py.stdout) as string[];

  const preview = await runWflo(['run', 'campaign.yaml', '--dry-run', '--adopt', 'pywake.h5'], { cwd: root });
  assert.equal(preview.code, 0, preview.stderr);
  assert.match(preview.stdout, /^ {2}pywake\.h5: 4 records, 4 of them tasks of this campaign: 0 to adopt, 4 rejected, 0 already done, 0 repeated$/m);
  assert.match(
    preview.stdout,
    /^ {4}not adopted: farm_\d_type_\d_seed_\d from pywake\.h5: AEP [\d.]+ MWh differs from recomputed [\d.]+ MWh \(rel 3\.0e-2\)$/m,
  );
  const hint = /4 of the rejected failed only on their AEP \(computed with another model\?\): with --aep recompute they would be adopted/;
  assert.match(preview.stdout, hint);

  const recompute = await runWflo(['run', 'campaign.yaml', '--dry-run', '--adopt', 'pywake.h5', '--aep', 'recompute'], { cwd: root });
  assert.match(recompute.stdout, /^ {2}pywake\.h5: 4 records, 4 of them tasks of this campaign: 4 to adopt, 0 rejected, 0 already done, 0 repeated$/m);
  assert.doesNotMatch(recompute.stdout, hint);

  const strict = path.join(root, 'strict.yaml');
  fs.writeFileSync(
    strict,
    fs
      .readFileSync(incident.campaign, 'utf8')
      .replace(/^output: .*$/m, 'output: out/strict')
      .replace(/^seeds: .*$/m, 'seeds: [0]'),
  );
  const run = await runWflo(['run', strict, '--quiet', '--adopt', 'pywake.h5'], { cwd: root });
  assert.equal(run.code, 0, run.stderr);
  // The run says it too (its grid here: seed 0 only, so 2 of the 4 records are its tasks).
  assert.match(
    run.stderr,
    /^wflo: adopted 0 results, rejected 2 \(they will be computed\), 2 outside this campaign's grid ignored; 2 of the rejected failed only on their AEP \(computed with another model\?\): with --aep recompute they would be adopted/m,
  );

  const adopted = await runWflo(['run', 'campaign.yaml', '--quiet', '--adopt', 'pywake.h5', '--aep', 'recompute'], { cwd: root });
  assert.equal(adopted.code, 0, adopted.stderr);
  const { rows } = readLayouts(path.join(root, 'out', 'rescue', 'layouts.h5'));
  for (const id of ids) {
    const row = rows.get(id)!;
    const want = incident.tasks[id]!;
    assert.equal(row.source, 'adopted:pywake.h5', id);
    assert.ok(Math.abs(Number(row.aepReported) - want.aep! * 1.03) <= 1e-9 * want.aep!, `${id}: their AEP kept as aep_reported`);
    assert.ok(Math.abs(Number(row.aep) - want.aep!) <= 1e-6 * want.aep!, `${id}: wflo's AEP as aep`);
  }
});
