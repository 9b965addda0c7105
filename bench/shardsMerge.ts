/**
 * Benchmark: `wflo shards merge` of 3000 small worker files (one 16-turbine layout each, the
 * incident's group-per-record shape with an `init` placeholder), then a heavier corpus (3000
 * files x 10 records x 64 turbines) to show memory stays bounded: the parent holds an index,
 * record payloads live in spill files and are streamed to the writer.
 * Files are written with h5py when Debian's python3-h5py is installed (as real pipelines do),
 * else with h5wasm. Prints wall time, files/s and peak RSS of the parent and the probe children.
 * Target (issue 5): <= 10 s for 3000 files on this machine.
 * Then `merge --expect CAMPAIGN.yaml` (issue 8): 3000 files of one feasible cs1-16-size record
 * each (16 turbines, IEA37 3.35 MW, 16-sector rose, AEP from the campaign's model), merged with
 * and without verification against the campaign (turbine count, boundary, spacing, AEP
 * recomputed): warm-up, then 5 repeats of each, medians.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { mergeShards } from '../src/shards/shardMerge.js';
import { buildReadOptions } from '../src/shards/readOptions.js';
import { listShardFiles } from '../src/shards/fileSelection.js';
import { loadH5 } from '../src/io/hdf5/h5wasmRuntime.js';
import { createRng } from '../src/util/rng.js';
import { stringify } from 'yaml';
import { loadCampaign } from '../src/campaign/loadCampaign.js';
import { expandTasks } from '../src/campaign/taskGrid.js';
import { caseForTask } from '../src/campaign/caseForTask.js';
import { randomFeasibleLayout } from '../src/geometry/sampling.js';
import { createFarmEvaluator } from '../src/physics/aep.js';

export interface Corpus {
  files: number;
  recordsPerFile: number;
  turbines: number;
}

const PY_WRITER = String.raw`
import h5py, sys, numpy as np
d, files, per, T = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(1)
k = 0
for i in range(files):
    with h5py.File('%s/worker_%d.h5' % (d, 10000 + i), 'w') as h:
        h.create_dataset('init', data=np.zeros(1))
        g = h.create_group('optimized_layouts')
        for j in range(per):
            farm, typ, seed = k // 300, (k // 60) % 5, k % 60
            ds = g.create_dataset('farm_%d_type_%d_seed_%d' % (farm, typ, seed), data=rng.uniform(-1300, 1300, (T, 2)))
            ds.attrs['aep'] = 400000.0 + k
            k += 1
`;

function pythonWithH5py(): string | null {
  for (const candidate of [process.env.WFLO_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => !!c)) {
    if (spawnSync(candidate, ['-c', 'import h5py'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return null;
}

async function writeCorpus(dir: string, corpus: Corpus): Promise<string> {
  const python = pythonWithH5py();
  if (python) {
    execFileSync(python, ['-c', PY_WRITER, dir, String(corpus.files), String(corpus.recordsPerFile), String(corpus.turbines)]);
    return 'h5py';
  }
  const h5 = await loadH5();
  const rng = createRng(1);
  let k = 0;
  for (let i = 0; i < corpus.files; i++) {
    const file = new h5.File(path.join(dir, `worker_${10000 + i}.h5`), 'w');
    file.create_dataset({ name: 'init', data: new Float64Array(1) });
    const group = file.create_group('optimized_layouts');
    for (let j = 0; j < corpus.recordsPerFile; j++, k++) {
      const layout = Float64Array.from({ length: corpus.turbines * 2 }, () => rng.uniform(-1300, 1300));
      const ds = group.create_dataset({
        name: `farm_${Math.floor(k / 300)}_type_${Math.floor(k / 60) % 5}_seed_${k % 60}`,
        data: layout,
        shape: [corpus.turbines, 2],
      });
      ds.create_attribute('aep', 400000 + k);
    }
    file.close();
  }
  return 'h5wasm';
}

/** Generate one corpus and merge it, printing the figures (exported for one-off comparisons). */
export async function runOnce(label: string, corpus: Corpus): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-shards-'));
  const dir = path.join(root, 'layouts.h5_temp');
  fs.mkdirSync(dir);
  try {
    const genStart = performance.now();
    const writer = await writeCorpus(dir, corpus);
    const genSeconds = (performance.now() - genStart) / 1000;
    const files = listShardFiles(dir, 'worker_*.h5');
    const rssBefore = process.memoryUsage().rss;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const report = await mergeShards({
      inputs: [dir],
      files,
      output: path.join(root, 'layouts.h5'),
      read: buildReadOptions(),
      onInvalid: 'abort',
      onConflict: 'error',
      cleanup: false,
      force: false,
      jobs: 2,
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const parentCpu = (cpu.user + cpu.system) / 1e6;
    const records = corpus.files * corpus.recordsPerFile;
    const payloadMiB = (records * corpus.turbines * 2 * 8) / 1024 / 1024;
    console.log(
      `${label}: ${files.length} files x ${corpus.recordsPerFile} records x ${corpus.turbines} turbines (written by ${writer} in ${genSeconds.toFixed(1)} s)`,
    );
    console.log(
      `  merge: ${seconds.toFixed(2)} s (${(files.length / seconds).toFixed(0)} files/s), ${report.rows} rows, output ${(report.bytes / 1024 / 1024).toFixed(1)} MiB, layout payload ${payloadMiB.toFixed(1)} MiB`,
    );
    console.log(
      `  CPU: parent ${parentCpu.toFixed(2)} s, probe children ${report.probeCpuSeconds.toFixed(2)} s (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores: wall time depends on what else runs)`,
    );
    console.log(
      `  peak RSS: parent ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (rss before merge ${(rssBefore / 1024 / 1024).toFixed(0)} MiB), probe children ${report.probePeakRssKb.map((kb) => `${(kb / 1024).toFixed(0)} MiB`).join(', ') || 'n/a'}; ${report.probeProcesses} probe processes`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** h5py: one file per record of the JSON list on stdin, the incident's groups shape. */
const PY_JSON_WRITER = String.raw`
import h5py, json, sys, numpy as np
d = sys.argv[1]
for i, r in enumerate(json.load(sys.stdin)):
    with h5py.File('%s/worker_%d.h5' % (d, 10000 + i), 'w') as h:
        h.create_dataset('init', data=np.zeros(1))
        ds = h.create_group('optimized_layouts').create_dataset(r['key'], data=np.stack([r['x'], r['y']], axis=1))
        ds.attrs['aep'] = r['aep']
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** 3000 feasible cs1-16-size records, one per file, merged with and without --expect. */
export async function runVerified(): Promise<void> {
  const python = pythonWithH5py();
  if (!python) {
    console.log('verified: skipped (python3 with h5py not found)');
    return;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-verify-'));
  const dir = path.join(root, 'shards');
  fs.mkdirSync(dir);
  try {
    const campaignFile = path.join(root, 'campaign.yaml');
    fs.writeFileSync(
      campaignFile,
      stringify({
        name: 'bench',
        farms: Array.from({ length: 10 }, (_, id) => ({ id, case: 'iea37-cs1-16' })),
        farm_types: Array.from({ length: 5 }, (_, id) => ({ id, turbine: 'iea37-3.35mw', n_turbines: 16 })),
        seeds: { start: 0, count: 60 },
        optimizer: { method: 'noop' },
      }),
    );
    const campaign = loadCampaign(campaignFile);
    const genStart = performance.now();
    const records = expandTasks(campaign).map((task) => {
      const problem = caseForTask(campaign.farms[task.farmIndex]!, campaign.farmTypes[task.typeIndex]!);
      const { x, y } = randomFeasibleLayout(
        problem.boundary!,
        problem.nTurbines,
        problem.minSpacing,
        createRng(task.seed * 7919 + task.farmId * 31 + task.farmType),
      );
      const aep = createFarmEvaluator(problem.turbine, problem.wind, problem.model).aep(x, y).aepMwh;
      return { key: task.taskId, x: Array.from(x), y: Array.from(y), aep };
    });
    execFileSync(python, ['-c', PY_JSON_WRITER, dir], { input: JSON.stringify(records) });
    const genSeconds = (performance.now() - genStart) / 1000;
    const files = listShardFiles(dir, 'worker_*.h5');
    const mergeOnce = async (verify: boolean, n: number): Promise<number> => {
      const output = path.join(root, `out-${verify ? 'verified' : 'plain'}-${n}.h5`);
      const read = buildReadOptions();
      if (verify) read.verify = { campaignFile, aepTolerance: 1e-6 };
      const started = performance.now();
      const report = await mergeShards({ inputs: [dir], files, output, read, onInvalid: 'abort', onConflict: 'error', cleanup: false, force: false, jobs: 2 });
      const seconds = (performance.now() - started) / 1000;
      if (report.rows !== records.length || report.rejectedRecords !== 0)
        throw new Error(`verified bench: ${report.rows} rows, ${report.rejectedRecords} rejected`);
      fs.rmSync(output);
      return seconds;
    };
    await mergeOnce(true, 0); // warm-up (page cache, campaign load)
    const plain: number[] = [];
    const verified: number[] = [];
    for (let n = 1; n <= 5; n++) {
      plain.push(await mergeOnce(false, n));
      verified.push(await mergeOnce(true, n));
    }
    console.log(`verified: ${files.length} files x 1 record x 16 turbines, cs1-16 farms (written by h5py in ${genSeconds.toFixed(1)} s)`);
    console.log(
      `  merge: median ${median(plain).toFixed(2)} s; merge --expect (every record verified, AEP recomputed): median ${median(verified).toFixed(2)} s`,
    );
    console.log(
      `  runs: plain ${plain.map((s) => s.toFixed(2)).join(', ')}; verified ${verified.map((s) => s.toFixed(2)).join(', ')} (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchShardsMerge(): Promise<void> {
  console.log('\n## shards: wflo shards merge (2 probe processes)');
  await runOnce('small', { files: 3000, recordsPerFile: 1, turbines: 16 });
  await runOnce('heavy', { files: 3000, recordsPerFile: 10, turbines: 64 });
  await runVerified();
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await benchShardsMerge();
}
