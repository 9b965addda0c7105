/**
 * Quality per second: the best feasible AEP an optimizer reaches after B CPU seconds of one core
 * (CPU seconds of its process, never wall time: the machine may be shared), median and best over
 * seeds, by case and method. Cases: the built-in IEA37 ones and `iea37-cs4-360` (cs4 on its 360 ×
 * 20 rose, bench/qualityCases.ts). Methods (METHODS below): wflo's plain gradient method and
 * `global` (both restarted with new seeds when they finish: best of restarts), `population` (one
 * run with unbounded generations), `population-100` (100 generations, restarted), and two peers
 * with one SLSQP driver (bench/peers/slsqp_driver.py: SciPy's SLSQP restarted from random layouts,
 * the same ones per seed): `pywake-slsqp`, DTU's PyWake (AEP and autograd gradient,
 * bench/peers/pywake_slsqp.py), and `wflo-slsqp`, wflo's engine from Python (python/wflo: AEP
 * and exact gradient in one call, bench/peers/wflo_slsqp.py; built-in cases only). Peer layouts
 * are re-scored by wflo's engine and feasibility check.
 *
 * Each (case, method, seed) runs in its own child process (bench/qualityWorker.ts, or Python for
 * the peers) that streams (CPU s, best AEP) pairs; the parent kills it when its CPU time (from
 * /proc, with its descendants': wflo-slsqp's engine process) passes the largest budget. Seeds run one after the other. Environment:
 *
 *   WFLO_QPS_BUDGETS=60,600  WFLO_QPS_SEEDS=1  WFLO_QPS_CASES=iea37-cs1-36,iea37-cs1-64,iea37-cs4-360
 *   WFLO_QPS_METHODS=gradient,global,population,pywake-slsqp,wflo-slsqp  node dist/bench/run.js quality
 *   WFLO_QPS_PYTHON=/usr/bin/python3  WFLO_QPS_PYTHONPATH=<PyWake>:<autograd>  (for pywake-slsqp)
 *   WFLO_QPS_NICE=15   (children run under this niceness; CPU budgets are unaffected)
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OptimizerSettings } from '../src/optimize/optimizeLayout.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { checkFeasibility } from '../src/geometry/feasibility.js';
import { caseJson, qualityCase } from './qualityCases.js';

const WORKER = fileURLToPath(new URL('./qualityWorker.js', import.meta.url));
const PEERS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'peers');
const PYTHON_PACKAGE = path.resolve(PEERS_DIR, '..', '..', 'python');
const DEFAULT_CASES = ['iea37-cs1-36', 'iea37-cs1-64', 'iea37-cs4-360'];
/** wflo's methods compared (the peer is 'pywake-slsqp'). */
const METHODS: Record<string, OptimizerSettings> = {
  gradient: { method: 'gradient' },
  global: { method: 'global' },
  'global-long': { method: 'global', hops: 1_000_000 },
  population: { method: 'population', hops: 1_000_000 },
  /** The record campaigns' setting (100 generations), restarted with new seeds when it finishes: on
   * a case whose rose the population merges (cs4 on 360 directions) it reports only finished runs. */
  'population-100': { method: 'population', hops: 100 },
};
/**
 * The peers: SciPy's SLSQP with one driver (bench/peers/slsqp_driver.py), restarted from the same
 * random layouts, on DTU's PyWake (AEP, autograd gradient) or on wflo's engine through its Python
 * package (AEP and exact gradient in one call; its CPU time counts the engine process too).
 */
const PEERS: Record<string, { script: string; pythonPath: () => string; builtinArg: boolean }> = {
  'pywake-slsqp': { script: 'pywake_slsqp.py', pythonPath: () => process.env.WFLO_QPS_PYTHONPATH ?? '', builtinArg: false },
  'wflo-slsqp': { script: 'wflo_slsqp.py', pythonPath: () => PYTHON_PACKAGE, builtinArg: true },
};
const isPeer = (method: string): boolean => PEERS[method] !== undefined;

function listFromEnv(name: string, fallback: string[]): string[] {
  const v = process.env[name];
  return v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : fallback;
}

/**
 * CPU seconds (user + system) of a process and its descendants from /proc/<pid>/stat and
 * /proc/<pid>/task/<pid>/children (Linux; 100 clock ticks per second); null where /proc is missing.
 */
function childCpuSeconds(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    let cpu = (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime: fields 14 and 15 of the line
    let children: string[] = [];
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      /* none listed */
    }
    for (const c of children) cpu += childCpuSeconds(Number(c)) ?? 0;
    return cpu;
  } catch {
    return null;
  }
}

/** Best AEP at each budget (CPU s) for one seed; NaN when nothing feasible was found by then. */
function traceOne(caseName: string, method: string, seed: number, budgets: number[]): Promise<number[]> {
  const last = Math.max(...budgets);
  return new Promise((resolve, reject) => {
    const points: { t: number; aep: number }[] = [];
    const child: ChildProcess = isPeer(method)
      ? startPeer(method, caseName, seed, (p) => {
          points.push(p);
          if (p.t > last) finish();
        })
      : fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    renice(child.pid);
    const started = Date.now();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(poll);
      if (child.exitCode === null) child.kill('SIGKILL');
      resolve(
        budgets.map((b) => {
          let best = NaN;
          for (const p of points) if (p.t <= b && !(p.aep <= best)) best = p.aep;
          return best;
        }),
      );
    };
    if (!isPeer(method))
      child.on('message', (m: { t: number; aep: number }) => {
        points.push(m);
        if (m.t > last) finish();
      });
    // Stop when the child has used the last budget of CPU time (wall time where /proc is missing);
    // the peer's times start after Python's imports, so it gets their CPU time on top.
    const slack = isPeer(method) ? 30 : 0.5;
    const poll = setInterval(() => {
      const cpu = child.pid === undefined ? null : childCpuSeconds(child.pid);
      if ((cpu ?? (Date.now() - started) / 1000) > last + slack) finish();
    }, 250);
    child.on('error', (e) => {
      if (!done) {
        done = true;
        clearInterval(poll);
        reject(e);
      }
    });
    child.on('exit', () => finish());
    if (!isPeer(method)) child.send({ caseName, settings: METHODS[method]!, seed });
  });
}

function renice(pid: number | undefined): void {
  const niceness = Number(process.env.WFLO_QPS_NICE ?? 15);
  if (pid !== undefined && niceness > 0) {
    try {
      os.setPriority(pid, niceness);
    } catch {
      /* not permitted: run as is */
    }
  }
}

/**
 * A SLSQP peer as a child process; every layout it reports is re-scored with wflo's engine and
 * kept only when feasible (spacing and boundary within 1e-6 m).
 */
function startPeer(method: string, caseName: string, seed: number, onPoint: (p: { t: number; aep: number }) => void): ChildProcess {
  const peer = PEERS[method]!;
  const c = qualityCase(caseName);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-qps-')), 'case.json');
  fs.writeFileSync(file, caseJson(c));
  const env: NodeJS.ProcessEnv = { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1', PYTHONPATH: peer.pythonPath() };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  const args = [path.join(PEERS_DIR, peer.script), file, String(seed), ...(peer.builtinArg ? [caseName] : [])];
  const child = spawn(process.env.WFLO_QPS_PYTHON ?? '/usr/bin/python3', args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  const evaluator = createFarmEvaluator(c.turbine, c.wind, c.model);
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let m: { t: number; aep: number; x: number[]; y: number[] };
      try {
        m = JSON.parse(line);
      } catch {
        continue;
      }
      const x = Float64Array.from(m.x),
        y = Float64Array.from(m.y);
      if (!checkFeasibility(c.boundary, x, y, c.minSpacing, 1e-6).feasible) continue;
      onPoint({ t: m.t, aep: evaluator.aep(x, y).aepMwh });
    }
  });
  return child;
}

function median(values: number[]): number {
  const v = values.filter((a) => Number.isFinite(a)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  return v.length % 2 ? v[(v.length - 1) / 2]! : 0.5 * (v[v.length / 2 - 1]! + v[v.length / 2]!);
}

export async function benchOptimizeQuality(): Promise<void> {
  const budgets = listFromEnv('WFLO_QPS_BUDGETS', ['60', '600']).map(Number);
  const seeds = Number(process.env.WFLO_QPS_SEEDS ?? 1);
  const cases = listFromEnv('WFLO_QPS_CASES', DEFAULT_CASES);
  const methods = listFromEnv('WFLO_QPS_METHODS', ['gradient', 'global', 'population', ...Object.keys(PEERS)]);
  console.log(`\n## Quality per second (best feasible AEP, MWh, after B CPU seconds of one core; ${seeds} seeds each)`);
  console.log(
    `budgets ${budgets.join(', ')} CPU s of the optimizing process (and its engine process); gradient and global: restarted with new seeds when they finish; population: one run; pywake-slsqp / wflo-slsqp: SciPy SLSQP on PyWake (autograd gradients) / on wflo from Python (exact gradients), one driver, the same random restarts per seed`,
  );
  const header = 'case'.padEnd(14) + 'method'.padEnd(14) + budgets.map((b) => `median@${b}s`.padStart(16) + `best@${b}s`.padStart(16)).join('');
  console.log(header);
  for (const caseName of cases) {
    for (const method of methods) {
      if (!METHODS[method] && !isPeer(method)) {
        console.log(`unknown method '${method}'`);
        continue;
      }
      const bySeed: number[][] = [];
      for (let seed = 0; seed < seeds; seed++) bySeed.push(await traceOne(caseName, method, seed, budgets));
      const cells = budgets
        .map((_, b) => {
          const values = bySeed.map((row) => row[b]!);
          const best = Math.max(...values.filter(Number.isFinite));
          return median(values).toFixed(2).padStart(16) + (Number.isFinite(best) ? best.toFixed(2) : 'NaN').padStart(16);
        })
        .join('');
      console.log(caseName.padEnd(14) + method.padEnd(14) + cells);
    }
  }
}
