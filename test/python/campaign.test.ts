/**
 * Campaigns from Python (python/wflo/campaign.py), run by Debian's python3: a bad campaign file
 * raises WfloError with the line and exit code `wflo run FILE` gives; a run reports its progress
 * as it goes (monotonic, ending at every task done) and returns the `wflo run --json` summary;
 * `status()` is `wflo status --json`; a run interrupted from Python (`interrupt()`: the CLI's
 * SIGINT) raises RunFailed (exit code 130) keeping what was done, and running again resumes with
 * only the rest; a terminal's Ctrl-C (SIGINT to Python's process group) ends the run as one
 * interrupt does (ledger: interrupted; not the second interrupt's exit at once).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { PYTHON, runWflo, tempDir } from '../helpers.js';
import { noopCampaign } from '../runner/runnerTestKit.js';
import { PYTHON_PACKAGE, pythonMissing, runPython } from './pythonKit.js';

const missing = pythonMissing();

describe('campaigns from Python', { skip: missing }, () => {
  const dir = tempDir('wflo-pycampaign-');

  test("a bad campaign file: WfloError with the CLI's line and exit code", { timeout: 120_000 }, () => {
    const file = path.join(dir, 'bad.yaml');
    fs.writeFileSync(file, stringify({ ...noopCampaign(path.join(dir, 'out-bad'), 2), workerz: 2 }));
    const cli = runWflo(['run', file]);
    assert.equal(cli.status, 2);
    const py = runPython([
      '-c',
      `
import sys, wflo
try:
    wflo.load_campaign(sys.argv[1])
except wflo.WfloError as err:
    print(err.exit_code)
    print(err)
`,
      file,
    ]);
    assert.equal(py.status, 0, py.stderr);
    const [code, message] = py.stdout.split('\n');
    assert.equal(code, '2');
    assert.match(message, /bad\.yaml:\d+: workerz: unknown field/);
    assert.equal(`wflo: ${message}\n`, cli.stderr);
  });

  test('run: progress as it goes, the run summary; status() is `wflo status --json`', { timeout: 300_000 }, () => {
    const out = path.join(dir, 'out-run');
    const file = path.join(dir, 'run.yaml');
    fs.writeFileSync(file, stringify(noopCampaign(out, 3, { sleep_ms: 300 })));
    const py = runPython([
      '-c',
      `
import json, sys, wflo
c = wflo.load_campaign(sys.argv[1])
seen = []
summary = c.run(workers=1, progress_every_s=0.2, on_progress=seen.append)
print(json.dumps({"report": c.report, "summary": summary, "progress": [p._asdict() for p in seen], "status": c.status(), "after": c.validate()}))
`,
      file,
    ]);
    assert.equal(py.status, 0, py.stderr);
    const got = JSON.parse(py.stdout) as {
      report: { tasks: number; missing: number; outputDir: string };
      summary: { done: number; total: number; doneThisRun: number; stopReason: string; layoutsFile: string };
      progress: { done: number; total: number; failed: number; running: number; pending: number }[];
      status: Record<string, unknown>;
      after: { done: number; missing: number };
    };
    assert.deepEqual([got.report.tasks, got.report.missing, got.report.outputDir], [12, 12, out]);
    assert.deepEqual([got.summary.done, got.summary.total, got.summary.doneThisRun, got.summary.stopReason], [12, 12, 12, 'complete']);
    assert.equal(got.summary.layoutsFile, path.join(out, 'layouts.h5'));
    assert.ok(got.progress.length >= 2, `${got.progress.length} progress reports`);
    for (const [i, p] of got.progress.entries()) {
      assert.equal(p.total, 12);
      assert.equal(p.done + p.failed + p.running + p.pending, 12);
      if (i > 0) assert.ok(p.done >= got.progress[i - 1].done, 'done never goes back');
    }
    assert.equal(got.progress.at(-1)!.done, 12);
    assert.deepEqual([got.after.done, got.after.missing], [12, 0]);
    const cli = JSON.parse(runWflo(['status', out, '--json']).stdout) as Record<string, unknown>;
    const steady = (s: Record<string, unknown>) => ({ ...s, run: { ...(s.run as Record<string, unknown>), heartbeatAgeS: 0 } });
    assert.deepEqual(steady(got.status), steady(cli));
  });

  test('interrupt() keeps what is done (RunFailed, 130); running again does only the rest', { timeout: 300_000 }, () => {
    const out = path.join(dir, 'out-stop');
    const file = path.join(dir, 'stop.yaml');
    fs.writeFileSync(file, stringify(noopCampaign(out, 3, { sleep_ms: 1500 })));
    const py = runPython([
      '-c',
      `
import json, sys, time, wflo
run = wflo.start_run(sys.argv[1], workers=1, progress_every_s=0.2)
while run.progress is None or run.progress.done < 2:
    time.sleep(0.05)
run.interrupt()
try:
    run.wait()
    print(json.dumps({"stopped": False}))
except wflo.RunFailed as err:
    first = {"code": err.exit_code, "message": str(err), "done": err.summary["done"]}
second = wflo.run_campaign(sys.argv[1], workers=2)
print(json.dumps({"first": first, "second": second}))
`,
      file,
    ]);
    assert.equal(py.status, 0, py.stderr);
    const got = JSON.parse(py.stdout) as { first: { code: number; message: string; done: number }; second: { done: number; doneThisRun: number } };
    assert.equal(got.first.code, 130);
    assert.match(got.first.message, /^interrupted: \d+\/12 tasks done and kept/);
    assert.ok(got.first.done >= 2 && got.first.done < 12, `${got.first.done} done before the interrupt`);
    assert.equal(got.second.done, 12);
    assert.equal(got.second.doneThisRun, 12 - got.first.done);
  });

  test("Ctrl-C at a terminal (SIGINT to Python's process group) stops the run cleanly: one interrupt reaches wflo run", { timeout: 300_000 }, async () => {
    const out = path.join(dir, 'out-ctrlc');
    const file = path.join(dir, 'ctrlc.yaml');
    fs.writeFileSync(file, stringify(noopCampaign(out, 3, { sleep_ms: 1500 })));
    const { spawn } = await import('node:child_process');
    const child = spawn(
      PYTHON,
      [
        '-c',
        `
import sys, wflo
def show(p):
    print("progress", p.done, flush=True)
wflo.run_campaign(sys.argv[1], workers=1, progress_every_s=0.2, on_progress=show, on_line=lambda l: print("line", l, flush=True))
`,
        file,
      ],
      { env: { ...process.env, PYTHONPATH: PYTHON_PACKAGE, WFLO_CLI: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
    });
    const deadline = Date.now() + 200_000;
    while (!/progress [1-9]/.test(stdout)) {
      assert.ok(Date.now() < deadline, stdout);
      await new Promise((r) => setTimeout(r, 50));
    }
    process.kill(-child.pid!, 'SIGINT'); // what a terminal's Ctrl-C does: the whole foreground group
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    assert.ok(code === 130 || signal === 'SIGINT', `Python ended with ${code} ${signal}`); // KeyboardInterrupt re-raised
    assert.doesNotMatch(stdout, /second interrupt/);
    const status = JSON.parse(runWflo(['status', out, '--json']).stdout) as { done: number; run: { state: string; endState: string } };
    assert.deepEqual([status.run.state, status.run.endState], ['ended', 'interrupted']);
    assert.ok(status.done >= 1 && status.done < 12, `${status.done} done`);
  });
});
