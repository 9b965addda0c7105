/**
 * Bench section `declared`: a 2.5 KB HDF5 file whose datasets claim 10^12 rows (written by h5py:
 * chunked with a huge maxshape and no chunk written, and contiguous with storage never allocated)
 * must be refused in well under a second and in little memory (issue 16: before, `shards check`
 * took 2 min and 3 GB, `run --adopt` 2 min and 2.4 GB). Prints, per file: wall time and peak RSS
 * of `wflo shards check FILE` and of `wflo run CAMPAIGN --adopt FILE` (a campaign already
 * complete, so the run is the adoption), and the probe process's peak RSS. Needs python3-h5py.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { stringify } from 'yaml';
import { buildReadOptions } from '../src/shards/readOptions.js';
import { scanShards } from '../src/shards/shardScan.js';
import { runWfloMeasured } from './benchKit.js';

const PY_WRITER = String.raw`
import h5py, sys
d, N = sys.argv[1], 10 ** 12
cols = [('farm_id', 'i4'), ('farm_type', 'i4'), ('seed', 'i8'), ('aep', 'f8')]
with h5py.File(d + '/chunked.h5', 'w') as h:
    for name, dt in cols:
        h.create_dataset(name, shape=(N,), maxshape=(None,), chunks=(1024,), dtype=dt)
    h.create_dataset('layout', shape=(N, 16, 2), maxshape=(None, 16, 2), chunks=(64, 16, 2), dtype='f8')
with h5py.File(d + '/contiguous.h5', 'w') as h:
    for name, dt in cols:
        h.create_dataset(name, shape=(N,), dtype=dt)
    h.create_dataset('layout', shape=(N, 16, 2), dtype='f8')
`;

function pythonWithH5py(): string | null {
  for (const candidate of [process.env.WFLO_PYTHON, '/usr/bin/python3', 'python3'].filter((c): c is string => !!c)) {
    if (spawnSync(candidate, ['-c', 'import h5py'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return null;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchDeclaredSizes(): Promise<void> {
  console.log('\n## declared: a 2.5 KB file claiming 10^12 rows, refused unread');
  const python = pythonWithH5py();
  if (!python) {
    console.log('skipped (python3 with h5py not found)');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-declared-'));
  try {
    execFileSync(python, ['-c', PY_WRITER, dir]);
    const campaign = path.join(dir, 'campaign.yaml');
    fs.writeFileSync(
      campaign,
      stringify({
        name: 'declared',
        output: path.join(dir, 'out'),
        farms: [{ id: 0, case: 'iea37-cs1-16' }],
        farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
        seeds: [0],
        optimizer: { method: 'noop' },
        workers: 1,
      }),
    );
    const setup = await runWfloMeasured(['run', campaign, '--quiet']);
    if (setup.code !== 0) throw new Error(`campaign run failed: ${setup.stderr.trim()}`);
    for (const name of ['chunked.h5', 'contiguous.h5']) {
      const file = path.join(dir, name);
      console.log(`${name}: ${fs.statSync(file).size} bytes`);
      for (const [label, args] of [
        ['shards check', ['shards', 'check', file]],
        ['run --adopt', ['run', campaign, '--quiet', '--adopt', file]],
      ] as const) {
        await runWfloMeasured([...args]); // warm-up (page cache)
        const runs = [];
        for (let i = 0; i < 5; i++) runs.push(await runWfloMeasured([...args]));
        // check prints its findings on stdout (not kept here): exit 3 says it found the problem.
        const refused = label === 'shards check' ? runs[0].code === 3 : runs[0].stderr.includes('declares 1e12');
        console.log(
          `  wflo ${label}: median ${median(runs.map((r) => r.seconds)).toFixed(2)} s wall, peak RSS of the wflo process median ` +
            `${median(runs.map((r) => r.peakRssMb)).toFixed(0)} MB (5 runs: ${runs.map((r) => r.seconds.toFixed(2)).join(', ')} s; exit ${runs[0].code}${refused ? '' : '; NOT refused'})`,
        );
      }
      const scan = await scanShards({ files: [file], read: buildReadOptions(), jobs: 1 });
      console.log(
        `  probe process: peak RSS ${scan.probePeakRssKb.map((kb) => `${(kb / 1024).toFixed(0)} MB`).join(', ')}, class ${scan.files[0].class}: ${scan.files[0].detail}`,
      );
    }
    console.log(
      `  (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores; wall time includes node start-up of wflo and of its probe process)`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
