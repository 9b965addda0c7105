/**
 * Command tasks on many machines, with Debian's python3 as the user's program: through a real
 * redis-server, a `wflo worker` without --allow-command and one whose copy of the inputs differs
 * refuse the jobs and hand them back (the coordinator says so, `wflo status --queue` shows it) and
 * neither starts any process; two allowed workers then take the handed-back jobs and the rows
 * equal a local run's. SLURM-style shards (`wflo run --shard I/N`, then `wflo collect`) run the
 * program as a local run does and give the same rows too.
 */
import test, { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { hasRedisServer, RedisServer } from '../helpers/redisServer.js';
import { runWflo as runFullCli } from '../helpers.js';
import { childPids, collect, ledgerSnapshot, runWflo, startWflo, tempDir } from './runnerTestKit.js';
import { computedRows, killAllWorkers, killWorker, startWorker, waitUntil, type WorkerHandle } from './bullmqKit.js';
import { PY, exampleProject, processesWith, pythonUnavailable } from './commandKit.js';

const skip = !hasRedisServer() ? 'redis-server is not installed (apt-get install redis-server)' : pythonUnavailable();

describe('command tasks on many machines', { skip }, () => {
  let redis: RedisServer | null = null;
  const dir = tempDir('command-queue');
  const refOut = path.join(dir, 'ref-out');

  before(async () => {
    redis = await RedisServer.start();
    const ref = exampleProject(path.join(dir, 'reference'), { out: refOut, seeds: 2, iterations: 300 });
    const r = await runWflo(['run', ref, '--quiet']);
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => {
    killAllWorkers();
    await redis?.stop();
  });

  test('refused without the allowance or with other inputs (handed back, nothing started); allowed workers finish = a local run', {
    timeout: 180_000,
  }, async () => {
    const url = redis!.url;
    const coordinator = exampleProject(path.join(dir, 'coordinator'), { out: path.join(dir, 'queue-out'), seeds: 2, iterations: 300 });
    // This machine's copy for the workers, and a copy someone edited (it would leave a mark if run).
    const copy = path.join(dir, 'worker-copy');
    fs.mkdirSync(copy);
    fs.copyFileSync(path.join(path.dirname(coordinator), 'optimizer.py'), path.join(copy, 'optimizer.py'));
    const edited = path.join(dir, 'worker-edited');
    fs.mkdirSync(edited);
    fs.writeFileSync(
      path.join(edited, 'optimizer.py'),
      `open(${JSON.stringify(path.join(dir, 'EDITED-COPY-RAN'))}, "w").close()\n` + fs.readFileSync(path.join(copy, 'optimizer.py'), 'utf8'),
    );
    const allow = ['--allow-command', `${PY} optimizer.py`];
    const common = ['--queue', url, '--concurrency', '1'];
    const notAllowed = startWorker([...common, '--workdir', copy, '--task-dir', path.join(dir, 'tasks-n')]);
    const otherInputs = startWorker([...common, ...allow, '--workdir', edited, '--task-dir', path.join(dir, 'tasks-d')]);
    const refusers = [notAllowed, otherInputs];
    assert.ok(await waitUntil(() => refusers.every((w) => /job process, queue/.test(w.log())), 20_000), refusers.map((w) => w.log()).join('\n'));

    // Neither refusing worker may ever start a process (job process or program).
    const spawned: number[] = [];
    const watch = setInterval(() => {
      for (const w of refusers) spawned.push(...childPids(w.pid));
    }, 20);
    const run = startWflo(['run', coordinator, '--log-every', '1', '--queue', url]);
    const finished = collect(run);
    let stderr = '';
    run.stderr!.on('data', (s: string) => {
      stderr += s;
    });
    try {
      assert.ok(
        await waitUntil(
          () =>
            /refused it \(handed back to the queue\): this worker may not run commands/.test(stderr) &&
            /refused it \(handed back to the queue\): its inputs differ from this worker's copy in .*worker-edited: optimizer\.py differs/.test(stderr),
          30_000,
        ),
        stderr,
      );
      // Worker records are refreshed every 2 s: wait for both refusals to show.
      const notAllowedLine = /refused \d+ command jobs? \(handed back; latest: farm_\d_type_0_seed_\d: this worker may not run commands/;
      const otherInputsLine =
        /may run: \/usr\/bin\/python3 optimizer\.py\n\s+refused \d+ command jobs? \(handed back; latest: farm_\d_type_0_seed_\d: its inputs differ/;
      let status = '';
      assert.ok(
        await waitUntil(
          async () => {
            status = (await runWflo(['status', path.join(dir, 'queue-out'), '--queue', url])).stdout;
            return notAllowedLine.test(status) && otherInputsLine.test(status);
          },
          20_000,
          500,
        ),
        status,
      );
      assert.equal(ledgerSnapshot(path.join(dir, 'queue-out')).done.length, 0, 'nothing ran while only refusing workers were there');
    } finally {
      clearInterval(watch);
    }
    assert.deepEqual(spawned, [], 'a refusing worker started a process');
    assert.equal(fs.existsSync(path.join(dir, 'EDITED-COPY-RAN')), false);
    assert.equal(fs.existsSync(path.join(dir, 'tasks-n')) || fs.existsSync(path.join(dir, 'tasks-d')), false, 'no attempt folder on a refusing worker');
    await Promise.all(refusers.map(killWorker));

    // Two allowed workers take the handed-back jobs.
    const allowed: WorkerHandle[] = [0, 1].map((i) => startWorker([...common, ...allow, '--workdir', copy, '--task-dir', path.join(dir, `tasks-${i}`)]));
    const r = await finished;
    assert.equal(r.code, 0, `${r.stdout}\n${stderr}`);
    assert.deepEqual(computedRows(path.join(dir, 'queue-out')), computedRows(refOut));
    assert.ok(
      fs.readdirSync(path.join(dir, 'tasks-0')).length + fs.readdirSync(path.join(dir, 'tasks-1')).length > 1,
      'the allowed workers kept attempt folders',
    );
    await Promise.all(allowed.map(killWorker));
  });

  test('chaos through Redis, persistent mode: SIGKILL of programs, of a worker and of the coordinator; rows equal a local run', {
    timeout: 240_000,
  }, async () => {
    const url = redis!.url;
    const seeds = 3,
      iterations = 1500;
    const localOut = path.join(dir, 'chaos-local');
    const local = exampleProject(path.join(dir, 'chaos-local-project'), { out: localOut, seeds, iterations });
    const l = await runWflo(['run', local, '--quiet']);
    assert.equal(l.code, 0, l.stderr);

    const out = path.join(dir, 'chaos-queue');
    const file = exampleProject(path.join(dir, 'chaos-coordinator'), { out, seeds, iterations, mode: 'persistent' });
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^attempts: \d+$/m, 'attempts: 50'));
    const copy = path.join(dir, 'chaos-worker-copy');
    fs.mkdirSync(copy);
    fs.copyFileSync(path.join(path.dirname(file), 'optimizer.py'), path.join(copy, 'optimizer.py'));
    const start = (i: number): WorkerHandle =>
      startWorker([
        '--queue',
        url,
        '--concurrency',
        '1',
        '--allow-command',
        `${PY} optimizer.py`,
        '--workdir',
        copy,
        '--task-dir',
        path.join(dir, `chaos-tasks-${i}`),
      ]);
    let workers = [start(0), start(1)];
    const programs = (): number[] => processesWith(copy);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    const coordinator = startWflo(['run', file, '--quiet', '--queue', url]);
    const ended = collect(coordinator);
    let pythonKills = 0;
    for (let k = 0; k < 3; k++) {
      assert.ok(await waitUntil(() => programs().length > 0, 30_000), 'programs run on the workers');
      await sleep(300);
      for (const p of programs().slice(0, 1)) {
        try {
          process.kill(p, 'SIGKILL');
          pythonKills++;
        } catch {
          /* ended */
        }
      }
    }
    // A worker dies with everything it started; another takes its place.
    await killWorker(workers[0]);
    assert.ok(await waitUntil(() => programs().length <= 1, 10_000), "the dead worker's program went with it");
    workers = [workers[1], start(2)];
    // The coordinator dies; the same command resumes.
    coordinator.kill('SIGKILL');
    await ended;
    const done = await runWflo(['run', file, '--quiet', '--queue', url]);
    assert.equal(done.code, 0, done.stderr);
    assert.ok(pythonKills >= 2, `${pythonKills} programs killed`);
    assert.deepEqual(computedRows(out), computedRows(localOut));
    // Killed workers' job processes notice, let their programs exit, and end their groups.
    await Promise.all(workers.map(killWorker));
    assert.ok(await waitUntil(() => programs().length === 0, 5000), `programs left on the workers: ${programs().join(', ')}`);
  });

  test('shards (wflo run --shard I/N, then wflo collect) run the program as a local run does', { timeout: 120_000 }, async () => {
    const file = exampleProject(path.join(dir, 'sharded'), { out: path.join(dir, 'shard-out'), seeds: 2, iterations: 300 });
    for (const shard of ['0/2', '1/2']) {
      const r = await runWflo(['run', file, '--shard', shard, '--quiet']);
      assert.equal(r.code, 0, r.stderr);
    }
    assert.ok(fs.existsSync(path.join(dir, 'shard-out', 'shard-0', 'tasks')), 'a shard keeps its attempt folders in its own folder');
    const c = runFullCli(['collect', file]);
    assert.equal(c.status, 0, c.stderr);
    assert.deepEqual(computedRows(path.join(dir, 'shard-out')), computedRows(refOut));
  });
});
