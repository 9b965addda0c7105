/**
 * Trust benchmarks (`node dist/bench/run.js trust`), issue 8:
 * - adoption: `wflo run CAMPAIGN --adopt rescued.h5` of a 3000-record rescue file, cs1-16-size
 *   farms (16 turbines, 16 directions), every record verified with its AEP recomputed, then the
 *   export (target <= 5 s for the whole command);
 * - recovery: the same campaign after its ledger was deleted: every row adopted back from
 *   layouts.h5 and the audit log, nothing recomputed;
 * - memory: the coordinator's peak RSS on 10^6 no-op tasks (target <= 500 MB).
 * Figures only, no pass/fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { runWfloMeasured } from './benchKit.js';
import { writeLayoutsFile } from '../src/io/hdf5/index.js';
import type { LayoutRecord } from '../src/io/layoutRecord.js';
import { parseCampaign } from '../src/campaign/loadCampaign.js';
import { expandTasks } from '../src/campaign/taskGrid.js';
import { caseForTask } from '../src/campaign/caseForTask.js';
import { randomFeasibleLayout } from '../src/geometry/sampling.js';
import { computeAep } from '../src/physics/aep.js';
import { createRng } from '../src/util/rng.js';

export async function benchTrust(): Promise<void> {
  console.log('\n## trust (adoption, recovery, coordinator memory)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-trust-'));
  try {
    // A 3000-task campaign on cs1-16-size farms; the rescue file holds one feasible layout per task.
    const out = path.join(dir, 'out');
    const file = path.join(dir, 'campaign.yaml');
    const campaign = {
      name: 'adopt-3000',
      output: out,
      farms: [
        { id: 0, case: 'iea37-cs1-16' },
        { id: 1, case: 'iea37-cs1-16', label: 'copy' },
        { id: 2, case: 'iea37-cs1-16', label: 'copy 2' },
      ],
      farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
      seeds: { start: 0, count: 1000 },
      optimizer: { method: 'noop' },
      workers: 2,
    };
    fs.writeFileSync(file, stringify(campaign));
    const c = parseCampaign(fs.readFileSync(file, 'utf8'), file);
    const tasks = expandTasks(c);
    const records: LayoutRecord[] = tasks.map((t) => {
      const k = caseForTask(c.farms[t.farmIndex], c.farmTypes[t.typeIndex]);
      const { x, y } = randomFeasibleLayout(k.boundary!, k.nTurbines, k.minSpacing * 1.001, createRng(t.seed + 7919 * t.farmId));
      const aep = computeAep(x, y, k.turbine, k.wind, k.model).aepMwh;
      return {
        taskId: t.taskId,
        farmId: t.farmId,
        farmType: t.farmType,
        seed: t.seed,
        nTurbines: k.nTurbines,
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
    });
    const rescue = path.join(dir, 'rescued.h5');
    await writeLayoutsFile(rescue, [records], { campaignName: 'rescue', campaignHash: '', nExpected: -1, complete: false, maxTurbines: 16 });

    const adopt = await runWfloMeasured(['run', file, '--quiet', '--adopt', rescue]);
    if (adopt.code !== 0) throw new Error(`adoption run failed: ${adopt.stderr.trim()}`);
    console.log(
      `adoption of a ${records.length}-record rescue file (16 turbines, AEP recomputed for each), whole \`wflo run --adopt\` ` +
        `incl. export: ${adopt.seconds.toFixed(2)} s, peak RSS ${adopt.peakRssMb.toFixed(0)} MB  [target <= 5 s]`,
    );

    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(out, `ledger.sqlite${suffix}`), { force: true });
    const recover = await runWfloMeasured(['run', file, '--quiet']);
    if (recover.code !== 0) throw new Error(`recovery run failed: ${recover.stderr.trim()}`);
    console.log(
      `recovery after a deleted ledger (${records.length} rows adopted back from layouts.h5, none recomputed): ` +
        `${recover.seconds.toFixed(2)} s for the whole \`wflo run\``,
    );

    const n = Number(process.env.WFLO_BENCH_MILLION ?? 1_000_000);
    const bigOut = path.join(dir, 'million');
    const bigFile = path.join(dir, 'million.yaml');
    fs.writeFileSync(
      bigFile,
      stringify({
        name: 'million',
        output: bigOut,
        farms: [{ id: 0, case: 'iea37-cs1-16' }],
        farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 2 }],
        seeds: { start: 0, count: n },
        optimizer: { method: 'noop' },
        workers: 2,
        export: { every_results: 100_000_000, every_s: 1_000_000 },
      }),
    );
    const big = await runWfloMeasured(['run', bigFile, '--quiet']);
    if (big.code !== 0) throw new Error(`${n}-task run failed: ${big.stderr.trim()}`);
    console.log(
      `coordinator peak RSS, ${n} no-op tasks: ${big.peakRssMb.toFixed(0)} MB (whole run ${big.seconds.toFixed(0)} s, ` +
        `${(n / big.seconds).toFixed(0)} tasks/s incl. start-up and export)  [target <= 500 MB]`,
    );
  } finally {
    if (process.env.WFLO_BENCH_KEEP) console.log(`(kept ${dir})`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}
