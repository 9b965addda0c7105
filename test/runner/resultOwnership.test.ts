/**
 * A task's result belongs to its task. Hostile per-task programs (Debian's python3): a result
 * that is a symbolic link to a secret, a hard link to it, an old copy of it renamed into place, a
 * FIFO; a program that writes its answer into the neighbour task's attempt folder while the
 * neighbour runs (workers: 2) and exits 0 without one of its own; a program that rewrites the
 * neighbour's task document before the neighbour reads it. Each is refused with one line naming
 * why and the log folder, the run ends (exit 1, in seconds: no FIFO waits), and the secret's
 * content reaches no message, ledger, audit log or `wflo status`.
 */
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import { auditEvents, runWflo, tempDir } from './runnerTestKit.js';
import { commandCampaign, commandProject, pythonUnavailable } from './commandKit.js';

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

function doneIds(out: string): string[] {
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT task_id FROM results ORDER BY task_id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** Every byte wflo wrote in `out` except the program's own files in tasks/ (its logs may say anything). */
function wfloBytes(out: string): string {
  return fs
    .readdirSync(out)
    .filter((n) => n !== 'tasks')
    .map((n) => {
      const p = path.join(out, n);
      return fs.statSync(p).isFile() ? fs.readFileSync(p).toString('latin1') : '';
    })
    .join('\n');
}

const id = (seed: number): string => `farm_0_type_0_seed_${seed}`;

const RING = `
import json, math, os, shutil, sys, time
def ring(m):
    return [1200 * math.cos(2 * math.pi * i / m) for i in range(m)], [1200 * math.sin(2 * math.pi * i / m) for i in range(m)]
task = json.load(open(os.environ["WFLO_TASK"]))
seed, n, secret = task["seed"], task["n_turbines"], task["params"]["secret"]
result = os.environ["WFLO_RESULT"]
assert result == task["result_file"]
`;

const LINKS = `${RING}
if seed == 0:
    os.symlink(secret, result)
elif seed == 1:
    os.link(secret, result)
elif seed == 2:
    old = result + ".old"
    shutil.copy2(secret, old)          # keeps the secret's mtime, from before the attempt
    os.rename(old, result)
elif seed == 3:
    os.mkfifo(result)
else:
    x, y = ring(n)
    json.dump({"layout": {"x": x, "y": y}}, open(result, "w"))
`;

/** Seed 0 answers for seed 1 (into seed 1's folder, the name a program would guess), then for itself; seed 1 waits for that and writes nothing. */
const CROSS = `${RING}
tasks = os.path.dirname(os.path.dirname(os.path.dirname(result)))
neighbour = os.path.join(tasks, "farm_0_type_0_seed_1", "attempt-1")
deadline = time.time() + 30
if seed == 0:
    while not os.path.isdir(neighbour) and time.time() < deadline:
        time.sleep(0.05)
    x, y = ring(n)
    for name in ("result.json", "result-0000000000000000.json"):
        with open(os.path.join(neighbour, name), "w") as f:
            json.dump({"layout": {"x": x, "y": y}}, f)
    json.dump({"layout": {"x": x, "y": y}}, open(result, "w"))
else:
    while not os.path.exists(os.path.join(neighbour, "result.json")) and time.time() < deadline:
        time.sleep(0.05)
`;

/** Seed 0 rewrites seed 1's task document (seed 1 → seed 0) before seed 1 reads it; seed 1 answers what its document asks. */
const TAMPER = `${RING}
tasks = os.path.dirname(os.path.dirname(os.path.dirname(result)))
neighbour = os.path.join(tasks, "farm_0_type_0_seed_1", "attempt-1")
flag = os.path.join(task["params"]["flags"], "tampered")
deadline = time.time() + 30
x, y = ring(n)
if seed == 0:
    doc = os.path.join(neighbour, "task.json")
    while not os.path.exists(doc) and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.1)
    other = json.load(open(doc))
    other["seed"] = 0
    json.dump(other, open(doc, "w"))
    open(flag, "w").close()
else:
    while not os.path.exists(flag) and time.time() < deadline:
        time.sleep(0.05)
    task = json.load(open(os.environ["WFLO_TASK"]))
json.dump({"layout": {"x": x, "y": y}}, open(result, "w"))
`;

describe("a task's result belongs to its task", { skip: pythonUnavailable() }, () => {
  test('a result linked to a secret, hard-linked, renamed from before the attempt, a FIFO: refused unread, one line each', { timeout: 180_000 }, async (t) => {
    const dir = tempDir('result-links');
    const out = path.join(dir, 'out');
    const token = `TOPSECRET-${crypto.randomBytes(6).toString('hex')}`;
    const secret = path.join(dir, 'shadow');
    fs.writeFileSync(secret, `root:${token}:19000:0:99999:7:::\n`);
    const past = new Date(Date.now() - 3600_000);
    fs.utimesSync(secret, past, past);
    const file = commandProject(path.join(dir, 'project'), LINKS, { ...commandCampaign(out, 5, { params: { secret } }), timeout_s: 60 });
    const t0 = performance.now();
    const r = await runWflo(['run', file]);
    const seconds = (performance.now() - t0) / 1000;
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr.trim().split('\n').pop()!, /^wflo: 4 tasks failed; see `wflo status/);
    const rows = taskRows(out);
    const expect: [number, RegExp][] = [
      [0, /^result is a symbolic link \(refused unread\) \(log: .*tasks\/farm_0_type_0_seed_0\/attempt-2\)$/],
      [1, /^result has \d+ hard links: it is another file too \(refused unread\) \(log: .*attempt-2\)$/],
      [2, /^result was last modified \d+ s before the attempt began \(refused unread\) \(log: .*attempt-2\)$/],
      [3, /^result is a FIFO \(refused unread\) \(log: .*attempt-2\)$/],
    ];
    for (const [seed, message] of expect) {
      const row = rows.get(id(seed))!;
      assert.equal(row.failed, 1, `seed ${seed} failed`);
      assert.match(row.last_error ?? '', message, `seed ${seed}`);
    }
    assert.deepEqual(doneIds(out), [id(4)]);
    // The secret is where it was, unchanged, and nowhere in what wflo wrote or said.
    assert.equal(fs.readFileSync(secret, 'utf8'), `root:${token}:19000:0:99999:7:::\n`);
    const status = await runWflo(['status', out]);
    for (const [what, text] of [
      ['run output', r.stdout + r.stderr],
      ['ledger, audit log, layouts.h5', wfloBytes(out)],
      ['wflo status', status.stdout + status.stderr],
    ] as const) {
      assert.equal(text.includes(token), false, `the secret is in the ${what}`);
      assert.equal(text.includes('root:'), false, `the secret's start is in the ${what}`);
    }
    t.diagnostic(`run of 5 hostile and healthy tasks ended in ${seconds.toFixed(1)} s`);
  });

  test("workers: 2, a program writes its answer into the running neighbour's folder: not taken as the neighbour's", { timeout: 120_000 }, async () => {
    const dir = tempDir('result-cross');
    const out = path.join(dir, 'out');
    const file = commandProject(path.join(dir, 'project'), CROSS, { ...commandCampaign(out, 2, { params: { secret: '' } }), attempts: 1 });
    const r = await runWflo(['run', file, '--quiet']);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(doneIds(out), [id(0)]);
    const row = taskRows(out).get(id(1))!;
    assert.equal(row.failed, 1);
    assert.match(
      row.last_error ?? '',
      /^program exited 0 without writing a result to \$WFLO_RESULT \(the folder holds result(-0{16})?\.json, result(-0{16})?\.json, not the file named in \$WFLO_RESULT: write to that path\) \(no output\) \(log: .*farm_0_type_0_seed_1\/attempt-1\)$/,
    );
    // What the neighbour wrote is still there to look at.
    assert.ok(fs.existsSync(path.join(out, 'tasks', id(1), 'attempt-1', 'result.json')));
    assert.equal(auditEvents(out).filter((e) => e.event === 'attempt' && e.task === id(1) && e.outcome === 'done').length, 0);
  });

  test("workers: 2, a program rewrites the running neighbour's task document: the neighbour's answer is not taken", { timeout: 120_000 }, async () => {
    const dir = tempDir('result-tamper');
    const out = path.join(dir, 'out');
    const flags = path.join(dir, 'flags');
    fs.mkdirSync(flags);
    const file = commandProject(path.join(dir, 'project'), TAMPER, { ...commandCampaign(out, 2, { params: { secret: '', flags } }), attempts: 1 });
    const r = await runWflo(['run', file, '--quiet']);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.ok(fs.existsSync(path.join(flags, 'tampered')), "the neighbour's document was rewritten");
    assert.deepEqual(doneIds(out), [id(0)]);
    assert.match(
      taskRows(out).get(id(1))!.last_error ?? '',
      /^task\.json was changed while the program ran \(another program writing into this attempt folder\?\); its answer is not taken \(log: .*farm_0_type_0_seed_1\/attempt-1\)$/,
    );
  });
});
