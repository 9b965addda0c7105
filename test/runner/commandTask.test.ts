/**
 * Hostile programs as command tasks (Debian's python3 as the user's program). One campaign, one
 * behaviour per seed, run once: each misbehaviour is one clear line in the ledger, retried or not
 * as it should be, and nothing is lost (the healthy tasks are done and in layouts.h5). A program
 * that never exits is killed with its whole process group at the timeout, a grandchild that
 * ignores SIGTERM included, and no process of it is left; 256 MiB on stdout (256 × the log limit) leaves a bounded log
 * and a done task; a gigabyte result is refused unread. The same for a persistent program: it is
 * restarted after it dies, answers out of step, hangs or floods its channel, and stopped at the end.
 */
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { LOG_LIMIT_BYTES } from '../../src/runner/command/protocol.js';
import { auditEvents, collect, runWflo, startWflo, tempDir, waitFor } from './runnerTestKit.js';
import { PY, commandCampaign, commandProject, pythonUnavailable, running } from './commandKit.js';

const RING = `
import json, math, os, signal, sys, time
def ring(m):
    return [1200 * math.cos(2 * math.pi * i / m) for i in range(m)], [1200 * math.sin(2 * math.pi * i / m) for i in range(m)]
`;

const PER_TASK = `${RING}
task = json.load(open(os.environ["WFLO_TASK"]))
seed, n, pid_dir = task["seed"], task["n_turbines"], task["params"]["pid_dir"]
open(os.path.join(pid_dir, f"{seed}-{os.getpid()}"), "w").close()
x, y = ring(n)
def write(doc=None, raw=None):
    with open(os.environ["WFLO_RESULT"], "w") as f:
        f.write(raw if raw is not None else json.dumps(doc))
if seed == 1:
    print("Traceback (most recent call last):", file=sys.stderr)
    print("ValueError: seed 1 always fails", file=sys.stderr)
    sys.exit(3)
elif seed == 2:
    print("done, I think")
elif seed == 3:
    write(raw="this is not json")
elif seed == 4:
    x[3] = float("nan")
    write({"layout": {"x": x, "y": y}})
elif seed == 5:
    x, y = ring(n - 1)
    write({"layout": {"x": x, "y": y}})
elif seed == 6:
    x[0] = 5000.0
    write({"layout": {"x": x, "y": y}})
elif seed == 7:
    time.sleep(3600)
elif seed == 8:
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        open(os.path.join(pid_dir, f"{seed}-{os.getpid()}-grandchild"), "w").close()
        while True:
            time.sleep(1)
    time.sleep(3600)
elif seed == 9:
    line = b"x" * 1023 + b"\\n"
    block = line * 1024
    for _ in range(256):
        sys.stdout.buffer.write(block)
    print("last words of seed 9", flush=True)
    write({"layout": {"x": x, "y": y}})
elif seed == 10:
    with open(os.environ["WFLO_RESULT"], "wb") as f:
        f.truncate(1 << 30)
elif seed == 11:
    print("cannot place turbines on this site", file=sys.stderr)
    sys.exit(65)
elif seed == 12:
    write({"error": "site too small for this method", "permanent": True})
elif seed == 13:
    write({"layout": {"x": x, "y": y}, "aep": 1.0})
else:
    write({"layout": {"x": x, "y": y}, "aep_mwh": 400000.5, "iterations": 7, "evaluations": 9, "metrics": {"cable_km": 12.5}})
`;

const PERSISTENT = `${RING}
tasks = os.fdopen(int(os.environ["WFLO_TASKS_FD"]), "r")
results = os.fdopen(int(os.environ["WFLO_RESULTS_FD"]), "w")
announced = False
for line in tasks:
    task = json.loads(line)
    seed, tid = task["seed"], task["task_id"]
    if not announced:
        open(os.path.join(task["params"]["pid_dir"], str(os.getpid())), "w").close()
        announced = True
    x, y = ring(task["n_turbines"])
    answer = {"task_id": tid, "layout": {"x": x, "y": y}}
    if seed == 1:
        os._exit(9)
    elif seed == 2:
        answer["task_id"] = "farm_9_type_9_seed_9"
    elif seed == 3:
        answer = {"task_id": tid, "error": "no feasible start", "permanent": True}
    elif seed == 4:
        time.sleep(3600)
    elif seed == 5:
        results.write('{"task_id": "' + tid + '", "padding": "' + "x" * (20 << 20) + '"}\\n')
        results.flush()
        continue
    print(f"task {seed} done", flush=True)
    results.write(json.dumps(answer) + "\\n")
    results.flush()
`;

interface TaskRow {
  task_id: string;
  failed: number;
  attempts: number;
  last_error: string | null;
}

function taskRows(out: string): Map<string, TaskRow> {
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true });
  try {
    return new Map((db.prepare('SELECT task_id, failed, attempts, last_error FROM tasks').all() as TaskRow[]).map((r) => [r.task_id, r]));
  } finally {
    db.close();
  }
}

function attemptsOf(out: string, taskId: string): number {
  return auditEvents(out).filter((e) => e.event === 'attempt' && e.task === taskId && e.outcome !== 'cancelled').length;
}

const id = (seed: number): string => `farm_0_type_0_seed_${seed}`;

describe('command tasks', { skip: pythonUnavailable() }, () => {
  test('per-task: every misbehaviour is one clear line, retried or not as it should be; nothing lost, no process left', { timeout: 180_000 }, async () => {
    const dir = tempDir('command-hostile');
    const pidDir = path.join(dir, 'pids');
    fs.mkdirSync(pidDir);
    const out = path.join(dir, 'out');
    const file = commandProject(path.join(dir, 'project'), PER_TASK, { ...commandCampaign(out, 15, { params: { pid_dir: pidDir } }), timeout_s: 10 });
    const r = await runWflo(['run', file, '--quiet']);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /12 failed/, r.stderr);

    const rows = taskRows(out);
    const expect: [number, RegExp, 'retried' | 'permanent'][] = [
      [
        1,
        /^program exited with code 3: Traceback \(most recent call last\): \| ValueError: seed 1 always fails \(log: .*tasks\/farm_0_type_0_seed_1\/attempt-2\)$/,
        'retried',
      ],
      [2, /^program exited 0 without writing a result to \$WFLO_RESULT: done, I think \(log: /, 'retried'],
      [3, /^result is not JSON \(.*it begins 'this is not json'\) \(log: /, 'retried'],
      [4, /^turbine 3 has a non-finite position \(log: .*tasks\/farm_0_type_0_seed_4\/attempt-1\)$/, 'permanent'],
      [5, /^layout has 15\/15 coordinates, expected 16 \(log: .*attempt-1\)$/, 'permanent'],
      // The ring's turbine 0 moved to x = 5000 m: 3700 m outside the 1300 m circle.
      [
        6,
        /^infeasible layout: turbine 0 at \(5000\.0, 0\.0\) is 3700\.0 m outside the boundary \(log: .*tasks\/farm_0_type_0_seed_6\/attempt-1\)$/,
        'permanent',
      ],
      [7, /^timed out after 10 s \(worker and its process group killed\)$/, 'retried'],
      [8, /^timed out after 10 s \(worker and its process group killed\)$/, 'retried'],
      [10, /^result is 1024 MiB, over the 16 MiB limit \(refused unread, deleted\) \(log: /, 'retried'],
      [11, /^program reported a permanent failure \(exit code 65\): cannot place turbines on this site \(log: /, 'permanent'],
      [12, /^site too small for this method \(log: /, 'permanent'],
      [13, /^result: aep: unknown field 'aep' \(known: protocol, task_id, layout, aep_mwh, .*\) \(log: .*attempt-1\)$/, 'permanent'],
    ];
    for (const [seed, message, kind] of expect) {
      const row = rows.get(id(seed))!;
      assert.equal(row.failed, 1, `seed ${seed} failed`);
      assert.match(row.last_error ?? '', message, `seed ${seed}`);
      assert.equal(row.last_error!.includes('\n'), false);
      assert.equal(attemptsOf(out, id(seed)), kind === 'permanent' ? 1 : 2, `seed ${seed}: ${kind}`);
    }
    for (const attempt of [1, 2]) {
      const folder10 = path.join(out, 'tasks', id(10), `attempt-${attempt}`);
      assert.deepEqual(
        fs.readdirSync(folder10).filter((n) => n.startsWith('result')),
        [],
        'the oversized result was deleted',
      );
    }

    // Nothing lost: the healthy tasks (and the one that printed 256 MiB) are done and exported.
    const { records, info } = await readLayoutsFile(path.join(out, 'layouts.h5'));
    assert.deepEqual(records.map((rec) => rec.taskId).sort(), [id(0), id(14), id(9)].sort());
    assert.equal(info.nDone, 3);
    const healthy = records.find((rec) => rec.taskId === id(0))!;
    assert.equal(healthy.nTurbines, 16);
    assert.equal(healthy.iterations, 7);
    assert.equal(healthy.evaluations, 9);
    // The program's AEP and metrics are kept; the row's AEP is wflo's (the gate recomputed it).
    const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true });
    const kept = db.prepare('SELECT aep, aep_reported, metrics FROM results WHERE task_id = ?').get(id(0)) as {
      aep: number;
      aep_reported: number;
      metrics: string;
    };
    db.close();
    assert.equal(kept.aep_reported, 400000.5);
    assert.deepEqual(JSON.parse(kept.metrics), { cable_km: 12.5 });
    assert.equal(kept.aep, healthy.aep);
    assert.ok(kept.aep > 3e5 && kept.aep !== 400000.5, `wflo's AEP ${kept.aep}`);

    // The 256 MiB of stdout: a bounded log keeping the head and the last words.
    const log = path.join(out, 'tasks', id(9), 'attempt-1', 'stdout.log');
    const size = fs.statSync(log).size;
    assert.ok(size <= LOG_LIMIT_BYTES + 200, `stdout.log is ${size} bytes`);
    const text = fs.readFileSync(log, 'utf8');
    assert.match(text, /\[wflo: \d+ bytes left out here/);
    assert.match(text, /last words of seed 9\n$/);

    // No process of any attempt is left: the never-ending ones, and the grandchild that ignored SIGTERM.
    const pids = fs.readdirSync(pidDir).map((n) => ({ name: n, pid: Number(n.split('-')[1]) }));
    assert.ok(
      pids.some((p) => p.name.endsWith('-grandchild')),
      'the grandchild was started',
    );
    assert.equal(pids.filter((p) => p.name.startsWith('7-')).length, 2, 'the never-ending program ran twice');
    for (const p of pids) assert.equal(running(p.pid), false, `${p.name} is still running`);

    // An attempt folder reruns by hand, and gives the same result.
    const folder = path.join(out, 'tasks', id(0), 'attempt-1');
    const resultFile = (JSON.parse(fs.readFileSync(path.join(folder, 'task.json'), 'utf8')) as { result_file: string }).result_file;
    assert.match(path.basename(resultFile), /^result-[0-9a-f]{16}\.json$/);
    assert.equal(path.dirname(resultFile), folder);
    const first = fs.readFileSync(resultFile, 'utf8');
    fs.rmSync(resultFile);
    assert.equal(spawnSync('sh', [path.join(folder, 'command.sh')]).status, 0);
    assert.equal(fs.readFileSync(resultFile, 'utf8'), first);
    assert.equal(fs.readFileSync(path.join(folder, 'exit_code'), 'utf8'), '0\n');
  });

  test('persistent: restarted after it dies, answers out of step, hangs or floods; stopped at the end', { timeout: 180_000 }, async () => {
    const dir = tempDir('command-persistent');
    const pidDir = path.join(dir, 'pids');
    fs.mkdirSync(pidDir);
    const out = path.join(dir, 'out');
    const file = commandProject(path.join(dir, 'project'), PERSISTENT, {
      ...commandCampaign(out, 10, { mode: 'persistent', params: { pid_dir: pidDir } }),
      timeout_s: 6,
    });
    const r = await runWflo(['run', file, '--quiet']);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const rows = taskRows(out);
    const expect: [number, RegExp, number][] = [
      [1, /^persistent program exited with code 9 during the task \(no output\) \(log: .*attempt-2\)$/, 2],
      [2, /^result is for task 'farm_9_type_9_seed_9', not farm_0_type_0_seed_2 \(the program is out of step and is restarted\) \(log: /, 2],
      [3, /^no feasible start \(log: /, 1],
      [4, /^timed out after 6 s \(worker and its process group killed\)$/, 2],
      [5, /^result line over the 16 MiB limit \(refused; the program is restarted\) \(log: /, 2],
    ];
    for (const [seed, message, attempts] of expect) {
      const row = rows.get(id(seed))!;
      assert.equal(row.failed, 1, `seed ${seed} failed`);
      assert.match(row.last_error ?? '', message, `seed ${seed}`);
      assert.equal(attemptsOf(out, id(seed)), attempts, `seed ${seed}`);
    }
    const { records } = await readLayoutsFile(path.join(out, 'layouts.h5'));
    assert.deepEqual(
      records.map((rec) => rec.taskId),
      [0, 6, 7, 8, 9].map(id),
    );
    // What a task printed is in its own log; a task that printed nothing leaves no folder behind.
    const done = fs.readdirSync(path.join(out, 'tasks')).filter((n) => n.startsWith('farm_'));
    for (const seed of [0, 6, 7, 8, 9]) {
      if (!done.includes(id(seed))) continue;
      assert.match(fs.readFileSync(path.join(out, 'tasks', id(seed), 'attempt-1', 'stdout.log'), 'utf8'), new RegExp(`task ${seed} done`));
    }
    // Restarted after each death (at least once per failing attempt but the permanent one), all stopped now.
    const pids = fs.readdirSync(pidDir).map(Number);
    assert.ok(pids.length >= 5, `${pids.length} program processes`);
    for (const p of pids) assert.equal(running(p), false, `program ${p} is still running`);
  });

  test('a coordinator killed with SIGKILL leaves no program behind (per-task and persistent)', { timeout: 60_000 }, async () => {
    for (const mode of ['per-task', 'persistent']) {
      const dir = tempDir(`command-orphan-${mode}`);
      const pidDir = path.join(dir, 'pids');
      fs.mkdirSync(pidDir);
      const program = mode === 'per-task' ? PER_TASK : PERSISTENT;
      const seed = mode === 'per-task' ? 7 : 4; // never answers
      const file = commandProject(
        path.join(dir, 'project'),
        program,
        commandCampaign(path.join(dir, 'out'), [seed, seed + 100], { mode, params: { pid_dir: pidDir } }),
      );
      const child = startWflo(['run', file, '--quiet']);
      const exited = collect(child);
      assert.ok(await waitFor(() => fs.readdirSync(pidDir).length >= 2, 30_000), `${mode}: the programs started`);
      child.kill('SIGKILL');
      await exited;
      const pids = fs.readdirSync(pidDir).map((n) => Number(n.includes('-') ? n.split('-')[1] : n));
      assert.ok(
        await waitFor(() => pids.every((p) => !running(p)), 3000),
        `${mode}: programs still running after the coordinator died: ${pids.filter(running).join(', ')}`,
      );
    }
  });

  test('a program that is not there is bad input before anything runs', async () => {
    const dir = tempDir('command-missing');
    const out = path.join(dir, 'out');
    const c = commandCampaign(out, 2, {});
    (c.optimizer as { run: string[] }).run = ['python3.99-not-here', 'prog.py'];
    const file = commandProject(path.join(dir, 'project'), 'pass\n', c);
    const r = await runWflo(['run', file]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /campaign\.yaml:\d+: optimizer\.run\[0\]: program 'python3\.99-not-here' is not found on PATH\n$/);
    assert.equal(fs.existsSync(out), false, 'nothing was written');
    assert.ok(PY.length > 0);
  });
});
