/**
 * Optimizer benchmark: wall time of one optimization (one seed, default gradient settings with
 * wake expansion continuation) for IEA37 cs1 16 and 64 turbines, on one core (this process).
 */
import { builtinCase } from '../src/io/builtinCases.js';
import { optimizeLayout } from '../src/optimize/optimizeLayout.js';

export async function benchOptimize(): Promise<void> {
  console.log('\n## Optimizer (one seed, one core, method gradient with defaults)');
  console.log('case'.padEnd(16) + 'seed'.padStart(6) + 'wall s'.padStart(9) + 'AEP MWh'.padStart(14) + 'evaluations'.padStart(13) + 'ms/eval'.padStart(9));
  for (const name of ['iea37-cs1-16', 'iea37-cs1-64']) {
    const c = builtinCase(name);
    const t0 = process.hrtime.bigint();
    const r = optimizeLayout(c, { method: 'gradient' }, 0);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(name.padEnd(16) + '0'.padStart(6) + s.toFixed(2).padStart(9) + r.aep.toFixed(2).padStart(14) + String(r.evaluations).padStart(13) + ((1000 * s) / r.evaluations).toFixed(3).padStart(9));
  }
}
