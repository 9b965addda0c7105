/**
 * The Python package's runner examples, run as their docstrings say (Debian's python3, the package
 * on PYTHONPATH): python/examples/researcher/ (a researcher's own random search as a persistent
 * `@wflo.program`) gives verified rows whose AEP, by the researcher's own NumPy model, agrees with
 * wflo's recomputation to 1e-9, in at most 10 wflo-specific lines (the ones marked `# wflo`; no
 * other line touches wflo or the task); python/examples/plot_layouts.py prints the best AEP of
 * each farm × type as h5py computes it from the same file, and writes a PNG (with matplotlib).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { hasH5py, PYTHON, REPO, runWflo, tempDir } from '../helpers.js';
import { PYTHON_PACKAGE, pythonMissing, runPython } from './pythonKit.js';

const missing = pythonMissing() || (hasH5py() ? false : `${PYTHON} without h5py (apt-get install python3-h5py)`);
const EXAMPLE = path.join(REPO, 'python', 'examples', 'researcher');

describe('the Python runner examples', { skip: missing }, () => {
  const dir = tempDir('wflo-pyexamples-');
  const out = path.join(dir, 'out');

  test('researcher/opt.py: ≤ 10 wflo-specific lines', () => {
    const lines = fs.readFileSync(path.join(EXAMPLE, 'opt.py'), 'utf8').split('\n');
    const marked = lines.filter((l) => /# wflo$/.test(l));
    assert.ok(marked.length >= 5 && marked.length <= 10, `${marked.length} lines marked # wflo`);
    const unmarked = lines.filter((l) => !/# wflo$/.test(l) && /\bwflo\.|\btask\.|^import wflo|^from wflo/.test(l));
    assert.deepEqual(unmarked, [], 'every line that uses wflo or the task is marked');
  });

  test("researcher/: its rows pass the gate; the researcher's AEP agrees with wflo's", { timeout: 300_000 }, () => {
    const project = path.join(dir, 'researcher');
    fs.mkdirSync(project);
    fs.copyFileSync(path.join(EXAMPLE, 'opt.py'), path.join(project, 'opt.py'));
    const c = parse(fs.readFileSync(path.join(EXAMPLE, 'campaign.yaml'), 'utf8')) as Record<string, any>;
    c.output = out;
    c.seeds = { start: 0, count: 2 };
    c.optimizer.params.iterations = 150;
    c.optimizer.run[0] = PYTHON;
    fs.writeFileSync(path.join(project, 'campaign.yaml'), stringify(c));
    const r = runWflo(['run', path.join(project, 'campaign.yaml'), '--quiet'], { env: { PYTHONPATH: PYTHON_PACKAGE }, timeoutMs: 300_000 });
    assert.equal(r.status, 0, r.stderr);
    const h = runPython([
      '-c',
      `
import json, sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    print(json.dumps({"tasks": f["task_id"].asstr()[:].tolist(), "source": f["source"].asstr()[:].tolist(),
                      "aep": f["aep"][:].tolist(), "reported": f["aep_reported"][:].tolist(),
                      "aep_initial": f["aep_initial"][:].tolist(), "gain": f["metrics/gain_percent"][:].tolist()}))
`,
      path.join(out, 'layouts.h5'),
    ]);
    assert.equal(h.status, 0, h.stderr);
    const rows = JSON.parse(h.stdout) as { tasks: string[]; source: string[]; aep: number[]; reported: number[]; gain: number[] };
    assert.deepEqual(rows.tasks, ['farm_0_type_0_seed_0', 'farm_0_type_0_seed_1', 'farm_1_type_0_seed_0', 'farm_1_type_0_seed_1']);
    for (let i = 0; i < rows.tasks.length; i++) {
      assert.equal(rows.source[i], 'computed');
      assert.ok(Math.abs(rows.reported[i] - rows.aep[i]) / rows.aep[i] < 1e-9, `${rows.tasks[i]}: researcher ${rows.reported[i]}, wflo ${rows.aep[i]}`);
      assert.ok(rows.gain[i] > 0, `${rows.tasks[i]}: the search gained ${rows.gain[i]} %`);
    }
  });

  test('plot_layouts.py: the best AEP per farm × type as h5py finds it, and a PNG', { timeout: 300_000 }, () => {
    const png = path.join(dir, 'layouts.png');
    const r = runPython([path.join(REPO, 'python', 'examples', 'plot_layouts.py'), out, '-o', png]);
    assert.equal(r.status, 0, r.stderr);
    const h = runPython([
      '-c',
      `
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    groups = np.array([f"{a}/{b}" for a, b in zip(f["farm_id"][:], f["farm_type"][:])])
    aep = f["aep"][:]
    for g in sorted(set(groups)):
        print(f"{g:>9}  {aep[groups == g].max():14.3f}  {int((groups == g).sum()):5d}")
`,
      path.join(out, 'layouts.h5'),
    ]);
    assert.equal(h.status, 0, h.stderr);
    const table = r.stdout
      .split('\n')
      .filter((l) => /^\s+\d+\/\d+\s/.test(l))
      .join('\n');
    assert.equal(`${table}\n`, h.stdout);
    if (runPython(['-c', 'import matplotlib']).status === 0) {
      assert.deepEqual([...fs.readFileSync(png).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    } else {
      assert.match(r.stdout, /matplotlib is not installed/);
    }
  });
});
