/**
 * Waked-inflow engine benchmark (part of the `aep` section): the Vestas V80 of the PyWake reference
 * cases (tabulated Ct) on a 10×10 grid at 5D (400 m), 360 × 23 rose, with each reference model's
 * options: AEP and AEP with gradient, wall and CPU milliseconds (median of ≥ 5 repeats after 2
 * warm-ups; ≥ 3 for cases over a second), and the (target, source, speed) evaluations the kernel
 * computed next to the nominal turbines·(turbines − 1)/2 × directions × speeds. Then the JavaScript
 * reference engine on one case, worker threads, and the 500-turbine farm (23×22 grid at 5D) in child
 * processes (median of 3 runs; peak RSS).
 */
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { createParallelEvaluator } from '../src/physics/parallelAep.js';
import { gridLayout, weibullRose360x23 } from './aepCases.js';
import { referenceCase } from './wakedCases.js';

/** Median wall and CPU seconds of `fn` over at least `minRepeats` runs and `minSeconds`, after 2 warm-ups. */
export function medianTime(fn: () => void, minSeconds = 0.4, minRepeats = 5): { wall: number; cpu: number; repeats: number } {
  fn();
  fn();
  const walls: number[] = [],
    cpus: number[] = [];
  const start = process.hrtime.bigint();
  while (walls.length < minRepeats || Number(process.hrtime.bigint() - start) / 1e9 < minSeconds) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    fn();
    walls.push(Number(process.hrtime.bigint() - t0) / 1e9);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1e6);
  }
  const med = (a: number[]) => {
    const s = [...a].sort((p, q) => p - q);
    return s[s.length >> 1];
  };
  return { wall: med(walls), cpu: med(cpus), repeats: walls.length };
}

const MODELS = ['bastankhah2014', 'niayifar2016', 'turbopark2022', 'jensen1983', 'blondel2020', 'zong2020'];

export async function benchWaked(): Promise<void> {
  console.log(
    `\n## Waked-inflow engine, V80 (Ct table), 10×10 grid at 5D (400 m), 360 × 23 rose (one core; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  const wind = weibullRose360x23();
  const grid = gridLayout(10, 400);
  const n = grid.x.length;
  const nominal = ((n * (n - 1)) / 2) * wind.directionsDeg.length * wind.speeds.length;
  console.log(
    'model (reference options)'.padEnd(58) +
      'kernel'.padEnd(8) +
      'ms AEP'.padStart(9) +
      'cpu ms'.padStart(9) +
      'ms grad'.padStart(9) +
      'cpu ms'.padStart(9) +
      'repeats'.padStart(8) +
      'computed'.padStart(11) +
      'nominal'.padStart(10),
  );
  for (const prefix of MODELS) {
    const rc = referenceCase(prefix);
    const spec = { ...rc.model, inflow: 'waked' as const };
    const ev = createFarmEvaluator(rc.turbine, wind, spec) as ReturnType<typeof createFarmEvaluator> & { last?: () => number };
    const native = ev.plan.kernel === 'native';
    const slow = !native;
    const a = medianTime(() => ev.aep(grid.x, grid.y), 0.4, slow ? 3 : 5);
    const pairs = ev.last?.() ?? 0;
    const gradient = ev.plan.solver === 'weighted-sum' ? null : medianTime(() => ev.aepWithGradient(grid.x, grid.y), 0.4, slow ? 3 : 5);
    console.log(
      `waked, ${rc.describe}`.slice(0, 57).padEnd(58) +
        (native ? 'native' : 'js').padEnd(8) +
        (a.wall * 1e3).toFixed(0).padStart(9) +
        (a.cpu * 1e3).toFixed(0).padStart(9) +
        (gradient ? (gradient.wall * 1e3).toFixed(0) : '—').padStart(9) +
        (gradient ? (gradient.cpu * 1e3).toFixed(0) : '—').padStart(9) +
        String(a.repeats).padStart(8) +
        (pairs > 0 ? pairs.toExponential(2) : '—').padStart(11) +
        nominal.toExponential(2).padStart(10),
    );
  }
  const rc = referenceCase('bastankhah2014');
  const spec = { ...rc.model, inflow: 'waked' as const };
  const js = createFarmEvaluator(rc.turbine, wind, spec, 'js');
  const a = medianTime(() => js.aep(grid.x, grid.y), 0.4, 3);
  const g = medianTime(() => js.aepWithGradient(grid.x, grid.y), 0.4, 3);
  console.log(
    `waked, ${rc.describe}`.padEnd(58) +
      'js ref'.padEnd(8) +
      (a.wall * 1e3).toFixed(0).padStart(9) +
      (a.cpu * 1e3).toFixed(0).padStart(9) +
      (g.wall * 1e3).toFixed(0).padStart(9) +
      (g.cpu * 1e3).toFixed(0).padStart(9) +
      String(a.repeats).padStart(8),
  );
  const threads = os.availableParallelism();
  const par = createParallelEvaluator(rc.turbine, wind, spec, threads);
  try {
    const timeAsync = async (fn: () => Promise<unknown>) => {
      await fn();
      await fn();
      const walls: number[] = [];
      for (let r = 0; r < 5; r++) {
        const t0 = process.hrtime.bigint();
        await fn();
        walls.push(Number(process.hrtime.bigint() - t0) / 1e9);
      }
      walls.sort((p, q) => p - q);
      return walls[2];
    };
    const pa = await timeAsync(() => par.aep(grid.x, grid.y));
    const pg = await timeAsync(() => par.aepWithGradient(grid.x, grid.y));
    console.log(
      `waked, ${rc.describe}, ${par.threads} worker threads (same bits)`.padEnd(58) +
        'native'.padEnd(8) +
        (pa * 1e3).toFixed(0).padStart(9) +
        '—'.padStart(9) +
        (pg * 1e3).toFixed(0).padStart(9),
    );
  } finally {
    await par.close();
  }
  const probe = fileURLToPath(new URL('./wakedMemoryProbe.js', import.meta.url));
  for (const [prefix, grad, threadCount] of [
    ['bastankhah2014', 'aep', '1'],
    ['bastankhah2014', 'grad', '1'],
    ['niayifar2016', 'aep', '1'],
    ['bastankhah2014', 'grad', String(threads)],
  ]) {
    const runs: { seconds: number; line: string; peak: number }[] = [];
    for (let r = 0; r < 3; r++) {
      const out = spawnSync(process.execPath, [probe, prefix, grad, threadCount], { encoding: 'utf8' });
      if (out.status !== 0) {
        console.log(`500-turbine probe failed: ${out.stderr.split('\n')[0]}`);
        break;
      }
      const res = JSON.parse(out.stdout) as { seconds: number; line: string; peakMb: number };
      runs.push({ seconds: res.seconds, line: res.line, peak: res.peakMb });
    }
    if (runs.length === 0) continue;
    runs.sort((p, q) => p.seconds - q.seconds);
    console.log(`${runs[1 % runs.length].line} (median of ${runs.length} runs; peak RSS max ${Math.max(...runs.map((r) => r.peak)).toFixed(0)} MB)`);
  }
}
