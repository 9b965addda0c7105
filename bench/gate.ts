/**
 * `node dist/bench/run.js gate`: what the one gate in front of the ledger costs.
 *   1. Verification per task (geometry + the AEP recomputed), median of many: the cheapest case
 *      (IEA37 cs1-16, 16 turbines, free-stream) and the most expensive (100 V80 on a 5D grid,
 *      360 × 23 Weibull rose, waked Bastankhah 2014), next to one optimization of that task.
 *   2. A 3000-task cs1-16 campaign (gradient, 10 iterations, 2 workers) run in this process twice,
 *      with the real gate and with a stand-in that verifies nothing; wall times and their ratio,
 *      and the gate's own time as the run's audit log records it.
 *   3. The runner's no-op throughput (tasks/s) with the real gate (geometry only for noop rows)
 *      and with the stand-in.
 * Machines are shared: compare the ratios within one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { loadCampaign } from '../src/campaign/loadCampaign.js';
import { TaskGrid, type Task } from '../src/campaign/taskGrid.js';
import type { Campaign, FarmSpec, FarmTypeSpec } from '../src/campaign/campaign.js';
import { caseForTask } from '../src/campaign/caseForTask.js';
import type { AepCheck, Verdict } from '../src/campaign/verifyRecord.js';
import { optimizerSettingsProblem } from '../src/runner/taskFunction.js';
import { optimizeLayout } from '../src/optimize/optimizeLayout.js';
import { runCampaign } from '../src/runner/runCampaign.js';
import { RowGate } from '../src/runner/gate/rowGate.js';
import type { ResultRow } from '../src/runner/resultRow.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { weibullRose360x23, gridLayout } from './aepCases.js';
import { referenceCase } from './wakedCases.js';

/** The bench's stand-in: passes every row without looking (what "no gate" would cost). */
class NoVerification extends RowGate {
  protected override verdict(_task: Task, _candidate: ResultRow, _check: AepCheck): Verdict {
    return { ok: true, aepRecomputed: null };
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function rowFor(task: Task, x: Float64Array, y: Float64Array, aep: number): ResultRow {
  return {
    taskId: task.taskId,
    specHash: task.specHash,
    farmId: task.farmId,
    farmType: task.farmType,
    seed: task.seed,
    nTurbines: x.length,
    aep,
    aepInitial: aep,
    x,
    y,
    xInitial: x.slice(),
    yInitial: y.slice(),
    iterations: 0,
    evaluations: 1,
    wallS: 0,
    attempts: 1,
  };
}

function timePerCall(fn: () => void, minSeconds: number, minRepeats: number): number {
  const times: number[] = [];
  const end = performance.now() + minSeconds * 1000;
  while (times.length < minRepeats || performance.now() < end) {
    const t = performance.now();
    fn();
    times.push((performance.now() - t) / 1000);
  }
  return median(times);
}

function perTaskCosts(dir: string): void {
  console.log('\n### verification per task (median; this thread)');
  // cs1-16 as a campaign defines it.
  const file = path.join(dir, 'cs1.yaml');
  fs.writeFileSync(
    file,
    stringify({
      name: 'gate-cs1',
      output: path.join(dir, 'unused'),
      farms: [{ id: 0, case: 'iea37-cs1-16' }],
      farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
      seeds: [0],
      optimizer: { method: 'gradient', max_iterations: 10 },
    }),
  );
  const cs1 = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem });
  const task = new TaskGrid(cs1).task(0);
  const problem = caseForTask(cs1.farms[0]!, cs1.farmTypes[0]!);
  // What a worker's runTask does for `method: gradient` (synchronous here, so it can be timed per call).
  const out = optimizeLayout(problem, cs1.optimizer as Parameters<typeof optimizeLayout>[1], 0);
  const gate = new RowGate(cs1, { threads: 0 });
  const row = rowFor(task, out.x, out.y, out.aep);
  const cs1Gate = timePerCall(
    () => {
      if (!gate.checkNow(task, row, { kind: 'computed' }).ok) throw new Error('cs1-16 row rejected');
    },
    1,
    200,
  );
  const cs1Task = timePerCall(() => optimizeLayout(problem, cs1.optimizer as Parameters<typeof optimizeLayout>[1], 0), 1, 3);
  console.log(
    `cs1-16 (16 turbines, IEA37 free-stream, 16 × 1 bins): gate ${(cs1Gate * 1e6).toFixed(0)} µs per task; ` +
      `one gradient optimization of 10 iterations (the campaign below) ${(cs1Task * 1e3).toFixed(0)} ms (gate = ${((100 * cs1Gate) / cs1Task).toFixed(3)} % of the task)`,
  );

  // 100 V80 on a 5D grid, 360 × 23, waked Bastankhah 2014.
  const ref = referenceCase('bastankhah2014');
  if (!ref) {
    console.log('100 V80: the PyWake reference cases are not available');
    return;
  }
  const wind = weibullRose360x23();
  const d = ref.turbine.diameter;
  const { x, y } = gridLayout(10, 5 * d); // 10 × 10
  const side = 9 * 5 * d;
  const farm: FarmSpec = {
    id: 0,
    label: 'v80-grid',
    hash: 'bench',
    wind,
    model: ref.model,
    boundary: {
      kind: 'polygon',
      vertices: [
        [-d, -d],
        [side + d, -d],
        [side + d, side + d],
        [-d, side + d],
      ],
    },
  };
  const type: FarmTypeSpec = { id: 0, label: 'v80', hash: 'bench', turbine: ref.turbine, nTurbines: 100, minSpacingM: 2 * d };
  const campaign = { farms: [farm], farmTypes: [type], optimizer: { method: 'gradient' } } as Pick<Campaign, 'farms' | 'farmTypes' | 'optimizer'>;
  const v80Task: Task = { taskId: 'farm_0_type_0_seed_0', farmId: 0, farmType: 0, seed: 0, farmIndex: 0, typeIndex: 0, specHash: 'bench' };
  const aep = createFarmEvaluator(ref.turbine, wind, ref.model).aep(x, y).aepMwh;
  const v80Gate = new RowGate(campaign, { threads: 0 });
  const v80Row = rowFor(v80Task, x, y, aep);
  const v80 = timePerCall(
    () => {
      const v = v80Gate.checkNow(v80Task, v80Row, { kind: 'computed' });
      if (!v.ok) throw new Error(`100 V80 row rejected: ${v.reason}`);
    },
    3,
    3,
  );
  const evaluator = createFarmEvaluator(ref.turbine, wind, ref.model);
  const gradient = timePerCall(() => evaluator.aepWithGradient(x, y), 3, 3);
  console.log(
    `100 V80 (5D grid, 360 × 23, waked Bastankhah 2014): gate ${(v80 * 1e3).toFixed(0)} ms per task, on a worker thread in a run; ` +
      `one AEP + gradient ${(gradient * 1e3).toFixed(0)} ms: the gate costs ${(v80 / gradient).toFixed(2)} gradient evaluations of an optimization that makes hundreds`,
  );
}

async function campaignWallTimes(dir: string, label: string, spec: Record<string, unknown>): Promise<void> {
  const walls: Record<string, number> = {};
  const gateSeconds: Record<string, number> = {};
  const order = (process.env.WFLO_BENCH_GATE_REPEATS ?? '1') === '2' ? (['gate', 'none', 'gate', 'none'] as const) : (['gate', 'none'] as const);
  for (const kind of order) {
    const out = path.join(dir, `${label}-${kind}-${Object.keys(walls).length}`);
    const file = path.join(dir, `${label}.yaml`);
    fs.writeFileSync(file, stringify({ ...spec, output: out }));
    const c = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem });
    const gate = kind === 'gate' ? new RowGate(c) : new NoVerification(c);
    const t = performance.now();
    const s = await runCampaign(c, { gate, workers: 2 });
    const wall = (performance.now() - t) / 1000;
    if (s.done !== s.total) throw new Error(`${label}: ${s.done}/${s.total} done`);
    walls[kind] = Math.min(walls[kind] ?? Infinity, wall);
    gateSeconds[kind] = gate.gateTime.seconds;
    fs.rmSync(out, { recursive: true, force: true });
  }
  const tasks = (spec.seeds as { count: number }).count * (spec.farms as unknown[]).length;
  console.log(
    `${label}: ${tasks} tasks, ${order.length === 4 ? 'best of 2 interleaved runs' : 'one run each'}: with the gate ${walls.gate!.toFixed(2)} s (${(tasks / walls.gate!).toFixed(0)} tasks/s, ` +
      `gate ${gateSeconds.gate!.toFixed(3)} s on the coordinator), without ${walls.none!.toFixed(2)} s (${(tasks / walls.none!).toFixed(0)} tasks/s); ` +
      `ratio ${(walls.gate! / walls.none!).toFixed(3)}`,
  );
}

export async function benchGate(): Promise<void> {
  console.log('\n## gate: verification of every row before the ledger');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-gate-'));
  try {
    perTaskCosts(dir);
    if (process.env.WFLO_BENCH_GATE_CAMPAIGNS === '0') return;
    console.log('\n### campaigns (in this process, 2 workers)');
    const farms = (n: number) => Array.from({ length: n }, (_, id) => ({ id, case: 'iea37-cs1-16' }));
    await campaignWallTimes(dir, 'cs1-16 gradient (10 iterations)', {
      name: 'gate-3000',
      farms: farms(10),
      farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
      seeds: { start: 0, count: Number(process.env.WFLO_BENCH_GATE_SEEDS ?? 300) },
      optimizer: { method: 'gradient', max_iterations: 10 },
      export: { every_results: 1000, every_s: 60 },
    });
    await campaignWallTimes(dir, 'no-op', {
      name: 'gate-noop',
      farms: farms(10),
      farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
      seeds: { start: 0, count: 2000 },
      optimizer: { method: 'noop' },
      export: { every_results: 100_000, every_s: 600 },
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
