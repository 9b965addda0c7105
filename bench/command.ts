/**
 * Command-task benchmarks (`node dist/bench/run.js command`): what running a user's own program
 * costs, on the demo's cs1-16 tasks (IEA37 cs1-16 site, 16 turbines), with a Python program that
 * answers at once (a ring layout, no NumPy), next to wflo's built-in no-op in the same run:
 * - per-task mode: wflo's own work per attempt beyond the interpreter's start-up: attempts of the
 *   command task (attempt folder, task document, spawn, logs, result read and checked) interleaved
 *   with direct runs of the same program (spawn, read the task, write the result), median of the
 *   paired differences; the whole path to the ledger with 1 worker; tasks/s with 2 workers;
 * - persistent mode: tasks/s with 2 workers (one long-lived program each, JSON lines);
 * - the built-in no-op's tasks/s with 2 workers;
 * - task document sizes: cs1-16, and a 360 × 23 wind rose (the rose is written once per farm into
 *   a wind file the task document names; both sizes printed).
 * Targets (issue 17): persistent >= 500 tasks/s; per-task overhead beyond the interpreter's own
 * start-up <= 10 ms. Figures only, no pass/fail. Python: WFLO_PYTHON or /usr/bin/python3.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { runWfloMeasured } from './benchKit.js';
import { loadCampaign } from '../src/campaign/loadCampaign.js';
import { taskDocument, windDocument } from '../src/runner/command/taskDocument.js';
import type { Campaign, FarmSpec } from '../src/campaign/campaign.js';
import type { CommandSettings } from '../src/campaign/commandOptimizer.js';
import { caseForTask } from '../src/campaign/caseForTask.js';
import { runCommandTask } from '../src/runner/command/commandTask.js';

const PY = process.env.WFLO_PYTHON ?? '/usr/bin/python3';

/** Answers at once: 16 turbines on a ring inside the cs1-16 circle, per task or persistent. */
const QUICK = `import json, math, os
def answer(task):
    n = task["n_turbines"]
    r = 0.92 * task["site"]["radius"]
    return {"task_id": task["task_id"], "layout": {"x": [r * math.cos(2 * math.pi * i / n) for i in range(n)], "y": [r * math.sin(2 * math.pi * i / n) for i in range(n)]}}
if "WFLO_TASKS_FD" in os.environ:
    results = os.fdopen(int(os.environ["WFLO_RESULTS_FD"]), "w")
    for line in os.fdopen(int(os.environ["WFLO_TASKS_FD"])):
        results.write(json.dumps(answer(json.loads(line))) + "\\n")
        results.flush()
else:
    with open(os.environ["WFLO_TASK"]) as f:
        task = json.load(f)
    with open(os.environ["WFLO_RESULT"], "w") as f:
        json.dump(answer(task), f)
`;

function campaign(name: string, out: string, seeds: number, workers: number, optimizer: Record<string, unknown>): Record<string, unknown> {
  return {
    name,
    output: out,
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
    seeds: { start: 0, count: seeds },
    optimizer,
    workers,
    export: { every_results: 10_000_000, every_s: 1_000_000 },
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Tasks/s between the first and the last commit, and the median attempt wall time (s). */
function ledgerFigures(out: string): { perSecond: number; tasks: number; medianWallS: number; intervalS: number } {
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true });
  try {
    const [n, first, last] = db.prepare('SELECT COUNT(*), MIN(committed_at), MAX(committed_at) FROM results').raw().get() as [number, number, number];
    const walls = db.prepare('SELECT wall_s FROM results').pluck().all() as number[];
    return { perSecond: (n - 1) / Math.max(1e-9, last - first), tasks: n, medianWallS: median(walls), intervalS: (last - first) / Math.max(1, n - 1) };
  } finally {
    db.close();
  }
}

/** Run the quick program directly on a prepared task (spawn, read task, write result, exit); wall ms. */
function directRun(dir: string, taskFile: string): Promise<number> {
  const t0 = performance.now();
  return new Promise<number>((resolve, reject) => {
    const child = spawn(PY, ['prog.py'], {
      cwd: dir,
      env: { ...process.env, WFLO_TASK: taskFile, WFLO_RESULT: path.join(dir, 'direct-result.json') },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`direct run exited ${code}`))));
  });
}

/**
 * wflo's own cost per attempt in per-task mode, against the program run directly: attempts of
 * runCommandTask (attempt folder, task document, command.sh, spawn, logs, result read and
 * checked) and direct runs of the same program, interleaved in this process (so both see the same
 * machine load); medians, and the median of the paired differences.
 */
async function perAttemptOverhead(dir: string, c: Campaign, n: number): Promise<{ attemptMs: number; directMs: number; pairedMs: number }> {
  const taskFile = path.join(dir, 'direct-task.json');
  const cs = caseForTask(c.farms[0], c.farmTypes[0]);
  const settings = c.optimizer as CommandSettings;
  const attempts: number[] = [],
    directs: number[] = [],
    diffs: number[] = [];
  for (let i = -5; i < n; i++) {
    const t0 = performance.now();
    await runCommandTask({
      settings,
      case: cs,
      farm: c.farms[0],
      type: c.farmTypes[0],
      taskId: `farm_0_type_0_seed_${i + 5}`,
      seed: i + 5,
      attempt: 1,
      timeoutS: 60,
      taskDir: path.join(dir, 'harness-tasks'),
    });
    const a = performance.now() - t0;
    if (i === -5) fs.copyFileSync(path.join(dir, 'harness-tasks', 'farm_0_type_0_seed_0', 'attempt-1', 'task.json'), taskFile);
    const d = await directRun(dir, taskFile);
    if (i < 0) continue; // warm-up
    attempts.push(a);
    directs.push(d);
    diffs.push(a - d);
  }
  return { attemptMs: median(attempts), directMs: median(directs), pairedMs: median(diffs) };
}

async function run(file: string): Promise<void> {
  const r = await runWfloMeasured(['run', file, '--quiet']);
  if (r.code !== 0) throw new Error(`${path.basename(file)} failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
}

export async function benchCommand(): Promise<void> {
  console.log(`\n## command tasks (a user's program: ${PY}, answering at once; demo's cs1-16 tasks, 16 turbines)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-command-'));
  try {
    fs.writeFileSync(path.join(dir, 'prog.py'), QUICK);
    const command = (mode: string) => ({ method: 'command', run: [PY, 'prog.py'], inputs: ['prog.py'], mode });
    const write = (name: string, c: Record<string, unknown>): string => {
      const f = path.join(dir, `${name}.yaml`);
      fs.writeFileSync(f, stringify(c));
      return f;
    };
    const sizesFile = write('sizes', campaign('sizes', path.join(dir, 'sizes'), 1, 1, command('per-task')));
    const c = loadCampaign(sizesFile);
    const o = await perAttemptOverhead(dir, c, 60);
    const perTask1 = path.join(dir, 'per-task-1');
    await run(write('per-task-1', campaign('per-task-1', perTask1, 200, 1, command('per-task'))));
    const p1 = ledgerFigures(perTask1);
    const perTask2 = path.join(dir, 'per-task-2');
    await run(write('per-task-2', campaign('per-task-2', perTask2, 400, 2, command('per-task'))));
    const p2 = ledgerFigures(perTask2);
    const persistent = path.join(dir, 'persistent');
    await run(write('persistent', campaign('persistent', persistent, 5000, 2, command('persistent'))));
    const pp = ledgerFigures(persistent);
    const noop = path.join(dir, 'noop');
    await run(write('noop', campaign('noop', noop, 5000, 2, { method: 'noop' })));
    const nn = ledgerFigures(noop);

    console.log(`interpreter start-up: the program run directly (spawn, read the task, write the result), median of 60: ${o.directMs.toFixed(1)} ms`);
    console.log(
      `per-task mode, wflo's own work per attempt (attempt folder, task document, spawn, logs, result read and checked), ` +
        `interleaved with the direct runs: attempt ${o.attemptMs.toFixed(1)} ms, overhead beyond the direct run ${o.pairedMs.toFixed(1)} ms (median of 60 pairs)  [target <= 10 ms]`,
    );
    console.log(
      `per-task mode, 1 worker, whole path to the ledger: ${(p1.intervalS * 1000).toFixed(1)} ms per task (${p1.tasks} tasks; ` +
        `attempt wall time as the worker measured it: median ${(p1.medianWallS * 1000).toFixed(1)} ms)`,
    );
    console.log(`per-task mode, 2 workers: ${p2.perSecond.toFixed(0)} tasks/s (${p2.tasks} tasks)`);
    console.log(
      `persistent mode, 2 workers: ${pp.perSecond.toFixed(0)} tasks/s (${pp.tasks} tasks; median attempt ${(pp.medianWallS * 1000).toFixed(2)} ms)  [target >= 500/s]`,
    );
    console.log(`built-in no-op, 2 workers, same run: ${nn.perSecond.toFixed(0)} tasks/s (${nn.tasks} tasks)`);

    // Task document sizes: this campaign's, and with a 360 × 23 rose.
    const places = {
      scratchDir: path.join(dir, 'tasks', 'farm_0_type_0_seed_0', 'attempt-1', 'scratch'),
      resultFile: path.join(dir, 'tasks', 'farm_0_type_0_seed_0', 'attempt-1', 'result.json'),
      windFile: path.join(dir, 'tasks', '_wind', `wind-${'0'.repeat(32)}.json`),
    };
    const identity = { taskId: 'farm_0_type_0_seed_0', seed: 0, attempt: 1, timeoutS: 3600, startedAtMs: Date.now() };
    const small = JSON.stringify(taskDocument(identity, c.farms[0], c.farmTypes[0], {}, places)).length;
    const nd = 360,
      ns = 23;
    const probability = new Float64Array(nd * ns);
    for (let i = 0; i < probability.length; i++) probability[i] = (1 + Math.sin(i)) / 2;
    const total = probability.reduce((a, b) => a + b, 0);
    for (let i = 0; i < probability.length; i++) probability[i] /= total;
    const bigFarm: FarmSpec = {
      ...c.farms[0],
      wind: {
        directionsDeg: Float64Array.from({ length: nd }, (_, i) => i),
        speeds: Float64Array.from({ length: ns }, (_, i) => 3 + i),
        probability,
        turbulenceIntensity: 0.06,
      },
      windAsWritten: { kind: 'file', path: 'winds/site-360x23.yaml' },
    };
    const big = JSON.stringify(taskDocument(identity, bigFarm, c.farmTypes[0], {}, places)).length;
    const windBytes = JSON.stringify(windDocument(bigFarm.wind, bigFarm.windAsWritten)).length;
    console.log(
      `task document: ${small} bytes for cs1-16 (16 directions × 1 speed); ${big} bytes with a 360 × 23 rose, whose bins ` +
        `(${windBytes} bytes of JSON) are written once per farm to the wind file the document names`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
