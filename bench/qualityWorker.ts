/**
 * Child process of the quality-per-second benchmark (bench/optimizeQuality.ts): optimizes one
 * (case, method, seed) and sends the best feasible AEP found so far, with the process's CPU
 * seconds, after every finished optimization and every hop of the global method. It never stops
 * by itself: methods that finish early are restarted with the next sub-seed (seed + 1000·k), so
 * the trace is "best of restarts" for them. The parent kills it at the largest budget; the
 * optimizer itself never looks at a clock.
 */
import { builtinCase } from '../src/io/builtinCases.js';
import { optimizeLayout, type OptimizerSettings } from '../src/optimize/optimizeLayout.js';

interface Job { caseName: string; settings: OptimizerSettings; seed: number }

const cpuSeconds = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

process.once('message', (job: Job) => {
  const c = builtinCase(job.caseName);
  const t0 = cpuSeconds();
  let best = -Infinity;
  const report = (aep: number) => {
    if (!(aep > best)) return;
    best = aep;
    process.send!({ t: cpuSeconds() - t0, aep: best });
  };
  for (let restart = 0; ; restart++) {
    const r = optimizeLayout(c, job.settings, job.seed + 1000 * restart, {
      onProgress: (e) => { if (e.accepted) report(e.bestAep); },
    });
    if (r.feasible) report(r.aep);
  }
});
