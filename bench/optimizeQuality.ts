/**
 * Quality per second: the best feasible AEP an optimizer reaches after 10 s, 60 s and 600 s of one
 * core (CPU seconds of its process), median and best over seeds, for IEA37 cs1-16/36/64, cs3 and
 * cs4 (built-in cases; cs4 on its 20×20 rose), for the methods of METHODS below (a method that
 * finishes early is restarted with new seeds: best of restarts).
 *
 * Each (case, method, seed) runs in its own child process (bench/qualityWorker.ts) that streams
 * (CPU s, best AEP) pairs; the parent kills it at the largest budget. Seeds run one after the other
 * (one core). The full benchmark is 10 seeds × 600 s × 5 cases × 3 methods (25 hours), so the
 * budgets, seeds, cases and methods are environment variables:
 *
 *   WFLO_QPS_BUDGETS=10,60,600  WFLO_QPS_SEEDS=10  WFLO_QPS_CASES=iea37-cs1-16,iea37-cs1-36,...
 *   WFLO_QPS_METHODS=gradient,global,global-long  node dist/bench/run.js quality
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OptimizerSettings } from '../src/optimize/optimizeLayout.js';

const WORKER = fileURLToPath(new URL('./qualityWorker.js', import.meta.url));
const ALL_CASES = ['iea37-cs1-16', 'iea37-cs1-36', 'iea37-cs1-64', 'iea37-cs3', 'iea37-cs4'];
/**
 * The methods compared: the CLI's default today (plain gradient), the proposed default (global with
 * its default work budget, restarted with new seeds when it finishes) and the best method (global
 * with an unbounded hop budget: one long run).
 */
const METHODS: Record<string, OptimizerSettings> = {
  gradient: { method: 'gradient' },
  global: { method: 'global' },
  'global-long': { method: 'global', hops: 1_000_000 },
};

function listFromEnv(name: string, fallback: string[]): string[] {
  const v = process.env[name];
  return v ? v.split(',').map((s) => s.trim()).filter(Boolean) : fallback;
}

/** CPU seconds (user + system) of a process from /proc/<pid>/stat (Linux; 100 clock ticks per second). */
function childCpuSeconds(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime: fields 14 and 15 of the line
  } catch {
    return null;
  }
}

/** Best AEP at each budget (CPU s) for one seed; NaN when nothing feasible was found by then. */
function traceOne(caseName: string, settings: OptimizerSettings, seed: number, budgets: number[]): Promise<number[]> {
  const last = Math.max(...budgets);
  return new Promise((resolve, reject) => {
    const points: { t: number; aep: number }[] = [];
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const started = Date.now();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(poll);
      if (child.exitCode === null) child.kill('SIGKILL');
      resolve(budgets.map((b) => {
        let best = NaN;
        for (const p of points) if (p.t <= b && !(p.aep <= best)) best = p.aep;
        return best;
      }));
    };
    child.on('message', (m: { t: number; aep: number }) => { points.push(m); if (m.t > last) finish(); });
    // Stop when the child has used the last budget of CPU time (wall time where /proc is missing).
    const poll = setInterval(() => {
      const cpu = child.pid === undefined ? null : childCpuSeconds(child.pid);
      if ((cpu ?? (Date.now() - started) / 1000) > last + 0.5) finish();
    }, 250);
    child.on('error', (e) => { if (!done) { done = true; clearInterval(poll); reject(e); } });
    child.on('exit', () => finish());
    child.send({ caseName, settings, seed });
  });
}

function median(values: number[]): number {
  const v = values.filter((a) => Number.isFinite(a)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  return v.length % 2 ? v[(v.length - 1) / 2]! : 0.5 * (v[v.length / 2 - 1]! + v[v.length / 2]!);
}

export async function benchOptimizeQuality(): Promise<void> {
  const budgets = listFromEnv('WFLO_QPS_BUDGETS', ['10', '60', '600']).map(Number);
  const seeds = Number(process.env.WFLO_QPS_SEEDS ?? 10);
  const cases = listFromEnv('WFLO_QPS_CASES', ALL_CASES);
  const methods = listFromEnv('WFLO_QPS_METHODS', Object.keys(METHODS));
  console.log(`\n## Quality per second (best feasible AEP, MWh, after B CPU seconds of one core; ${seeds} seeds each)`);
  console.log(`budgets ${budgets.join(', ')} CPU s; gradient: plain gradient method, global: default settings, both restarted with new seeds when they finish; global-long: one run with unbounded hops`);
  const header = 'case'.padEnd(14) + 'method'.padEnd(10) + budgets.map((b) => `median@${b}s`.padStart(16) + `best@${b}s`.padStart(16)).join('');
  console.log(header);
  for (const caseName of cases) {
    for (const method of methods) {
      const settings = METHODS[method];
      if (!settings) { console.log(`unknown method '${method}'`); continue; }
      const bySeed: number[][] = [];
      for (let seed = 0; seed < seeds; seed++) bySeed.push(await traceOne(caseName, settings, seed, budgets));
      const cells = budgets.map((_, b) => {
        const values = bySeed.map((row) => row[b]!);
        const best = Math.max(...values.filter(Number.isFinite));
        return median(values).toFixed(2).padStart(16) + (Number.isFinite(best) ? best.toFixed(2) : 'NaN').padStart(16);
      }).join('');
      console.log(caseName.padEnd(14) + method.padEnd(10) + cells);
    }
  }
}
