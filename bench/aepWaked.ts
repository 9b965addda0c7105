/**
 * Waked-inflow engine benchmark (part of the `aep` section): the Vestas V80 of the PyWake
 * reference cases (tabulated Ct) on a 10×10 grid at 5D, 360 × 23 rose, for each reference model,
 * AEP and AEP with gradient: wall and CPU milliseconds (median of ≥ 5 repeats after 2 warm-ups),
 * and the wake-pair evaluations actually computed next to the nominal turbines² × directions ×
 * speeds. The machine is shared: CPU time is the steadier figure, and the load average is printed.
 * Then the free-stream shortcut on the same case, the parallel (worker threads) evaluation, and the
 * 500-turbine AEP with gradient in a child process (time and peak RSS).
 */
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createWakedEvaluator } from '../src/physics/wakedAep.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { createParallelEvaluator } from '../src/physics/parallelAep.js';
import { gridLayout, weibullRose360x23 } from './aepCases.js';
import { referenceCase } from './wakedCases.js';

/** Median wall and CPU seconds of `fn` over at least `minRepeats` runs and `minSeconds`, after 2 warm-ups. */
export function medianTime(fn: () => void, minSeconds = 0.4, minRepeats = 5): { wall: number; cpu: number; repeats: number } {
  fn(); fn();
  const walls: number[] = [], cpus: number[] = [];
  const start = process.hrtime.bigint();
  while (walls.length < minRepeats || Number(process.hrtime.bigint() - start) / 1e9 < minSeconds) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    fn();
    walls.push(Number(process.hrtime.bigint() - t0) / 1e9);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1e6);
  }
  const med = (a: number[]) => { const s = [...a].sort((p, q) => p - q); return s[s.length >> 1]; };
  return { wall: med(walls), cpu: med(cpus), repeats: walls.length };
}

export async function benchWaked(): Promise<void> {
  console.log(`\n## Waked-inflow engine (one core; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  const wind = weibullRose360x23();
  const grid = gridLayout(10, 400);
  const n = grid.x.length;
  const nominal = n * n * wind.directionsDeg.length * wind.speeds.length;
  console.log('case (V80, 10×10 grid 5D, 360×23)'.padEnd(46) + 'ms AEP'.padStart(9) + 'cpu ms'.padStart(9) + 'ms grad'.padStart(9) + 'cpu ms'.padStart(9) +
    'pairs computed'.padStart(16) + 'nominal'.padStart(10));
  for (const prefix of ['bastankhah2014', 'jensen1983', 'niayifar2016', 'turbopark2022']) {
    const rc = referenceCase(prefix);
    if (!rc) { console.log(`${prefix}: reference cases not found`); continue; }
    const ev = createWakedEvaluator(rc.turbine, wind, { ...rc.model, inflow: 'waked' });
    const a = medianTime(() => ev.aep(grid.x, grid.y));
    const pairs = ev.last();
    const gr = medianTime(() => ev.aepWithGradient(grid.x, grid.y));
    console.log(`${prefix} (reference options)`.padEnd(46) + (a.wall * 1e3).toFixed(0).padStart(9) + (a.cpu * 1e3).toFixed(0).padStart(9) +
      (gr.wall * 1e3).toFixed(0).padStart(9) + (gr.cpu * 1e3).toFixed(0).padStart(9) + pairs.toExponential(2).padStart(16) + nominal.toExponential(2).padStart(10));
  }
  const rc = referenceCase('bastankhah2014');
  if (rc) {
    const ev = createFarmEvaluator(rc.turbine, wind, { ...rc.model, inflow: 'free-stream' });
    const a = medianTime(() => ev.aep(grid.x, grid.y));
    const gr = medianTime(() => ev.aepWithGradient(grid.x, grid.y));
    console.log('bastankhah2014, free-stream Ct shortcut'.padEnd(46) + (a.wall * 1e3).toFixed(0).padStart(9) + (a.cpu * 1e3).toFixed(0).padStart(9) +
      (gr.wall * 1e3).toFixed(0).padStart(9) + (gr.cpu * 1e3).toFixed(0).padStart(9));
  }
  if (rc) {
    const threads = os.availableParallelism();
    const par = createParallelEvaluator(rc.turbine, wind, { ...rc.model, inflow: 'waked' }, threads);
    try {
      const timeAsync = async (fn: () => Promise<unknown>) => {
        await fn(); await fn();
        const walls: number[] = [], cpus: number[] = [];
        for (let r = 0; r < 5; r++) {
          const c0 = process.cpuUsage();
          const t0 = process.hrtime.bigint();
          await fn();
          walls.push(Number(process.hrtime.bigint() - t0) / 1e9);
          const c = process.cpuUsage(c0);
          cpus.push((c.user + c.system) / 1e6);
        }
        walls.sort((p, q) => p - q); cpus.sort((p, q) => p - q);
        return { wall: walls[2], cpu: cpus[2] };
      };
      const a = await timeAsync(() => par.aep(grid.x, grid.y));
      const gr = await timeAsync(() => par.aepWithGradient(grid.x, grid.y));
      console.log(`bastankhah2014, ${par.threads} worker threads`.padEnd(46) + (a.wall * 1e3).toFixed(0).padStart(9) + (a.cpu * 1e3).toFixed(0).padStart(9) +
        (gr.wall * 1e3).toFixed(0).padStart(9) + (gr.cpu * 1e3).toFixed(0).padStart(9) + '   (cpu: all threads)');
    } finally {
      await par.close();
    }
  }
  const probe = fileURLToPath(new URL('./wakedMemoryProbe.js', import.meta.url));
  for (const threads of ['1', String(os.availableParallelism())]) {
    const r = spawnSync(process.execPath, [probe, 'bastankhah2014', threads], { encoding: 'utf8' });
    process.stdout.write(r.stdout);
    if (r.status !== 0) process.stdout.write(`waked memory probe failed: ${r.stderr}\n`);
  }
}
