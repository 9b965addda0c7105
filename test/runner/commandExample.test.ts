/**
 * The example a researcher copies (examples/own-optimizer/: a NumPy optimizer run by Debian's
 * python3), run as they would run it: per task and as a persistent program give the same
 * verified layouts.h5 (read back by h5py); its AEP, an independent implementation of the IEA37
 * case-study model, gives the published 366941.57116 MWh for the case study's baseline layout and
 * agrees with wflo's own AEP for every optimized layout (so `aep: verify` passes). The documents
 * of the protocol validate against the JSON Schemas shipped in schemas/ (checked by Python's
 * jsonschema, another implementation), and schemas and wflo's reader agree on which result
 * documents are acceptable.
 */
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO } from '../helpers.js';
import { CS1_16_BASELINE } from '../../src/io/builtin/iea37Data.js';
import { readResultDocument } from '../../src/runner/command/resultDocument.js';
import { computedRows } from './bullmqKit.js';
import { runWflo, tempDir } from './runnerTestKit.js';
import { PY, exampleProject, pythonUnavailable } from './commandKit.js';

function python(script: string, input = ''): string {
  const r = spawnSync(PY, ['-c', script], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const hasJsonschema = (): boolean => spawnSync(PY, ['-c', 'import jsonschema, h5py'], { encoding: 'utf8' }).status === 0;

/** What a task computed, and the program's AEP (not how the run went). */
function rows(out: string): Record<string, unknown>[] {
  return computedRows(out);
}

describe('the own-optimizer example', { skip: pythonUnavailable() }, () => {
  const dir = tempDir('command-example');
  const perTaskOut = path.join(dir, 'out-per-task');
  const persistentOut = path.join(dir, 'out-persistent');

  test("per-task and persistent give the same rows; the program's AEP agrees with wflo's (aep: verify passes)", { timeout: 240_000 }, async () => {
    const perTask = exampleProject(path.join(dir, 'project'), { out: perTaskOut, seeds: 3, iterations: 300 });
    const a = await runWflo(['run', perTask, '--quiet']);
    assert.equal(a.code, 0, a.stderr);
    const persistent = exampleProject(path.join(dir, 'project'), { out: persistentOut, seeds: 3, iterations: 300, mode: 'persistent', name: 'persistent' });
    fs.writeFileSync(persistent, fs.readFileSync(persistent, 'utf8').replace('aep: recompute', 'aep: verify'));
    const b = await runWflo(['run', persistent, '--quiet']);
    assert.equal(b.code, 0, b.stderr);
    const ra = rows(perTaskOut),
      rb = rows(persistentOut);
    assert.equal(ra.length, 6);
    assert.deepEqual(rb, ra);

    const db = (await import('better-sqlite3')).default;
    const ledger = new db(path.join(perTaskOut, 'ledger.sqlite'), { readonly: true });
    const kept = ledger.prepare('SELECT task_id, aep, aep_reported, metrics, iterations, evaluations FROM results').all() as {
      task_id: string;
      aep: number;
      aep_reported: number;
      metrics: string;
      iterations: number;
      evaluations: number;
    }[];
    ledger.close();
    for (const r of kept) {
      assert.ok(Math.abs(r.aep_reported - r.aep) / r.aep < 1e-12, `${r.task_id}: program ${r.aep_reported}, wflo ${r.aep}`);
      assert.equal(r.iterations, 300);
      assert.ok(r.evaluations > 1 && r.evaluations <= 301);
      assert.ok(JSON.parse(r.metrics).gain_percent > 0, `${r.task_id} improved its start`);
    }
    if (!hasJsonschema()) return;
    const h5 = JSON.parse(
      python(`import h5py, json
with h5py.File("${path.join(perTaskOut, 'layouts.h5')}", "r") as f:
    print(json.dumps({"n": int(f.attrs["n_done"]), "complete": int(f.attrs["complete"]), "ids": list(f["task_id"].asstr()[:]), "aep": f["aep"][:].tolist()}))`),
    );
    assert.equal(h5.n, 6);
    assert.equal(h5.complete, 1);
    assert.deepEqual(h5.ids, [
      'farm_0_type_0_seed_0',
      'farm_0_type_0_seed_1',
      'farm_0_type_0_seed_2',
      'farm_1_type_0_seed_0',
      'farm_1_type_0_seed_1',
      'farm_1_type_0_seed_2',
    ]);
    for (const [i, id] of h5.ids.entries()) assert.equal(h5.aep[i], kept.find((r) => r.task_id === id)!.aep);
  });

  test("the example's AEP gives the published IEA37 value for the case study's baseline layout", { skip: pythonUnavailable() }, () => {
    const folder = path.join(perTaskOut, 'tasks', 'farm_0_type_0_seed_0', 'attempt-1');
    const aep = Number(
      python(`import json, sys
sys.path.insert(0, "${path.join(REPO, 'examples', 'own-optimizer')}")
import numpy as np, optimizer
task = json.load(open("${path.join(folder, 'task.json')}"))
p = optimizer.Problem(task, optimizer.wind_of(task))
print(repr(p.aep(np.array(${JSON.stringify(CS1_16_BASELINE.x)}), np.array(${JSON.stringify(CS1_16_BASELINE.y)}))))`),
    );
    assert.ok(Math.abs(aep - 366941.57116) / 366941.57116 < 1e-9, `${aep}`);
  });

  test('task, wind and result documents validate against schemas/; schemas and wflo agree on results', {
    skip: !hasJsonschema() && 'python3-jsonschema is not installed',
  }, () => {
    const tasks = path.join(perTaskOut, 'tasks');
    const folders = fs
      .readdirSync(tasks)
      .filter((n) => n.startsWith('farm_'))
      .map((n) => path.join(tasks, n, 'attempt-1'));
    const docs = {
      task: folders.map((f) => JSON.parse(fs.readFileSync(path.join(f, 'task.json'), 'utf8'))),
      result: folders.map((f) =>
        JSON.parse(fs.readFileSync((JSON.parse(fs.readFileSync(path.join(f, 'task.json'), 'utf8')) as { result_file: string }).result_file, 'utf8')),
      ),
      wind: fs.readdirSync(path.join(tasks, '_wind')).map((n) => JSON.parse(fs.readFileSync(path.join(tasks, '_wind', n), 'utf8'))),
    };
    assert.equal(docs.task.length, 6);
    assert.equal(docs.wind.length, 2);
    // Results a program might write: the schema and wflo's reader must take and refuse the same ones.
    const x = Array.from({ length: 16 }, (_, i) => 100 * i),
      y = x.map(() => 0);
    const candidates: unknown[] = [
      { layout: { x, y } },
      {
        protocol: 'wflo-result/1',
        task_id: 'farm_0_type_0_seed_0',
        layout: { x, y },
        aep_mwh: 4e5,
        initial_layout: { x, y },
        iterations: 3,
        evaluations: 4,
        metrics: { lcoe: 41.2, cable_km: 12 },
      },
      { error: 'no feasible start', permanent: true },
      { layout: { x, y }, aep: 4e5 },
      { layout: { x, y }, metrics: { 'cable-km': 12 } },
      { layout: { x, y }, iterations: -1 },
      { layout: { x, y }, iterations: 2.5 },
      { layout: { x } },
      { layout: { x: x.map(String), y } },
      { aep_mwh: 4e5 },
      { layout: { x, y }, protocol: 'wflo-result/2' },
      { layout: { x, y, z: y } },
    ];
    const verdicts = JSON.parse(
      python(
        `import json, sys, jsonschema
schemas = {n: json.load(open("${path.join(REPO, 'schemas')}/" + n + ".v1.json")) for n in ("task", "result", "wind")}
for n in schemas: jsonschema.Draft202012Validator.check_schema(schemas[n])
docs = json.load(sys.stdin)
for n in ("task", "wind", "result"):
    for d in docs[n]: jsonschema.validate(d, schemas[n], cls=jsonschema.Draft202012Validator)
v = jsonschema.Draft202012Validator(schemas["result"])
print(json.dumps([v.is_valid(c) for c in docs["candidates"]]))`,
        JSON.stringify({ ...docs, candidates }),
      ),
    );
    const wflo = candidates.map(
      (c) => readResultDocument(JSON.stringify(c), 'farm_0_type_0_seed_0', false).kind !== 'error' || (c as { error?: string }).error !== undefined,
    );
    assert.deepEqual(verdicts, wflo);
    assert.deepEqual(verdicts, [true, true, true, false, false, false, false, false, false, false, false, false]);
  });
});
