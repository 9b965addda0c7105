/**
 * `--shard I/N`: the N slices of a campaign's grid are disjoint and cover it (N = 1, 2, 7 and
 * 4000, more shards than tasks: the extra shards are empty), are balanced per farm × type, do
 * not depend on the order farms are listed in, and a shard run's ledger knows only its slice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks, type Task } from '../../src/campaign/taskGrid.js';
import { parseShardSpec, restrictToShard, sliceTasks } from '../../src/campaign/shardSlice.js';
import { InputError } from '../../src/util/errors.js';
import { ledgerRows, listedTasks, tempDir, wflo, writeNoopCampaign } from './slurmKit.js';

const campaignText = (farmOrder: number[]): string =>
  stringify({
    name: 'slices',
    farms: farmOrder.map((id) => ({ id, case: ['iea37-cs1-16', 'iea37-cs1-36', 'iea37-cs3'][id] })),
    farm_types: [
      { id: 0, turbine: 'iea37-3.35mw', n_turbines: 5 },
      { id: 1, turbine: 'iea37-10mw', n_turbines: 3 },
    ],
    seeds: { start: 10, count: 53 },
    optimizer: { method: 'noop' },
  });

const grid = (farmOrder = [0, 1, 2]): Task[] => expandTasks(parseCampaign(campaignText(farmOrder), '/tmp/slices.yaml'));

for (const n of [1, 2, 7, 4000]) {
  test(`--shard I/${n}: slices are disjoint, cover the grid and are balanced per farm × type`, () => {
    const tasks = grid();
    assert.equal(tasks.length, 3 * 2 * 53);
    const owner = new Map<string, number>();
    let empty = 0;
    for (let i = 0; i < n; i++) {
      const slice = sliceTasks(tasks, parseShardSpec(`${i}/${n}`));
      if (slice.length === 0) empty++;
      for (const t of slice) {
        assert.equal(owner.get(t.taskId), undefined, `${t.taskId} is in shards ${owner.get(t.taskId)} and ${i}`);
        owner.set(t.taskId, i);
      }
      // Balance: per farm × type group and in total, shards differ by at most one task.
      const perGroup = Math.floor(53 / n);
      for (const [f, ty] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
        [2, 0],
        [2, 1],
      ]) {
        const count = slice.filter((t) => t.farmId === f && t.farmType === ty).length;
        assert.ok(count === perGroup || count === perGroup + 1, `shard ${i}/${n} has ${count} tasks of farm ${f} type ${ty}`);
      }
      const total = Math.floor(tasks.length / n);
      assert.ok(slice.length === total || slice.length === total + 1);
    }
    assert.equal(owner.size, tasks.length);
    assert.equal(empty, Math.max(0, n - tasks.length));
  });
}

test('slices depend only on the grid, not on the order farms are listed in', () => {
  const a = grid([0, 1, 2]),
    b = grid([2, 0, 1]);
  for (let i = 0; i < 7; i++) {
    assert.deepEqual(
      sliceTasks(b, { index: i, count: 7 }).map((t) => t.taskId),
      sliceTasks(a, { index: i, count: 7 }).map((t) => t.taskId),
    );
  }
  const c = parseCampaign(campaignText([0, 1, 2]), '/tmp/slices.yaml');
  assert.deepEqual(expandTasks(restrictToShard(c, { index: 3, count: 7 })), sliceTasks(a, { index: 3, count: 7 }));
});

test('parseShardSpec rejects what is not I/N with 0 <= I < N', () => {
  assert.deepEqual(parseShardSpec('3/4'), { index: 3, count: 4 });
  for (const bad of ['4/4', '1', '-1/4', '1/0', 'a/b', '1/2/3', '']) {
    assert.throws(
      () => parseShardSpec(bad),
      (err: unknown) => err instanceof InputError && /--shard/.test((err as Error).message),
      bad,
    );
  }
});

test('wflo run --shard: the shard ledger holds exactly its slice, an empty shard is a valid run', () => {
  const dir = tempDir('shard-run');
  try {
    const file = writeNoopCampaign(path.join(dir, 'c.yaml'), 'out', 3, 0);
    const r = wflo(['run', file, '--shard', '1/5', '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    const expected = sliceTasks(expandTasks(parseCampaign(fs.readFileSync(file, 'utf8'), file)), { index: 1, count: 5 }).map((t) => t.taskId);
    assert.deepEqual([...ledgerRows(path.join(dir, 'out', 'shard-1')).keys()], [...expected].sort());
    const m = wflo(['missing', path.join(dir, 'out', 'shard-1')]);
    assert.equal(m.status, 0, m.stderr);
    assert.match(m.stderr, new RegExp(`0 of ${expected.length} tasks not done`));

    const e = wflo(['run', file, '--shard', '40/50', '--out', path.join(dir, 'empty'), '--quiet']);
    assert.equal(e.status, 0, e.stderr);
    assert.equal(ledgerRows(path.join(dir, 'empty')).size, 0);
    assert.equal(listedTasks(wflo(['missing', path.join(dir, 'empty')]).stdout).size, 0);

    // A folder keeps one slice: another shard (or another split) into it is refused.
    const other = wflo(['run', file, '--shard', '2/5', '--out', path.join(dir, 'out', 'shard-1'), '--quiet']);
    assert.equal(other.status, 2, other.stderr);
    assert.match(other.stderr, /holds shard 1\/5 of campaign 'slurm-test', not shard 2\/5/);

    const bad = wflo(['run', file, '--shard', '5/5']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--shard: shard index 5 is not below N = 5/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
