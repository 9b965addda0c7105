/**
 * Progress and history from Python (python/wflo/_history.py): `result.history` of
 * `farm.optimize(...)` is, row for row and bit for bit, what `wflo optimize --history FILE.json`
 * writes for the same seed and options (gradient, global; with several starts, the best start's);
 * `progress=callable` is called with each of those rows as the engine streams them (and with
 * each gradient stage's end) before the result, which is the result without a callback; a
 * callback that raises has its exception raised after the reply, and the engine stays in step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pythonMissing, runPython } from './pythonKit.js';
import { runWflo, tempDir } from '../helpers.js';

const missing = pythonMissing();

const RUNS = [
  { label: 'gradient', py: { method: 'gradient', seed: 3, max_iterations: 20 }, flags: ['--method', 'gradient', '--seed', '3', '--max-iterations', '20'] },
  {
    label: 'global',
    py: { method: 'global', seed: 3, hops: 2, max_iterations: 10 },
    flags: ['--method', 'global', '--seed', '3', '--hops', '2', '--max-iterations', '10'],
  },
  {
    label: 'basin',
    py: { method: 'basin', seed: 2, hops: 2, max_iterations: 10, hop_wec: [1.5, 1] },
    flags: ['--method', 'basin', '--seed', '2', '--hops', '2', '--max-iterations', '10', '--hop-wec', '1.5,1'],
  },
];

const CODE = `
import json, sys, numpy as np, wflo
runs = json.loads(sys.argv[1])
out = {}
with wflo.Engine() as engine:
    farm = engine.farm("iea37-cs1-16")
    for run in runs:
        seen = []
        r = farm.optimize(progress=seen.append, **run["py"])
        plain = farm.optimize(**run["py"])
        rows = [dict(event=p.event, iteration=p.iteration, stage=p.stage, wec=p.wec, objective=p.objective, max_violation_m=p.max_violation_m, evaluations=p.evaluations)
                for p in seen if p.event != "stage"]
        out[run["label"]] = dict(history=r.history.rows(), streamed=rows, stages=sum(p.event == "stage" for p in seen),
                                 seeds=sorted({p.seed for p in seen}), same=bool(np.array_equal(r.x, plain.x) and np.array_equal(r.y, plain.y) and r.aep_mwh == plain.aep_mwh),
                                 plain_history=plain.history.rows() == r.history.rows(), n=len(r.history), types=[type(r.history.objective).__name__, str(r.history.stage.dtype)])
    # Several starts: the best start's history.
    best = farm.optimize("gradient", 5, max_iterations=10, starts=2)
    out["starts"] = dict(seed=best.info["seed"], history=best.history.rows())
    # A callback that raises: raised after the reply; the engine answers the next call in step.
    def boom(p):
        raise RuntimeError("stop here")
    try:
        farm.optimize("gradient", 3, max_iterations=5, progress=boom)
        out["raised"] = None
    except RuntimeError as err:
        out["raised"] = str(err)
    out["after"] = farm.aep(*farm.baseline).aep_mwh
    with wflo.Engine() as fresh:
        f2 = fresh.farm("iea37-cs1-16")
        out["fresh"] = f2.aep(*f2.baseline).aep_mwh
print(json.dumps(out))
`;

test('Python: result.history equals `wflo optimize --history` row for row; progress streams the same rows; a raising callback leaves the engine in step', {
  skip: missing,
}, () => {
  const dir = tempDir('wflo-py-history-');
  try {
    const r = runPython(['-c', CODE, JSON.stringify(RUNS)], { timeoutMs: 900_000 });
    assert.equal(r.status, 0, r.stderr);
    type Rows = Record<string, unknown>[];
    const out = JSON.parse(r.stdout) as Record<
      string,
      { history: Rows; streamed: Rows; stages: number; seeds: number[]; same: boolean; plain_history: boolean; n: number; types: string[] }
    > & { starts: { seed: number; history: Rows }; raised: string | null; after: number; fresh: number };
    const cliRows = (flags: string[]): Rows => {
      const file = path.join(dir, `h${flags.join('').replace(/\W/g, '')}.json`);
      const cli = runWflo(['optimize', 'iea37-cs1-16', ...flags, '--history', file], { timeoutMs: 600_000 });
      assert.equal(cli.status, 0, cli.stderr);
      return (JSON.parse(fs.readFileSync(file, 'utf8')) as { rows: Rows }).rows;
    };
    for (const run of RUNS) {
      const o = out[run.label];
      const rows = cliRows(run.flags);
      assert.ok(rows.length > 0 && o.n === rows.length, `${run.label}: ${o.n} rows vs the CLI's ${rows.length}`);
      assert.deepEqual(o.history, rows, `${run.label}: the CLI's history`);
      assert.deepEqual(o.streamed, rows, `${run.label}: the streamed rows are the history`);
      assert.deepEqual(o.seeds, [run.py.seed]);
      assert.deepEqual([o.same, o.plain_history], [true, true], `${run.label}: a callback changes nothing`);
      assert.deepEqual(o.types, ['ndarray', 'int64']);
    }
    assert.ok(out.gradient.stages >= 6, `gradient stages reported: ${out.gradient.stages}`);
    assert.deepEqual(out.starts.history, cliRows(['--method', 'gradient', '--seed', String(out.starts.seed), '--max-iterations', '10']));
    assert.equal(out.raised, 'stop here');
    assert.equal(out.after, out.fresh);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
