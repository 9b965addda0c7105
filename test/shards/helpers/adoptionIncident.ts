/**
 * Test helper: the rescue incident of issue 8, as a folder of worker files written by h5py for a
 * campaign. Good records are feasible layouts of their task (drawn by geometry's
 * randomFeasibleLayout from the task's seed: inside the boundary, minimum spacing kept) with the
 * AEP of the campaign's farm model, as a finished optimization would leave them (the `noop`
 * stand-in optimizer does not keep the spacing, so its layouts are not used); the bad ones are
 * such records damaged the way the issue describes. Used by test/shards/adoptionIncident.test.ts (check -> merge --expect)
 * and by the lead's end-to-end adoption test (check -> merge -> `wflo run --adopt` -> one row per
 * task).
 *
 * Files (natural order):
 *   worker_00.h5  0 bytes                                   empty
 *   worker_01.h5  only the `init` placeholder               placeholder_only
 *   worker_02.h5  good records, cut in half                  truncated (its tasks are missing)
 *   worker_03.h5  good records (groups shape)                valid
 *   worker_04.h5  good records (rows shape), one of them the same record as in worker_03 (the
 *                 duplicated task: identical values)        valid
 *   worker_05.h5  one good record and four bad ones (groups): 7 turbines for a 4-turbine type, a
 *                 turbine at (99999, 99999), AEP 1e9 MWh, a NaN coordinate
 *                                                           valid (4 records rejected)
 *   worker_06.h5  written with libver='latest', writer killed after flushing two good records
 *                 and before flushing a third               valid (recovered; the third is missing)
 * Every task of the campaign without a good record is `missing` (must be computed again).
 */
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { loadCampaign } from '../../../src/campaign/loadCampaign.js';
import { expandTasks, type Task } from '../../../src/campaign/taskGrid.js';
import { caseForTask } from '../../../src/campaign/caseForTask.js';
import type { Campaign } from '../../../src/campaign/campaign.js';
import { randomFeasibleLayout } from '../../../src/geometry/sampling.js';
import { createFarmEvaluator } from '../../../src/physics/aep.js';
import { createRng } from '../../../src/util/rng.js';
import type { LayoutRecord } from '../../../src/io/layoutRecord.js';
import type { ShardClass } from '../../../src/shards/shardTypes.js';
import { toPy, truncateFile, writeWithH5py, type PyRecord } from './corpus.js';
import { runPython } from './python.js';

export interface RejectedExpectation {
  taskId: string;
  file: string;
  /** What the shard doctor must say about it with --expect (the reason after the task id). */
  reason: RegExp;
  /** Whether the record is refused also without --expect (non-finite coordinates). */
  rejectedWithoutExpect: boolean;
}

export interface AdoptionIncident {
  dir: string;
  campaignFile: string;
  /** Every task of the campaign, in grid order. */
  tasks: string[];
  /** Task id -> the one good record a verified merge must keep (values as `wflo run` computes them). */
  good: Map<string, LayoutRecord>;
  /** Task id -> the file (name in `dir`) its good record is taken from: the first one holding it, in natural order. */
  goodFile: Map<string, string>;
  rejected: RejectedExpectation[];
  /** Tasks with no good record anywhere in the folder, sorted. */
  missing: string[];
  /** File name -> the class `shards check --expect` must give it. */
  classes: Map<string, ShardClass>;
  /** The task present twice (identical values in worker_03.h5 and worker_04.h5). */
  duplicateTaskId: string;
  /** Files whose writer stopped with the file open. */
  recoveredFiles: string[];
}

/** The campaign written when `campaignFile` does not exist: 2 farms x 2 types x 5 seeds, noop optimizer. */
export const DEFAULT_ADOPTION_CAMPAIGN = {
  name: 'adoption',
  output: 'out',
  farms: [
    { id: 0, case: 'iea37-cs1-16' },
    {
      id: 1,
      boundary: {
        polygon: [
          [0, 0],
          [3000, 0],
          [3000, 2000],
          [0, 2000],
        ],
      },
      wind: 'iea37-cs1',
    },
  ],
  farm_types: [
    { id: 0, turbine: 'iea37-3.35mw', n_turbines: 4 },
    { id: 1, turbine: 'iea37-3.35mw', n_turbines: 6 },
  ],
  seeds: { start: 0, count: 5 },
  optimizer: { method: 'noop' },
  workers: 2,
};

/** A result a finished optimization could have left for `task`: a feasible layout and its AEP under the campaign's model. */
export function computedRecord(campaign: Campaign, task: Task): LayoutRecord {
  const problem = caseForTask(campaign.farms[task.farmIndex]!, campaign.farmTypes[task.typeIndex]!);
  const rng = createRng(1_000_003 * task.farmId + 10_007 * task.farmType + task.seed);
  const { x, y } = randomFeasibleLayout(problem.boundary!, problem.nTurbines, problem.minSpacing, rng);
  const aep = createFarmEvaluator(problem.turbine, problem.wind, problem.model).aep(x, y).aepMwh;
  return {
    taskId: task.taskId,
    farmId: task.farmId,
    farmType: task.farmType,
    seed: task.seed,
    nTurbines: x.length,
    aep,
    aepInitial: NaN,
    x,
    y,
    xInitial: new Float64Array(0),
    yInitial: new Float64Array(0),
    iterations: -1,
    evaluations: -1,
    wallS: NaN,
    attempts: -1,
  };
}

/** h5py: write records with libver='latest', flush after each of the first `flushed`, then SIGKILL itself. */
const KILLED_WRITER = String.raw`
import h5py, json, os, signal, sys
import numpy as np
spec = json.load(sys.stdin)
h = h5py.File(spec['path'], 'w', libver='latest')
h.create_dataset('init', data=np.zeros(1))
g = h.create_group('optimized_layouts')
for i, r in enumerate(spec['records']):
    d = g.create_dataset('farm_%d_type_%d_seed_%d' % (r['farm'], r['type'], r['seed']), data=np.stack([r['x'], r['y']], axis=1))
    d.attrs['aep'] = r['aep']
    if i < spec['flushed']:
        h.flush()
os.kill(os.getpid(), signal.SIGKILL)
`;

/** Write `records` like a worker killed after flushing the first `flushed` of them. */
export function writeKilledLatestFile(file: string, records: PyRecord[], flushed: number): void {
  try {
    runPython(KILLED_WRITER, [], JSON.stringify({ path: file, records, flushed }));
  } catch (err) {
    // The writer kills itself: execFileSync reports the signal. Anything else is a real failure.
    if ((err as { signal?: string }).signal !== 'SIGKILL') throw err;
  }
}

export function writeAdoptionIncident(dir: string, campaignFile: string): AdoptionIncident {
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(campaignFile)) fs.writeFileSync(campaignFile, stringify(DEFAULT_ADOPTION_CAMPAIGN));
  const campaign = loadCampaign(campaignFile);
  const tasks = expandTasks(campaign);
  if (tasks.length < 14) throw new Error(`writeAdoptionIncident needs a campaign of at least 14 tasks, ${campaignFile} has ${tasks.length}`);
  const records = tasks.map((t) => computedRecord(campaign, t));
  const at = (name: string) => path.join(dir, name);

  // Task assignment (grid order): 0-2 truncated, 3-6 groups, 7-9 rows (+ task 3 again),
  // 10 good in the bad-records file, 11-14 bad, then 15-16 flushed and 17 unflushed in the
  // killed file when the grid is that large; every remaining task is in no file (missing).
  const truncated = records.slice(0, 3);
  const groups = records.slice(3, 7);
  const rows = [...records.slice(7, 10), records[3]!];
  const mixedGood = records[10]!;
  const [wrongCount, outside, wrongAep, withNan] = records.slice(11, 15) as [LayoutRecord?, LayoutRecord?, LayoutRecord?, LayoutRecord?];
  const bad = [wrongCount, outside, wrongAep, withNan];
  if (bad.some((r) => !r)) throw new Error('campaign too small for the bad records');
  const killed = records.slice(15, 18);

  const typeOf = (r: LayoutRecord) => campaign.farmTypes.find((t) => t.id === r.farmType)!;
  // 7 turbines for its farm type: the layout plus 7 - n turbines far apart (only the count may be wrong).
  const n = wrongCount!.nTurbines;
  const extra = Math.max(1, 7 - n);
  const wrongCountPy: PyRecord = {
    ...toPy(wrongCount!),
    x: [...wrongCount!.x, ...Array.from({ length: extra }, (_, k) => 5000 + 1000 * k)],
    y: [...wrongCount!.y, ...Array.from({ length: extra }, () => 5000)],
  };
  const outsidePy: PyRecord = { ...toPy(outside!), x: [99999, ...Array.from(outside!.x).slice(1)], y: [99999, ...Array.from(outside!.y).slice(1)] };
  const wrongAepPy: PyRecord = { ...toPy(wrongAep!), aep: 1e9 };
  const nanPy: PyRecord = { ...toPy(withNan!), x: Array.from(withNan!.x, (v, i) => (i === 1 ? NaN : v)) };

  writeWithH5py([
    { path: at('worker_01.h5') },
    { path: at('worker_02.h5'), shape: 'groups', records: truncated.map((r) => toPy(r)) },
    { path: at('worker_03.h5'), shape: 'groups', records: groups.map((r) => toPy(r)) },
    { path: at('worker_04.h5'), shape: 'rows', records: rows.map((r) => toPy(r)) },
    { path: at('worker_05.h5'), shape: 'groups', records: [toPy(mixedGood), wrongCountPy, outsidePy, wrongAepPy, nanPy] },
  ]);
  fs.writeFileSync(at('worker_00.h5'), '');
  truncateFile(at('worker_02.h5'), Math.floor(fs.statSync(at('worker_02.h5')).size / 2));
  const recoveredFiles: string[] = [];
  const classes = new Map<string, ShardClass>([
    ['worker_00.h5', 'empty'],
    ['worker_01.h5', 'placeholder_only'],
    ['worker_02.h5', 'truncated'],
    ['worker_03.h5', 'valid'],
    ['worker_04.h5', 'valid'],
    ['worker_05.h5', 'valid'],
  ]);
  const good = new Map<string, LayoutRecord>();
  const goodFile = new Map<string, string>();
  const take = (file: string, rs: LayoutRecord[]) => {
    for (const r of rs) {
      good.set(r.taskId, r);
      if (!goodFile.has(r.taskId)) goodFile.set(r.taskId, file);
    }
  };
  take('worker_03.h5', groups);
  take('worker_04.h5', rows);
  take('worker_05.h5', [mixedGood]);
  if (killed.length === 3) {
    writeKilledLatestFile(
      at('worker_06.h5'),
      killed.map((r) => toPy(r)),
      2,
    );
    recoveredFiles.push('worker_06.h5');
    classes.set('worker_06.h5', 'valid');
    take('worker_06.h5', killed.slice(0, 2));
  }

  const rejected: RejectedExpectation[] = [
    {
      taskId: wrongCount!.taskId,
      file: 'worker_05.h5',
      reason: new RegExp(`^${n + extra} turbines, farm type ${wrongCount!.farmType} has ${typeOf(wrongCount!).nTurbines}$`),
      rejectedWithoutExpect: false,
    },
    { taskId: outside!.taskId, file: 'worker_05.h5', reason: /^turbine 0 is \d+(\.\d)? m outside the boundary$/, rejectedWithoutExpect: false },
    {
      taskId: wrongAep!.taskId,
      file: 'worker_05.h5',
      reason: /^AEP 1e9 MWh differs from recomputed \d+(\.\d+)? MWh \(rel [\d.]+e\d+\)$/,
      rejectedWithoutExpect: false,
    },
    { taskId: withNan!.taskId, file: 'worker_05.h5', reason: /^turbine 1 has a non-finite position \(NaN, /, rejectedWithoutExpect: true },
  ];
  const taskIds = tasks.map((t) => t.taskId);
  return {
    dir,
    campaignFile: path.resolve(campaignFile),
    tasks: taskIds,
    good,
    goodFile,
    rejected,
    missing: taskIds.filter((id) => !good.has(id)).sort(),
    classes,
    duplicateTaskId: records[3]!.taskId,
    recoveredFiles,
  };
}
