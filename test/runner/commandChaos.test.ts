/**
 * Chaos with the user's program: SIGKILL the coordinator and the Python processes at random
 * moments, restart (alternating per-task and persistent mode, which is not part of the spec hash),
 * and the final rows equal those of an uninterrupted run. No Python process of a killed
 * coordinator is left behind: its workers end their process groups when it goes away.
 */
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRng } from '../../src/util/rng.js';
import { computedRows } from './bullmqKit.js';
import { collect, ledgerSnapshot, runWflo, startWflo, tempDir, waitFor } from './runnerTestKit.js';
import { exampleProject, processesWith, pythonUnavailable } from './commandKit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('command tasks under chaos', { skip: pythonUnavailable() }, () => {
  test("SIGKILL of the coordinator and of the Python processes, resume: rows equal an uninterrupted run's; no orphan", { timeout: 300_000 }, async (t) => {
    const dir = tempDir('command-chaos');
    const seeds = 6,
      iterations = 1500;
    const refProject = path.join(dir, 'reference');
    const ref = exampleProject(refProject, { out: path.join(dir, 'ref-out'), seeds, iterations });
    const t0 = Date.now();
    const r0 = await runWflo(['run', ref, '--quiet']);
    assert.equal(r0.code, 0, r0.stderr);
    // Kill moments scale with how long the work takes on this machine (quiet or loaded), so the
    // chaos always lands inside the campaign: a task takes about 2 × refMs / seeds (2 workers).
    const refMs = Date.now() - t0;
    const within = (fraction: number) => Math.round(fraction * refMs);

    // A campaign that ends before the chaos is complete is checked like the last one, and the chaos
    // goes on in a fresh project and output folder: every folder must end as the uninterrupted run.
    const folder = (k: number) => {
      const project = path.join(dir, `chaos-${k}`);
      const out = path.join(dir, `chaos-out-${k}`);
      const files = [
        exampleProject(project, { out, seeds, iterations, name: 'campaign' }),
        exampleProject(project, { out, seeds, iterations, mode: 'persistent', name: 'persistent' }),
      ];
      // Same campaign name in both files: one output folder, resumed by either.
      fs.writeFileSync(files[1], fs.readFileSync(files[1], 'utf8').replace(/^name: persistent$/m, 'name: own-optimizer'));
      fs.writeFileSync(files[0], fs.readFileSync(files[0], 'utf8').replace(/^name: campaign$/m, 'name: own-optimizer'));
      for (const f of files) fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/^attempts: \d+$/m, 'attempts: 100'));
      return { project, out, files };
    };
    const verify = async (f: ReturnType<typeof folder>) => {
      const last = await runWflo(['run', f.files[0], '--quiet']);
      assert.equal(last.code, 0, last.stderr);
      assert.equal(processesWith(f.project).length, 0, 'every program stopped at the end');
      const snap = ledgerSnapshot(f.out);
      assert.equal(snap.integrity, 'ok');
      assert.equal(snap.done.length, 2 * seeds);
      assert.deepEqual(computedRows(f.out), computedRows(path.join(dir, 'ref-out')));
    };
    let folders = 0;
    let f = folder(folders);

    const rng = createRng(4711);
    let coordinatorKills = 0,
      pythonKills = 0,
      starts = 0;
    while (coordinatorKills < 3 || pythonKills < 6) {
      assert.ok(starts < 30, `chaos did not reach its kill counts (${coordinatorKills} coordinator, ${pythonKills} Python kills)`);
      const { project, files } = f;
      const child = startWflo(['run', files[starts++ % 2], '--quiet']);
      const exited = collect(child);
      let finished = false;
      void exited.then(() => {
        finished = true;
      });
      for (let k = 0; k < 3 && !finished && pythonKills < 6; k++) {
        if (!(await waitFor(() => finished || processesWith(project).length > 0, 20_000))) break;
        await sleep(within(0.01 + 0.04 * rng.next()));
        const victims = processesWith(project);
        if (victims.length === 0 || finished) continue;
        try {
          process.kill(victims[rng.int(victims.length)], 'SIGKILL');
          pythonKills++;
        } catch {
          /* it just ended */
        }
      }
      if (coordinatorKills < 3 && !finished) {
        await sleep(within(0.02 + 0.08 * rng.next()));
        if (!finished) {
          child.kill('SIGKILL');
          const r = await exited;
          if (r.signal === 'SIGKILL') coordinatorKills++;
          // Its workers notice and end their process groups: no Python process stays.
          assert.ok(await waitFor(() => processesWith(project).length === 0, 10_000), `orphaned programs: ${processesWith(project).join(', ')}`);
          continue;
        }
      }
      const r = await exited;
      assert.ok(r.code === 0 || r.signal === null, `${r.code} ${r.signal} ${r.stderr}`);
      if (r.code === 0 && (coordinatorKills < 3 || pythonKills < 6)) {
        await verify(f);
        f = folder(++folders);
      }
    }
    await verify(f);
    t.diagnostic(
      `${coordinatorKills} coordinator kills, ${pythonKills} Python kills, ${starts} starts, ${folders + 1} campaign folders; uninterrupted run ${refMs} ms`,
    );
  });

  test('Ctrl-C: running programs are ended, finished tasks kept, the same command resumes', { timeout: 120_000 }, async () => {
    const dir = tempDir('command-ctrl-c');
    const project = path.join(dir, 'project');
    const out = path.join(dir, 'out');
    const file = exampleProject(project, { out, seeds: 4, iterations: 2500, mode: 'persistent' });
    const child = startWflo(['run', file, '--quiet']);
    const exited = collect(child);
    const doneSoFar = (): number => {
      try {
        return ledgerSnapshot(out).done.length;
      } catch {
        return 0;
      }
    };
    assert.ok(await waitFor(() => doneSoFar() >= 1, 60_000), 'a first task finished');
    assert.ok(processesWith(project).length > 0, 'programs are running');
    child.kill('SIGINT');
    const r = await exited;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /interrupted: \d+\/8 tasks done and kept; run the same command to resume/);
    assert.equal(processesWith(project).length, 0, 'no program left running');
    const kept = ledgerSnapshot(out).done.length;
    assert.ok(kept >= 1 && kept < 8, `${kept} done`);
    const again = await runWflo(['run', file, '--quiet']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(ledgerSnapshot(out).done.length, 8);
  });
});
