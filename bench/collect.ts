/**
 * Benchmark (`npm run bench` section "collect", or `node dist/bench/run.js collect`): `wflo
 * collect` of 100 shard folders holding 100 000 results together (10 farms × 10 types × 1000
 * seeds, 16 turbines each), written directly through the Ledger as `wflo run --shard I/100` would
 * leave them. Each repeat collects into a fresh folder in a fresh process (campaign load, import
 * of every row, layouts.h5 export) and reports wall time and that process's peak RSS (VmHWM);
 * then one more collect into the filled folder (nothing new: the idempotent path).
 * Target (issue 10): <= 30 s and <= 500 MB on this machine. Figures only, no pass/fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { loadCampaign } from '../src/campaign/loadCampaign.js';
import { expandTasks } from '../src/campaign/taskGrid.js';
import { Ledger } from '../src/runner/ledger.js';
import { RowGate } from '../src/runner/gate/rowGate.js';
import { randomInitialLayout } from '../src/runner/noopOptimizer.js';
import { caseForTask } from '../src/campaign/caseForTask.js';
import { campaignGridHash, defaultShardDir, GRID_HASH_META, SHARD_META } from '../src/runner/slurm/shardRun.js';
import { sliceTasks } from '../src/campaign/shardSlice.js';
import { createRng } from '../src/util/rng.js';

const SHARDS = 100;
const FARMS = 10,
  TYPES = 10,
  SEEDS = 1000,
  TURBINES = 16;
const COLLECT = fileURLToPath(new URL('../src/runner/collect/collectShards.js', import.meta.url));
const LOAD = fileURLToPath(new URL('../src/campaign/loadCampaign.js', import.meta.url));

function writeCampaign(file: string, out: string): void {
  fs.writeFileSync(
    file,
    stringify({
      name: 'bench-collect',
      output: out,
      farms: Array.from({ length: FARMS }, (_, id) => ({ id, case: 'iea37-cs1-16' })),
      farm_types: Array.from({ length: TYPES }, (_, id) => ({ id, turbine: 'iea37-3.35mw', n_turbines: TURBINES })),
      seeds: { start: 0, count: SEEDS },
      optimizer: { method: 'noop' },
    }),
  );
}

/** The shard folders, each with its slice committed (what 100 finished array tasks leave). */
function buildShards(file: string): number {
  const c = loadCampaign(file);
  const all = expandTasks(c);
  const gridHash = campaignGridHash(c);
  const rng = createRng(7);
  const gate = new RowGate(c, { threads: 0 });
  let rows = 0;
  for (let index = 0; index < SHARDS; index++) {
    // What prepareShardRun + runCampaign leave in a shard's ledger, without expanding the grid 100 times.
    const tasks = sliceTasks(all, { index, count: SHARDS });
    const dir = defaultShardDir(c, index);
    fs.mkdirSync(dir, { recursive: true });
    const ledger = Ledger.open(dir);
    try {
      ledger.setMeta(SHARD_META, `${index}/${SHARDS}`);
      ledger.setMeta(GRID_HASH_META, gridHash);
      ledger.syncCampaign({ ...c, only: tasks.map((t) => t.taskId) }, tasks);
      const runId = ledger.beginRun(process.pid, os.hostname(), 1);
      // Feasible layouts (the noop campaign's rows pass the gate on geometry), as a noop run leaves them.
      const results = tasks.map((t) => {
        const { x, y } = randomInitialLayout(caseForTask(c.farms[t.farmIndex], c.farmTypes[t.typeIndex]), t.seed);
        const verdict = gate.checkNow(
          t,
          {
            taskId: t.taskId,
            specHash: t.specHash,
            farmId: t.farmId,
            farmType: t.farmType,
            seed: t.seed,
            nTurbines: TURBINES,
            aep: 400000 + rng.uniform(0, 1000),
            aepInitial: 390000,
            x,
            y,
            xInitial: x.slice(),
            yInitial: y.slice(),
            iterations: 0,
            evaluations: 1,
            wallS: 0.01,
            attempts: 1,
          },
          { kind: 'computed' },
        );
        if (!verdict.ok) throw new Error(`bench fixture: ${verdict.reason}`);
        return verdict.row;
      });
      ledger.commitResults(results, runId);
      ledger.endRun(runId, 'complete');
      ledger.checkpoint();
      rows += results.length;
    } finally {
      ledger.close();
    }
  }
  return rows;
}

/** One collect in a fresh process: wall seconds, and that process's CPU seconds and peak RSS (MB) as it reports them. */
function collectOnce(file: string, from: string, out: string): Promise<{ seconds: number; cpuS: number; maxRssMb: number; line: string }> {
  const script = `
    const { loadCampaign } = await import(${JSON.stringify(LOAD)});
    const { collectShards } = await import(${JSON.stringify(COLLECT)});
    const c = loadCampaign(${JSON.stringify(file)});
    const r = await collectShards(c, { from: [${JSON.stringify(from)}], outDir: ${JSON.stringify(out)} });
    const imported = r.folders.reduce((s, f) => s + f.imported, 0);
    const u = process.resourceUsage();
    console.log(JSON.stringify({ cpuS: (u.userCPUTime + u.systemCPUTime) / 1e6, maxRssMb: u.maxRSS / 1024,
      line: \`\${r.done}/\${r.total} done, \${imported} imported, \${r.problems.length} problems, \${r.exported ? r.exported.rows + ' rows exported' : 'export skipped (unchanged)'}\` }));`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '',
    stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`collect exited ${code}: ${stderr.trim().split('\n').pop()}`));
        return;
      }
      const r = JSON.parse(stdout.trim().split('\n').pop()!) as { cpuS: number; maxRssMb: number; line: string };
      resolve({ seconds: (performance.now() - started) / 1000, ...r });
    }),
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchCollect(): Promise<void> {
  console.log(`\n## collect: wflo collect of ${SHARDS} shard folders, ${FARMS * TYPES * SEEDS} results of ${TURBINES} turbines`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-collect-'));
  try {
    const file = path.join(root, 'campaign.yaml');
    const shardsDir = path.join(root, 'shards');
    writeCampaign(file, shardsDir);
    const built = performance.now();
    const rows = buildShards(file);
    console.log(`  ${rows} rows in ${SHARDS} shard ledgers, written in ${((performance.now() - built) / 1000).toFixed(1)} s`);
    const from = path.join(shardsDir, 'shard-*');
    const fmt = (r: { seconds: number; cpuS: number; maxRssMb: number; line: string }): string =>
      `${r.seconds.toFixed(2)} s wall, ${r.cpuS.toFixed(2)} s CPU, peak RSS ${r.maxRssMb.toFixed(0)} MB (${r.line})`;
    console.log(`  warm-up: ${fmt(await collectOnce(file, from, path.join(root, 'final-warmup')))}`);
    const runs: { seconds: number; cpuS: number; maxRssMb: number }[] = [];
    for (let k = 0; k < 5; k++) {
      runs.push(await collectOnce(file, from, path.join(root, `final-${k}`)));
      fs.rmSync(path.join(root, `final-${k}`), { recursive: true, force: true });
    }
    const pick = (k: 'seconds' | 'cpuS' | 'maxRssMb'): number[] => runs.map((r) => r[k]);
    console.log(
      `  collect into a fresh folder (5 repeats): median ${median(pick('seconds')).toFixed(2)} s wall (min ${Math.min(...pick('seconds')).toFixed(2)}, ` +
        `max ${Math.max(...pick('seconds')).toFixed(2)}), median ${median(pick('cpuS')).toFixed(2)} s CPU, peak RSS median ${median(pick('maxRssMb')).toFixed(0)} MB ` +
        `(max ${Math.max(...pick('maxRssMb')).toFixed(0)} MB); target <= 30 s, <= 500 MB`,
    );
    console.log(`  collect again, nothing new: ${fmt(await collectOnce(file, from, path.join(root, 'final-warmup')))}`);
    console.log(`  (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores: wall time depends on what else runs)`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(fileURLToPath(import.meta.url))) {
  await benchCollect();
}
