/**
 * Input-check benchmarks (`node dist/bench/run.js inputs`): `wflo run CAMPAIGN --dry-run` on a
 * campaign of 10⁶ tasks (10 farms × 10 farm types × 10 000 seeds, every input check, the task
 * count per farm × type), end to end as a user runs it (process start included):
 * - with no output folder yet;
 * - with a ledger of 10⁶ tasks in it, half of them done (every task's spec hash computed and
 *   compared with the ledger's, read from a copy so the folder stays untouched).
 * Target from issue 8: <= 5 s. Warm-up, then 5 repeats; the median is printed. Figures only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { loadCampaign } from '../src/campaign/loadCampaign.js';
import { expandTasks } from '../src/campaign/taskGrid.js';
import Database from 'better-sqlite3';
import { Ledger } from '../src/runner/ledger.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const REPEATS = 5;

function campaign(out: string): Record<string, unknown> {
  const cases = ['iea37-cs1-16', 'iea37-cs1-36', 'iea37-cs1-64', 'iea37-cs3', 'iea37-cs4'];
  return {
    name: 'bench-dry-run',
    output: out,
    farms: Array.from({ length: 10 }, (_, i) => ({ id: i, case: cases[i % cases.length], ...(i >= 5 ? { wake_model: 'bastankhah2014' } : {}) })),
    farm_types: Array.from({ length: 10 }, (_, i) => ({ id: i, turbine: i % 2 ? 'iea37-10mw' : 'iea37-3.35mw', n_turbines: 4 + i })),
    seeds: { start: 0, count: 10_000 },
    optimizer: { method: 'gradient', max_iterations: 50, wec: [3, 1] },
  };
}

/** Wall and CPU (user + system) seconds of one `wflo run FILE --dry-run`, through bash's `time`. */
function timeDryRun(file: string): { wall: number; cpu: number } {
  const t0 = performance.now();
  const q = (x: string): string => `'${x.replace(/'/g, "'\\''")}'`;
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%U %S'; time ${q(process.execPath)} ${q(CLI)} run ${q(file)} --dry-run > /dev/null`], { encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`dry run failed (${r.status}): ${r.stderr}`);
  const [user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { wall, cpu: user + sys };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function measure(label: string, file: string): void {
  timeDryRun(file); // warm-up (file cache)
  const runs = Array.from({ length: REPEATS }, () => timeDryRun(file));
  const wall = runs.map((r) => r.wall),
    cpu = runs.map((r) => r.cpu);
  console.log(
    `${label}: median ${median(wall).toFixed(2)} s wall, ${median(cpu).toFixed(2)} s CPU ` +
      `(wall: ${wall.map((t) => t.toFixed(2)).join(', ')}; target <= 5 s)`,
  );
}

export async function benchInputs(): Promise<void> {
  console.log('\n## inputs: wflo run --dry-run on 10^6 tasks');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-inputs-'));
  try {
    const file = path.join(dir, 'campaign.yaml');
    fs.writeFileSync(file, stringify(campaign(path.join(dir, 'out'))));
    measure('no output folder', file);

    // A ledger as `wflo run` leaves it: the campaign's tasks, every other one with a committed result.
    const c = loadCampaign(file);
    const tasks = expandTasks(c);
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    const ledger = Ledger.open(out);
    ledger.syncCampaign(c, tasks);
    ledger.close();
    // Fixture rows written straight into the database file (what the dry run reads is only which tasks are done).
    const db = new Database(path.join(out, 'ledger.sqlite'));
    const empty = Buffer.alloc(0);
    const insert = db.prepare(`INSERT INTO results (task_id, spec_hash, farm_id, farm_type, seed, n_turbines, aep, aep_initial, x, y,
      x_initial, y_initial, iterations, evaluations, wall_s, attempts, run_id, committed_at) VALUES (?, ?, ?, ?, ?, 0, 1, 1, ?, ?, ?, ?, 0, 0, 0, 1, 1, 0)`);
    let doneRows = 0;
    db.transaction(() => {
      for (let i = 0; i < tasks.length; i += 2, doneRows++) {
        const t = tasks[i];
        insert.run(t.taskId, t.specHash, t.farmId, t.farmType, t.seed, empty, empty, empty, empty);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const mb = fs.statSync(path.join(out, 'ledger.sqlite')).size / 1024 / 1024;
    measure(`ledger of ${tasks.length} tasks (${doneRows} done, ${mb.toFixed(0)} MB)`, file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
