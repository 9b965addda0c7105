/**
 * `realfarms` bench section: time series and blockage (issue 20), each figure one evaluation in
 * its own child process (realFarmsProbe.ts: seconds and peak RSS), pinned to one core with
 * `taskset -c $BENCH_CPU` (default 0) when taskset exists, the load average logged with each run;
 * wall and CPU seconds (user + system of the process: on a shared machine the steadier figure).
 *
 * - Time series: 10⁵ samples (a seeded random walk of directions, Weibull speeds, a turbulence
 *   intensity each; written to a CSV that both tools read) × 100 V80 turbines on a 10 × 10 grid at
 *   5D, Bastankhah 2014 and Niayifar 2016 (TI-dependent, with added turbulence).
 * - Blockage: the 100 V80, 36 directions × 22 speeds, Bastankhah 2014 with and without the
 *   self-similarity 2020 blockage (AEP, and AEP with gradient).
 *
 * PyWake beside them, interleaved in the same session (wflo, PyWake, wflo, PyWake …) on the same
 * core, when PYWAKE_PYTHONPATH names PyWake's and autograd's source folders (plus a folder with an
 * import guard where the PyWake mirror lacks its git-lfs data): bench/peers/pywake_timeseries.py
 * and pywake_blockage.py `time`. Without it the PyWake rows say so. Python is never needed by wflo.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRng } from '../src/util/rng.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROBE = path.join(HERE, 'realFarmsProbe.js');
const PEERS = path.resolve(HERE, '..', '..', 'bench', 'peers');
const SAMPLES = Number(process.env.REALFARMS_SAMPLES ?? 100_000);
const ROUNDS = Number(process.env.REALFARMS_ROUNDS ?? 2);

function hasTaskset(): boolean {
  return spawnSync('taskset', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Run a command pinned to one core; its last JSON line, or the error. */
export function pinned(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Record<string, unknown> {
  const cpu = process.env.BENCH_CPU ?? '0';
  const [c, a] = hasTaskset() ? ['taskset', ['-c', cpu, cmd, ...args]] : [cmd, args];
  const r = spawnSync(c, a, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 26, timeout: 3_600_000 });
  const line = r.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (r.status !== 0 || !line) return { error: (r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n').pop() };
  return JSON.parse(line) as Record<string, unknown>;
}

export function pywake(script: string, args: string[]): Record<string, unknown> | null {
  const pp = process.env.PYWAKE_PYTHONPATH;
  if (!pp) return null;
  const env: NodeJS.ProcessEnv = { PYTHONPATH: pp, OPENBLAS_CORETYPE: undefined, OPENBLAS_L2_SIZE: undefined };
  return pinned(process.env.PYWAKE_PYTHON ?? '/usr/bin/python3', [path.join(PEERS, script), 'time', ...args], env);
}

export function writeSeries(file: string, n: number): void {
  const rng = createRng(2020);
  const lines = ['wind_direction,wind_speed,turbulence_intensity'];
  let direction = 200;
  for (let t = 0; t < n; t++) {
    direction = (direction + 25 * rng.normal() + 360) % 360;
    const speed = Math.min(24.9, 9 * Math.sqrt(-Math.log(1 - rng.uniform(0, 1))));
    // A direction just below 360 prints as 360.00, which the reader refuses (0 is north): written as 0.00.
    const text = direction.toFixed(2);
    lines.push(`${text === '360.00' ? '0.00' : text},${speed.toFixed(2)},${(0.03 + 0.22 * rng.uniform(0, 1)).toFixed(4)}`);
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

function row(label: string, r: Record<string, unknown> | null): void {
  if (r === null) {
    console.log(`${label.padEnd(58)} not run (set PYWAKE_PYTHONPATH to PyWake's and autograd's source folders)`);
    return;
  }
  if (r.error) {
    console.log(`${label.padEnd(58)} failed: ${String(r.error).slice(0, 160)}`);
    return;
  }
  const aep = (r.aep_mwh ?? r.aep_mwh_uniform) as number;
  const extra = [
    r.read_s !== undefined ? `CSV read ${(r.read_s as number).toFixed(2)} s` : '',
    r.sweeps !== undefined ? `${r.sweeps} sweeps` : '',
    r.iterations !== undefined && r.iterations !== null ? `${r.iterations} iterations` : '',
    r.chunk !== undefined ? `chunks of ${r.chunk}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const cpu = typeof r.cpu_s === 'number' ? `${r.cpu_s.toFixed(2).padStart(8)} s CPU` : ''.padEnd(14);
  console.log(
    `${label.padEnd(58)}${(r.seconds as number).toFixed(2).padStart(9)} s${cpu}${(r.peak_rss_mb as number).toFixed(0).padStart(7)} MB  AEP ${aep.toFixed(1)} MWh  load ${(r.load as string[]).join(' ')}${extra ? `  (${extra})` : ''}`,
  );
}

export async function benchRealFarms(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-realfarms-'));
  try {
    const csv = path.join(dir, 'series.csv');
    writeSeries(csv, SAMPLES);
    const pin = hasTaskset() ? `pinned to CPU ${process.env.BENCH_CPU ?? '0'} (taskset)` : 'not pinned (no taskset)';
    console.log(
      `\n## Real farms: time series and blockage (one process per figure, ${pin}; load at start ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    console.log(
      `### Time series: ${SAMPLES} samples × 100 V80 (10 × 10 grid at 5D), each sample its own direction, speed and TI; ${ROUNDS} interleaved rounds`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      for (const model of ['bastankhah2014', 'niayifar2016']) {
        row(`wflo   ${model}, AEP (round ${round})`, pinned(process.execPath, [PROBE, 'series', csv, model, '10']));
        row(`PyWake ${model}, AEP (round ${round})`, pywake('pywake_timeseries.py', [csv, model, '10']));
      }
    }
    row('wflo   bastankhah2014, AEP + gradient', pinned(process.execPath, [PROBE, 'series', csv, 'bastankhah2014', '10', 'grad']));
    console.log('### Blockage: 100 V80 (10 × 10 grid at 5D), 36 directions × 22 speeds, Bastankhah 2014 (+ self-similarity 2020)');
    for (let round = 1; round <= ROUNDS; round++) {
      row(`wflo   blockage, AEP (round ${round})`, pinned(process.execPath, [PROBE, 'blockage', '36', '10']));
      row(`PyWake All2AllIterative + SelfSimilarityDeficit2020 (round ${round})`, pywake('pywake_blockage.py', ['10', '36', '1']));
    }
    row('wflo   blockage, AEP + gradient', pinned(process.execPath, [PROBE, 'blockage', '36', '10', 'grad']));
    row('wflo   no blockage (waked solve), AEP', pinned(process.execPath, [PROBE, 'blockage', '36', '10', 'none']));
    row('PyWake PropagateDownwind, no blockage', pywake('pywake_blockage.py', ['10', '36', '0']));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
