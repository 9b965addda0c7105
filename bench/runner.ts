/**
 * Runner benchmarks (`npm run bench` section "runner", or `node dist/bench/run.js runner`):
 * - overhead: no-op tasks acknowledged (committed to the ledger) per second with 2 workers;
 * - export: time to write a 3000-row layouts.h5 from the ledger (cold process and warm);
 * - memory: the coordinator's peak RSS on a 100 000-task no-op campaign.
 * Targets from issue 4: >= 1000 tasks/s, <= 2 s, <= 300 MB. Figures only, no pass/fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { runWfloMeasured } from './benchKit.js';

function noopCampaign(out: string, seeds: number, nTurbines: number): Record<string, unknown> {
  return {
    name: `bench-${seeds}`,
    output: out,
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: nTurbines }],
    seeds: { start: 0, count: seeds },
    optimizer: { method: 'noop' },
    workers: 2,
    export: { every_results: 10_000_000, every_s: 1_000_000 },
  };
}

/** Committed tasks per second between the first and the last commit in the ledger. */
function commitRate(out: string): { tasks: number; perSecond: number } {
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true });
  try {
    const [n, first, last] = db.prepare('SELECT COUNT(*), MIN(committed_at), MAX(committed_at) FROM results').raw().get() as [number, number, number];
    return { tasks: n, perSecond: (n - 1) / Math.max(1e-9, last - first) };
  } finally {
    db.close();
  }
}

export async function benchRunner(): Promise<void> {
  console.log('\n## runner');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-runner-'));
  try {
    // 1. Overhead: no-op tasks through the whole path (IPC, group commit with fsync, audit).
    {
      const out = path.join(dir, 'overhead');
      const file = path.join(dir, 'overhead.yaml');
      fs.writeFileSync(file, stringify(noopCampaign(out, 20_000, 4)));
      const r = await runWfloMeasured(['run', file, '--quiet']);
      if (r.code !== 0) throw new Error(`overhead run failed: ${r.stderr.trim()}`);
      const rate = commitRate(out);
      console.log(
        `no-op tasks acknowledged durably (ledger commit, synchronous=FULL), 2 workers: ${rate.perSecond.toFixed(0)} tasks/s ` +
          `(${rate.tasks} tasks; whole command incl. start-up and final export ${r.seconds.toFixed(1)} s)  [target >= 1000/s]`,
      );
    }
    // 2. Export of a 3000-row file (16 turbines per row).
    {
      const out = path.join(dir, 'export3000');
      const file = path.join(dir, 'export3000.yaml');
      fs.writeFileSync(file, stringify(noopCampaign(out, 3000, 16)));
      const r = await runWfloMeasured(['run', file, '--quiet']);
      if (r.code !== 0) throw new Error(`export campaign failed: ${r.stderr.trim()}`);
      const { exportLedger } = await import('../src/runner/exporter.js');
      const t0 = performance.now();
      const cold = await exportLedger(out, path.join(dir, 'cold.h5'));
      const t1 = performance.now();
      const warm = await exportLedger(out, path.join(dir, 'warm.h5'));
      const cli = await runWfloMeasured(['export', out, '-o', path.join(dir, 'cli.h5')]);
      console.log(
        `export of ${cold.rows} rows (16 turbines): ${((t1 - t0) / 1000).toFixed(2)} s first in a process (incl. h5wasm load), ` +
          `${warm.seconds.toFixed(2)} s warm, ${cli.seconds.toFixed(2)} s as \`wflo export\` (whole command); ${(warm.bytes / 1e6).toFixed(2)} MB  [target <= 2 s]`,
      );
    }
    // 3. Coordinator memory on 100 000 tasks.
    {
      const out = path.join(dir, 'mem100k');
      const file = path.join(dir, 'mem100k.yaml');
      fs.writeFileSync(file, stringify(noopCampaign(out, 100_000, 4)));
      const r = await runWfloMeasured(['run', file, '--quiet']);
      if (r.code !== 0) throw new Error(`100k run failed: ${r.stderr.trim()}`);
      const rate = commitRate(out);
      console.log(
        `coordinator peak RSS, 100 000 no-op tasks: ${r.peakRssMb.toFixed(0)} MB (run ${r.seconds.toFixed(1)} s, ` +
          `${rate.perSecond.toFixed(0)} tasks/s)  [target <= 300 MB]`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
