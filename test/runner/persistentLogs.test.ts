/**
 * A persistent program's output and answers travel on different pipes. What it printed and
 * flushed before answering a task belongs to that task's logs, never to the next task's — even
 * when the answer pipe is read first (CI once quoted task 7's "task 7 done" in seed 1's failure).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PersistentProgram } from '../../src/runner/command/persistentProgram.js';
import { BoundedLog } from '../../src/runner/command/boundedLog.js';

// A program that writes straight to its descriptors (no buffering): output first, then the answer.
const PROGRAM = `
const fs = require('node:fs');
const tasksFd = Number(process.env.WFLO_TASKS_FD), resultsFd = Number(process.env.WFLO_RESULTS_FD);
let pending = '';
const buf = Buffer.alloc(65536);
for (;;) {
  let n;
  try { n = fs.readSync(tasksFd, buf); } catch (e) { if (e.code === 'EAGAIN') continue; throw e; }
  if (n === 0) break;
  pending += buf.toString('utf8', 0, n);
  let nl;
  while ((nl = pending.indexOf('\\n')) >= 0) {
    const task = JSON.parse(pending.slice(0, nl));
    pending = pending.slice(nl + 1);
    fs.writeSync(1, 'out of ' + task.task_id + '\\n');
    fs.writeSync(2, 'err of ' + task.task_id + '\\n');
    fs.writeSync(resultsFd, JSON.stringify({ task_id: task.task_id, error: 'done ' + task.task_id }) + '\\n');
  }
}
`;

test("output printed before an answer lands in that task's logs, for 400 tasks in a row", { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-persistent-logs-'));
  try {
    const script = path.join(dir, 'program.cjs');
    fs.writeFileSync(script, PROGRAM);
    const program = new PersistentProgram('k', { argv: [process.execPath, script], cwd: dir }, path.join(dir, 'scratch'));
    const misplaced: string[] = [];
    for (let i = 0; i < 400; i++) {
      const taskId = `task_${i}`;
      const out = new BoundedLog(path.join(dir, `${taskId}.out`)),
        err = new BoundedLog(path.join(dir, `${taskId}.err`));
      const answer = await program.run({ task_id: taskId }, taskId, out, err, '');
      out.close();
      err.close();
      assert.deepEqual(answer, { kind: 'error', permanent: false, message: `done ${taskId}` });
      for (const [file, kind] of [
        [out.file, 'out'],
        [err.file, 'err'],
      ] as const) {
        const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
        if (text !== `${kind} of ${taskId}\n`) misplaced.push(`${taskId}.${kind}: ${JSON.stringify(text)}`);
      }
    }
    await program.stop();
    assert.deepEqual(misplaced, [], `${misplaced.length} logs hold another task's output`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
