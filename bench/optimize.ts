/**
 * Optimizer benchmarks (section `optimize`):
 * 1. The plain gradient method (one seed, defaults) on IEA37 cs1-16 and cs1-64: wall time and cost
 *    per evaluation (warm-up run first, then the median of 5 repeats for cs1-16).
 * 2. The proposed default, `global` with its default work budget, on cs1-16 over 20 seeds (one
 *    core, this process): AEP and CPU seconds per seed, median and best, and how many seeds reach
 *    the best result of the 2019 IEA37 paper (418 924.41 MWh, Baker et al., AIAA 2019-0540).
 * Seeds: WFLO_BENCH_DEFAULT_SEEDS (default 20); method settings: WFLO_BENCH_DEFAULT_SETTINGS (JSON,
 * default {"method":"global"}).
 */
import { builtinCase } from '../src/io/builtinCases.js';
import { optimizeLayout, type OptimizerSettings } from '../src/optimize/optimizeLayout.js';

const PAPER_BEST_CS1_16 = 418924.41;

const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2]! : 0.5 * (v[v.length / 2 - 1]! + v[v.length / 2]!);
}

export async function benchOptimize(): Promise<void> {
  console.log('\n## Optimizer: plain gradient method (one seed, one core, defaults)');
  console.log('case'.padEnd(16) + 'seed'.padStart(6) + 'wall s'.padStart(9) + 'AEP MWh'.padStart(14) + 'evaluations'.padStart(13) + 'ms/eval'.padStart(9));
  for (const name of ['iea37-cs1-16', 'iea37-cs1-64']) {
    const c = builtinCase(name);
    const repeats = name === 'iea37-cs1-16' ? 5 : 1;
    optimizeLayout(c, { method: 'gradient' }, 0); // warm-up
    const times: number[] = [];
    let r = optimizeLayout(c, { method: 'gradient' }, 0);
    for (let k = 0; k < repeats; k++) {
      const t0 = process.hrtime.bigint();
      r = optimizeLayout(c, { method: 'gradient' }, 0);
      times.push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
    const s = median(times);
    console.log(
      name.padEnd(16) +
        '0'.padStart(6) +
        s.toFixed(2).padStart(9) +
        r.aep.toFixed(2).padStart(14) +
        String(r.evaluations).padStart(13) +
        ((1000 * s) / r.evaluations).toFixed(3).padStart(9),
    );
  }

  const seeds = Number(process.env.WFLO_BENCH_DEFAULT_SEEDS ?? 20);
  const settings = JSON.parse(process.env.WFLO_BENCH_DEFAULT_SETTINGS ?? '{"method":"global"}') as OptimizerSettings;
  const c = builtinCase('iea37-cs1-16');
  console.log(`\n## Optimizer: ${JSON.stringify(settings)} on iea37-cs1-16, ${seeds} seeds, one core (CPU s of this process)`);
  console.log('seed'.padStart(5) + 'AEP MWh'.padStart(14) + 'CPU s'.padStart(8) + 'wall s'.padStart(8) + 'evaluations'.padStart(13));
  const aeps: number[] = [],
    cpu: number[] = [],
    wall: number[] = [];
  for (let seed = 0; seed < seeds; seed++) {
    const c0 = cpuSeconds(),
      t0 = process.hrtime.bigint();
    const r = optimizeLayout(c, settings, seed);
    const w = Number(process.hrtime.bigint() - t0) / 1e9,
      u = cpuSeconds() - c0;
    aeps.push(r.aep);
    cpu.push(u);
    wall.push(w);
    console.log(
      String(seed).padStart(5) + r.aep.toFixed(2).padStart(14) + u.toFixed(2).padStart(8) + w.toFixed(2).padStart(8) + String(r.evaluations).padStart(13),
    );
  }
  const reached = aeps.filter((a) => a >= PAPER_BEST_CS1_16).length;
  console.log(
    `median ${median(aeps).toFixed(2)} MWh, best ${Math.max(...aeps).toFixed(2)} MWh, median CPU ${median(cpu).toFixed(2)} s ` +
      `(max ${Math.max(...cpu).toFixed(2)} s), median wall ${median(wall).toFixed(2)} s; ${reached}/${seeds} seeds >= ${PAPER_BEST_CS1_16} (2019 paper's best)`,
  );
}
