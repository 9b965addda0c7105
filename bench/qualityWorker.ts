/**
 * Child process of the quality-per-second benchmark (bench/optimizeQuality.ts): optimizes one
 * (case, method, seed) and sends the best feasible AEP found so far, with the process's CPU
 * seconds, after every finished optimization, every hop of the global method and every start and
 * generation of the population method. It never stops by itself: methods that finish early are
 * restarted with the next sub-seed (seed + 1000·k), so the trace is "best of restarts" for them.
 * The parent kills it at the largest budget; the optimizer itself never looks at a clock.
 * The population method's progress AEP is on its search rose until the final polish, so for a
 * case whose rose it merges (cs4 on 360 directions) only finished optimizations are reported.
 */
import { optimizeLayout, type OptimizerSettings } from '../src/optimize/optimizeLayout.js';
import { resolveSettings } from '../src/optimize/settings.js';
import { coarsenRose } from '../src/optimize/searchRose.js';
import { qualityCase } from './qualityCases.js';

interface Job {
  caseName: string;
  settings: OptimizerSettings;
  seed: number;
}

const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

process.once('message', (job: Job) => {
  const c = qualityCase(job.caseName);
  const s = resolveSettings(job.settings);
  const mergedRose = s.method === 'population' && coarsenRose(c.wind, s.searchDirections) !== c.wind;
  const t0 = cpuSeconds();
  let best = -Infinity;
  const report = (aep: number) => {
    if (!(aep > best)) return;
    best = aep;
    process.send!({ t: cpuSeconds() - t0, aep: best });
  };
  for (let restart = 0; ; restart++) {
    const r = optimizeLayout(c, job.settings, job.seed + 1000 * restart, {
      onProgress: (e) => {
        if (e.accepted) report(e.bestAep);
      },
      onPopulationProgress: (e) => {
        if (!mergedRose || e.move === 'final') report(e.bestAep);
      },
    });
    if (r.feasible) report(r.aep);
  }
});
