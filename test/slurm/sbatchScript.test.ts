/**
 * The job script `wflo slurm --print` writes, without SLURM: its #SBATCH directives, shell
 * quoting of paths with spaces and quotes, bad options rejected (exit 2), and the script itself
 * run by bash as SLURM would run array task 1 (SLURM_ARRAY_TASK_ID=1): it runs shard 1 of N
 * into <output>/shard-1 with the granted CPUs as workers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { sliceTasks } from '../../src/campaign/shardSlice.js';
import { ledgerRows, tempDir, wflo, writeNoopCampaign } from './slurmKit.js';

test("wflo slurm --print: directives, quoting, and the script runs its array task's shard", () => {
  const dir = tempDir('sbatch script');
  try {
    const sub = path.join(dir, "it's here");
    fs.mkdirSync(sub);
    const file = writeNoopCampaign(path.join(sub, 'c.yaml'), 'out dir', 3, 0);
    const r = wflo([
      'slurm',
      file,
      '--array',
      '5',
      '--cpus-per-task',
      '2',
      '--partition',
      'short',
      '--time',
      '1-00:30:00',
      '--sbatch-arg=--mem=2G',
      '--sbatch-arg',
      '--account=wind',
      '--print',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const script = r.stdout;
    const directives = script
      .split('\n')
      .filter((l) => l.startsWith('#SBATCH '))
      .map((l) => l.slice(8));
    assert.deepEqual(directives, [
      '--job-name=wflo-slurm-test',
      '--array=0-4',
      '--ntasks=1',
      '--cpus-per-task=2',
      '--partition=short',
      '--time=1-00:30:00',
      `--output="${path.join(sub, 'out dir')}/slurm-logs/slurm-%A_%a.out"`,
      '--mem=2G',
      '--account=wind',
    ]);
    assert.ok(!fs.existsSync(path.join(sub, 'out dir')), '--print must write nothing');

    // Run it the way SLURM runs array task 1 of 5 (granted 1 CPU).
    const run = spawnSync('bash', ['-c', script], {
      env: { ...process.env, WFLO_TEST_CLI: '1', SLURM_ARRAY_TASK_ID: '1', SLURM_CPUS_PER_TASK: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    const expected = sliceTasks(expandTasks(parseCampaign(fs.readFileSync(file, 'utf8'), file)), { index: 1, count: 5 }).map((t) => t.taskId);
    assert.deepEqual([...ledgerRows(path.join(sub, 'out dir', 'shard-1')).keys()], [...expected].sort());
    assert.match(run.stdout, /3\/3 done/);

    // Outside SLURM the script refuses to guess its shard.
    const bare = spawnSync('bash', ['-c', script], { env: { ...process.env, SLURM_ARRAY_TASK_ID: '' }, encoding: 'utf8' });
    assert.notEqual(bare.status, 0);
    assert.match(bare.stderr, /not a SLURM array task/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('wflo slurm rejects bad options with one line and exit 2', () => {
  const dir = tempDir('sbatch-bad');
  try {
    const file = writeNoopCampaign(path.join(dir, 'c.yaml'), 'out', 2, 0);
    const cases: [string[], RegExp][] = [
      [[], /--array <n>: required/],
      [['--array', '0'], /--array: expected an integer >= 1, got '0'/],
      [['--array', '4', '--time', 'soon'], /--time: expected HH:MM:SS/],
      [['--array', '4', '--cpus-per-task', '1.5'], /--cpus-per-task: expected an integer >= 1/],
      [['--array', '4', '--sbatch-arg', 'mem=4G'], /--sbatch-arg: expected one sbatch option/],
    ];
    for (const [args, message] of cases) {
      const r = wflo(['slurm', file, ...args, '--print']);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
