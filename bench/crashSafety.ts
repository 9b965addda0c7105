/**
 * Bench section `crash`: the crash-safety figure of a site + LCOE campaign. A farm on a site that
 * is not uniform (a speed-up and a TI field) with economics (bathymetry grid, substation, two cable
 * types), farm types under objective lcoe and npv, gradient method. One uninterrupted run is the
 * reference; then `wflo run` is started again and again and SIGKILLed at a random moment (uniform
 * in 0 … 6 s after it has begun its work, seeded by WFLO_CRASH_SEED, default 40) until WFLO_CRASH_KILLS kills (default 40) have landed, and
 * run once more to the end. A campaign that ends before the kills are done is compared and the
 * kills go on in a fresh folder. Every folder's ledger rows (coordinate blobs as hex, AEP, initial
 * AEP, turbine types, metrics — LCOE, NPV, cable cost —, iterations, evaluations) and layouts.h5
 * rows must equal the reference's bit for bit. Prints the kills, folders and the verdict.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { readLayoutsFile } from '../src/io/hdf5/index.js';
import { createRng } from '../src/util/rng.js';
import { CLI } from './benchKit.js';

const SITE = {
  speedup: {
    x: [-100, 700, 1500],
    y: [-100, 1100],
    values: [
      [0.9, 0.95],
      [1.0, 1.05],
      [1.15, 1.2],
    ],
  },
  ti: {
    x: [-100, 1500],
    y: [-100, 1100],
    values: [
      [0.06, 0.08],
      [0.1, 0.12],
    ],
  },
  outside: 'limit',
};

function campaign(out: string): Record<string, unknown> {
  return {
    name: 'crash-site-lcoe',
    output: out,
    workers: 2,
    attempts: 100,
    backoff: { initial_s: 0.01, factor: 1, max_s: 0.01 },
    export: { every_results: 3, every_s: 0.5 },
    farms: [
      {
        id: 0,
        boundary: {
          polygon: [
            [0, 0],
            [1400, 0],
            [1400, 1000],
            [0, 1000],
          ],
        },
        wind: 'iea37-cs1',
        wake_model: 'niayifar2016',
        site: SITE,
        economics: {
          energy_price_eur_per_mwh: 55,
          discount_rate: 0.07,
          project_years: 25,
          distance_from_shore_km: 20,
          bathymetry: 'depth.csv',
          substations: [[700, 500]],
          cables: [
            { name: 'small', capacity: 3, cost_per_m: 300 },
            { name: 'large', capacity: 6, cost_per_m: 480 },
          ],
          rated_rpm: 16.7,
        },
      },
    ],
    farm_types: [
      { id: 0, turbine: 'v80', n_turbines: 6, objective: 'lcoe' },
      { id: 1, turbine: 'v80', n_turbines: 5, objective: 'npv' },
    ],
    seeds: { start: 0, count: Number(process.env.WFLO_CRASH_SEEDS ?? 12) },
    optimizer: { method: 'gradient', max_iterations: 25 },
  };
}

/** What each done task computed, bit for bit. */
function ledgerRows(out: string): string[] {
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare(`SELECT task_id, spec_hash, n_turbines, hex(x) AS x, hex(y) AS y, hex(x_initial) AS xi, hex(y_initial) AS yi,
      aep, aep_initial, turbine_types, metrics, iterations, evaluations FROM results ORDER BY task_id`)
        .all() as Record<string, unknown>[]
    ).map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' ? `${v}` : v)));
  } finally {
    db.close();
  }
}

async function layoutsRows(out: string): Promise<string[]> {
  const f = await readLayoutsFile(path.join(out, 'layouts.h5'));
  return f.records.map((r) =>
    JSON.stringify({
      t: r.taskId,
      x: Array.from(r.x).map(String),
      y: Array.from(r.y).map(String),
      aep: String(r.aep),
      m: r.metrics ?? null,
    }),
  );
}

function runToEnd(file: string): void {
  const r = spawnSync(process.execPath, [CLI, 'run', file, '--quiet'], { encoding: 'utf8', timeout: 1_800_000 });
  if (r.status !== 0) throw new Error(`wflo run ended with ${r.status}: ${r.stderr.trim().split('\n').pop()}`);
}

/** How many runs the audit log of `out` records as started (run_start or resume). */
function runsStarted(out: string): number {
  try {
    return fs
      .readFileSync(path.join(out, 'audit.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => /"event":"(run_start|resume)"/.test(l)).length;
  } catch {
    return 0;
  }
}

/**
 * Start `wflo run` and SIGKILL it `ms` after it has begun its work (its run_start or resume line
 * in the audit log: before that a kill only meets the process starting up); whether the kill
 * landed (false: the run had ended).
 */
function killedAfter(file: string, out: string, ms: number): Promise<{ killed: boolean; code: number | null }> {
  return new Promise((resolve) => {
    const before = runsStarted(out);
    const child = spawn(process.execPath, [CLI, 'run', file, '--quiet'], { stdio: 'ignore' });
    let timer: NodeJS.Timeout | null = null;
    const poll = setInterval(() => {
      if (timer || runsStarted(out) <= before) return;
      timer = setTimeout(() => child.kill('SIGKILL'), ms);
    }, 20);
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', code });
    });
  });
}

export async function benchCrashSafety(): Promise<void> {
  const kills = Number(process.env.WFLO_CRASH_KILLS ?? 40);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-crash-'));
  fs.writeFileSync(path.join(dir, 'depth.csv'), 'x,y,depth\n-100,-100,18\n1500,-100,30\n-100,1100,26\n1500,1100,44\n');
  const c = campaign('x');
  console.log(
    `\n## crash: ${kills} random SIGKILLs of \`wflo run\` on a site + LCOE campaign (${(c.seeds as { count: number }).count} seeds × 2 farm types, workers 2), compared bit for bit with an uninterrupted run`,
  );
  try {
    const refFile = path.join(dir, 'reference.yaml');
    fs.writeFileSync(refFile, stringify(campaign('reference')));
    const t0 = performance.now();
    runToEnd(refFile);
    const refSeconds = (performance.now() - t0) / 1000;
    const refLedger = ledgerRows(path.join(dir, 'reference'));
    const refLayouts = await layoutsRows(path.join(dir, 'reference'));
    console.log(`reference: ${refLedger.length} tasks in ${refSeconds.toFixed(0)} s uninterrupted`);
    const rng = createRng(Number(process.env.WFLO_CRASH_SEED ?? 40));
    let landed = 0,
      starts = 0,
      folder = 0,
      identical = 0,
      differing = 0;
    const check = async (out: string): Promise<void> => {
      const same = JSON.stringify(ledgerRows(out)) === JSON.stringify(refLedger) && JSON.stringify(await layoutsRows(out)) === JSON.stringify(refLayouts);
      if (same) identical++;
      else differing++;
      console.log(`folder ${folder}: ${same ? 'bit-identical' : 'DIFFERENT'} to the reference (ledger and layouts.h5 rows)`);
    };
    let out = path.join(dir, `chaos-${folder}`);
    let file = path.join(dir, `chaos-${folder}.yaml`);
    fs.writeFileSync(file, stringify(campaign(`chaos-${folder}`)));
    let killsHere = 0;
    while (landed < kills) {
      const ms = rng.uniform(0, 6000);
      const r = await killedAfter(file, out, ms);
      starts++;
      if (r.killed) {
        landed++;
        killsHere++;
        continue;
      }
      if (r.code !== 0) throw new Error(`a chaos run ended with ${r.code}`);
      // The campaign ended between kills: compare it, go on in a fresh folder.
      console.log(`folder ${folder}: all ${refLedger.length} tasks done by runs of which ${killsHere} were killed`);
      await check(out);
      console.log(`  (${killsHere} kills landed in folder ${folder})`);
      folder++;
      killsHere = 0;
      out = path.join(dir, `chaos-${folder}`);
      file = path.join(dir, `chaos-${folder}.yaml`);
      fs.writeFileSync(file, stringify(campaign(`chaos-${folder}`)));
    }
    let before = 0;
    try {
      before = ledgerRows(out).length;
    } catch {
      /* no ledger yet */
    }
    console.log(`folder ${folder}: ${before} of ${refLedger.length} tasks done by the killed runs; the last run finishes the rest`);
    runToEnd(file);
    await check(out);
    console.log(`  (${killsHere} kills landed in folder ${folder})`);
    console.log(
      `${landed} SIGKILLs landed over ${starts} starts in ${folder + 1} folder${folder ? 's' : ''}: ${identical} of ${identical + differing} folders bit-identical to the uninterrupted run`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
