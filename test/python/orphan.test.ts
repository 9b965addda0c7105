/**
 * The engine never outlives its Python process: Python opens a farm, prints its engine's pid and
 * waits; the test kills Python with SIGKILL (no cleanup code runs) and polls until that `wflo
 * serve` process is gone (stdin EOF ends it), with a generous timeout for a loaded machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { PYTHON, REPO } from '../helpers.js';
import { PYTHON_PACKAGE, pythonMissing, processAlive as alive } from './pythonKit.js';

const CODE = `
import sys, time, wflo
engine = wflo.Engine()
farm = engine.farm("iea37-cs1-16")
farm.aep(*farm.baseline)
print(engine._process.pid, flush=True)
time.sleep(600)
`;

test('SIGKILL of the Python process leaves no wflo serve process behind', {
  skip: pythonMissing() || (fs.existsSync('/proc/self/stat') ? false : 'needs /proc'),
}, async () => {
  const py = spawn(PYTHON, ['-c', CODE], { cwd: REPO, env: { ...process.env, PYTHONPATH: PYTHON_PACKAGE }, stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve, reject) => {
    let out = '';
    py.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    py.on('exit', (code) => reject(new Error(`python ended first (${code})`)));
  });
  assert.ok(pid > 0 && alive(pid), `engine pid ${pid} is running`);
  assert.match(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /serve\0--stdio/);
  py.kill('SIGKILL');
  const until = Date.now() + 60_000;
  while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  assert.equal(alive(pid), false, `wflo serve (pid ${pid}) still runs 60 s after its Python was killed`);
});
