/**
 * `@wflo.program` (python/wflo/program.py) as a campaign's `method: command` optimizer, run by
 * Debian's python3 under the local executor, per task and persistent: the rows of the seeds it
 * solves pass the gate (they are in layouts.h5, read back by h5py, inside the cs1-16 circle at the
 * minimum spacing, with the program's start as initial layout); a function that raises
 * ZeroDivisionError gives the runner's ordinary failure (retried: 2 attempts) carrying Python's
 * message; `wflo.Permanent` fails at once (1 attempt) with its message; a program process killed
 * with SIGKILL in the middle of a task is retried and the task is done on attempt 2. The runs go
 * through the package's own `wflo.run_campaign`, whose RunFailed carries the CLI's last line.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { hasH5py, PYTHON, runWflo, tempDir } from '../helpers.js';
import { PYTHON_PACKAGE, pythonMissing, runPython } from './pythonKit.js';

const missing = pythonMissing() || (hasH5py() ? false : `${PYTHON} without h5py (apt-get install python3-h5py)`);

const PROGRAM = `
import os, time
import wflo

@wflo.program
def prog(task):
    x, y = task.initial_layout
    if task.seed == 1:
        return 1 / 0
    if task.seed == 2:
        raise wflo.Permanent("this optimizer does not place turbines on seed 2")
    if task.seed == 3 and task.attempt == 1:
        with open(os.path.join(task.params["pid_dir"], task.id), "w") as fh:
            fh.write(str(os.getpid()))
        time.sleep(120)
    return x, y

prog.main()
`;

/** Run a campaign with wflo.run_campaign; print the summary, or the RunFailed's line, code and summary. */
const RUN = `
import json, sys, wflo
try:
    s = wflo.run_campaign(sys.argv[1], workers=1, progress_every_s=0.2)
    print(json.dumps({"ok": True, "summary": s}))
except wflo.RunFailed as err:
    print(json.dumps({"ok": False, "message": str(err), "exit_code": err.exit_code, "summary": err.summary}))
`;

/** h5py: each row's task, attempts, layout and initial layout, and whether it is inside the circle at the spacing. */
const ROWS = `
import json, sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    out = []
    for i, tid in enumerate(f["task_id"].asstr()[:]):
        n = int(f["n_turbines"][i])
        xy = f["layout"][i, :n]
        d = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=2)) + np.eye(n) * 1e9
        out.append({"task": tid, "attempts": int(f["attempts"][i]), "source": f["source"].asstr()[i],
                    "max_radius": float(np.sqrt((xy ** 2).sum(axis=1)).max()), "min_distance": float(d.min()),
                    "start_kept": bool(np.array_equal(f["initial_layout"][i, :n], xy))})
print(json.dumps(out))
`;

interface Failure {
  taskId: string;
  attempts: number;
  error: string;
}

function campaign(out: string, seeds: number[], mode: string, pidDir: string): Record<string, unknown> {
  return {
    name: `program-${mode}`,
    output: out,
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
    seeds,
    optimizer: { method: 'command', run: [PYTHON, 'prog.py'], inputs: ['prog.py'], mode, params: { pid_dir: pidDir } },
    workers: 1,
    timeout_s: 100,
    attempts: 2,
    backoff: { initial_s: 0.05, factor: 1, max_s: 0.05 },
  };
}

describe('@wflo.program under the runner', { skip: missing }, () => {
  const dir = tempDir('wflo-pyprogram-');
  fs.writeFileSync(path.join(dir, 'prog.py'), PROGRAM);
  const env = { PYTHONPATH: PYTHON_PACKAGE };

  for (const mode of ['per-task', 'persistent']) {
    test(`${mode}: rows pass the gate; a raise is retried with Python's message; Permanent is not retried`, { timeout: 300_000 }, () => {
      const out = path.join(dir, `out-fail-${mode}`);
      const file = path.join(dir, `fail-${mode}.yaml`);
      fs.writeFileSync(file, stringify(campaign(out, [0, 1, 2, 4], mode, dir)));
      const r = runPython(['-c', RUN, file], { cwd: dir, env });
      assert.equal(r.status, 0, r.stderr);
      const run = JSON.parse(r.stdout) as { ok: boolean; message: string; exit_code: number; summary: { done: number; failed: number } };
      assert.equal(run.ok, false);
      assert.equal(run.exit_code, 1);
      assert.deepEqual([run.summary.done, run.summary.failed], [2, 2]);
      // The same line the CLI ends with (a second run retries nothing and says it again).
      const again = runWflo(['run', file, '--quiet'], { cwd: dir, env });
      assert.equal(again.status, 1);
      assert.equal(again.stderr.trim().split('\n').pop(), `wflo: ${run.message}`);

      const status = JSON.parse(runWflo(['status', out, '--json']).stdout) as { failures: Failure[] };
      const byTask = new Map(status.failures.map((f) => [f.taskId, f]));
      const raised = byTask.get('farm_0_type_0_seed_1')!;
      assert.equal(raised.attempts, 2, 'an exception is an ordinary failure: retried');
      assert.match(raised.error, /ZeroDivisionError: division by zero/);
      // The runner's one line is the exception's; the traceback is in the attempt's stderr.log.
      const log = /^ZeroDivisionError: division by zero \(log: (.+)\)$/.exec(raised.error);
      assert.ok(log, raised.error);
      assert.match(
        fs.readFileSync(path.join(log[1], 'stderr.log'), 'utf8'),
        /Traceback \(most recent call last\):[\s\S]*return 1 \/ 0[\s\S]*ZeroDivisionError: division by zero/,
      );
      const permanent = byTask.get('farm_0_type_0_seed_2')!;
      assert.equal(permanent.attempts, 1, 'wflo.Permanent is not retried');
      assert.match(
        permanent.error,
        mode === 'per-task'
          ? /^program reported a permanent failure \(exit code 65\): this optimizer does not place turbines on seed 2 \(log: /
          : /^this optimizer does not place turbines on seed 2 \(log: /,
      );

      const rows = JSON.parse(runPython(['-c', ROWS, path.join(out, 'layouts.h5')]).stdout) as {
        task: string;
        attempts: number;
        source: string;
        max_radius: number;
        min_distance: number;
        start_kept: boolean;
      }[];
      assert.deepEqual(
        rows.map((x) => x.task),
        ['farm_0_type_0_seed_0', 'farm_0_type_0_seed_4'],
      );
      for (const row of rows) {
        assert.equal(row.source, 'computed');
        assert.ok(row.max_radius <= 1300, `${row.task}: a turbine ${row.max_radius} m from the centre`);
        assert.ok(row.min_distance >= 260, `${row.task}: two turbines ${row.min_distance} m apart`); // 2 D of 130 m
        assert.ok(row.start_kept, `${row.task}: the initial layout is the program's start`);
      }
    });

    test(`${mode}: a program killed with SIGKILL in the middle of a task is retried; the task is done on attempt 2`, { timeout: 300_000 }, async () => {
      const out = path.join(dir, `out-kill-${mode}`);
      const pids = path.join(dir, `pids-${mode}`);
      fs.mkdirSync(pids);
      const file = path.join(dir, `kill-${mode}.yaml`);
      fs.writeFileSync(file, stringify(campaign(out, [0, 3], mode, pids)));
      const { spawn } = await import('node:child_process');
      const child = spawn(PYTHON, ['-c', RUN, file], { cwd: dir, env: { ...process.env, ...env, WFLO_CLI: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b: Buffer) => {
        stdout += b.toString();
      });
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
      });
      const pidFile = path.join(pids, 'farm_0_type_0_seed_3');
      const deadline = Date.now() + 200_000;
      while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8') === '') {
        assert.ok(Date.now() < deadline, `the program never started seed 3: ${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, stderr);
      const run = JSON.parse(stdout) as { ok: boolean; summary: { done: number; retries: number } };
      assert.equal(run.ok, true, stdout);
      assert.equal(run.summary.done, 2);
      const rows = JSON.parse(runPython(['-c', ROWS, path.join(out, 'layouts.h5')]).stdout) as { task: string; attempts: number }[];
      assert.deepEqual(
        rows.map((x) => [x.task, x.attempts]),
        [
          ['farm_0_type_0_seed_0', 1],
          ['farm_0_type_0_seed_3', 2],
        ],
      );
    });
  }
});
