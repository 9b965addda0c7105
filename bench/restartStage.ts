/**
 * The gradient method's closing restart stage (section `restart`): what one more augmented-
 * Lagrangian solve at the model's own wake, started afresh (multipliers zero, first penalty) from
 * the continuation stages' optimum, adds. Per case and seed (the method's random start): the AEP
 * after the wake-expansion stages alone, after the restart stage (optimizeLayout keeps the better
 * of the two; the gain column is of what it keeps, a lower restart is counted as refused), and the
 * CPU seconds of each part (this process, one core). The gradient method ends with this stage whatever its objective
 * (optimizeLayout.ts), so the AEP and cost objectives get the same optimizer effort.
 * Cases: WFLO_BENCH_RESTART_CASES (default iea37-cs1-16,iea37-cs1-36,iea37-cs3); seeds:
 * WFLO_BENCH_RESTART_SEEDS (default 5).
 */
import { builtinCase } from '../src/io/builtinCases.js';
import { resolveSettings } from '../src/optimize/settings.js';
import { gradientStages, repair } from '../src/optimize/gradientStages.js';
import { caseEvaluator, caseSpacing } from '../src/optimize/caseEvaluator.js';
import { initialLayout } from '../src/optimize/initialLayout.js';
import { prepareBoundary } from '../src/geometry/preparedBoundary.js';
import { checkFeasibility } from '../src/geometry/feasibility.js';
import { createRng } from '../src/util/rng.js';

const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2]! : 0.5 * (v[v.length / 2 - 1]! + v[v.length / 2]!);
}

export async function benchRestartStage(): Promise<void> {
  const cases = (process.env.WFLO_BENCH_RESTART_CASES ?? 'iea37-cs1-16,iea37-cs1-36,iea37-cs3')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const seeds = Number(process.env.WFLO_BENCH_RESTART_SEEDS ?? 5);
  console.log('\n## Gradient method: the continuation stages, then the closing restart stage (one core, CPU s)');
  console.log(
    'case'.padEnd(16) +
      'seed'.padStart(5) +
      'AEP stages'.padStart(14) +
      'AEP restart'.padStart(14) +
      'gain %'.padStart(9) +
      'CPU stages'.padStart(11) +
      'CPU restart'.padStart(12),
  );
  for (const name of cases) {
    const c = builtinCase(name);
    const s = resolveSettings({ method: 'gradient' });
    const site = c.boundary ? prepareBoundary(c.boundary) : null;
    const evaluator = caseEvaluator(c);
    const spacing = caseSpacing(c);
    const feasible = (x: Float64Array, y: Float64Array) => {
      if (checkFeasibility(site, x, y, spacing, 1e-6).feasible) return { x, y };
      const r = repair(site, x, y, spacing, c.turbine.diameter);
      return checkFeasibility(site, r.x, r.y, spacing, 1e-6).feasible ? r : null;
    };
    const gains: number[] = [],
      cpuA: number[] = [],
      cpuB: number[] = [];
    let worse = 0;
    for (let seed = 0; seed < seeds; seed++) {
      const start = initialLayout(s.initial, site, c.nTurbines, c.minSpacing, createRng(seed), c.layout, evaluator);
      const aep0 = evaluator.aep(start.x, start.y).aepMwh;
      const t0 = cpuSeconds();
      const a = gradientStages(c, s.wec, s, site, start.x, start.y, aep0);
      const fa = feasible(a.x, a.y);
      const t1 = cpuSeconds();
      if (!fa) {
        console.log(name.padEnd(16) + String(seed).padStart(5) + '  infeasible after the stages');
        continue;
      }
      const b = gradientStages(c, [1], s, site, fa.x, fa.y, aep0);
      const fb = feasible(b.x, b.y);
      const t2 = cpuSeconds();
      const aepA = evaluator.aep(fa.x, fa.y).aepMwh;
      const aepB = fb ? evaluator.aep(fb.x, fb.y).aepMwh : NaN;
      if (!(aepB >= aepA)) worse++;
      const gain = (100 * (Math.max(aepA, Number.isNaN(aepB) ? aepA : aepB) - aepA)) / aepA;
      gains.push(gain);
      cpuA.push(t1 - t0);
      cpuB.push(t2 - t1);
      console.log(
        name.padEnd(16) +
          String(seed).padStart(5) +
          aepA.toFixed(2).padStart(14) +
          aepB.toFixed(2).padStart(14) +
          gain.toFixed(4).padStart(9) +
          (t1 - t0).toFixed(2).padStart(11) +
          (t2 - t1).toFixed(2).padStart(12),
      );
    }
    console.log(
      `${name}: gain median ${median(gains).toFixed(4)} %, min ${Math.min(...gains).toFixed(4)} %, max ${Math.max(...gains).toFixed(4)} %; ` +
        `${worse}/${gains.length} seeds lower after the restart (refused); CPU median ${median(cpuA).toFixed(2)} s + ${median(cpuB).toFixed(2)} s (${((100 * median(cpuB)) / median(cpuA)).toFixed(0)} % more)`,
    );
  }
}
