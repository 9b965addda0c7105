/**
 * AEP engine benchmark, one core. Every row names its physics (engine: waked inflow or free-stream;
 * Ct kind; model), its layout and spacing, and, for the waked engine, the (target, source, speed)
 * evaluations the kernel computed next to the nominal turbines·(turbines − 1)/2 × directions ×
 * speeds. Times: median of at least 5 repeats (fast cases: of repeated batches of ≥ 0.2 s) after
 * warm-ups; wall and CPU. Sections: IEA37 case study 1 (aepCs1), its rose under direction treatments (aepDirections.ts), the V80 on a 5D grid with every
 * reference model and the 500-turbine farm in child processes (aepWaked.ts).
 */
import os from 'node:os';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { nativeIsa } from '../src/physics/nativeKernel.js';
import { cs1Cases } from './aepCases.js';
import { benchWaked } from './aepWaked.js';
import { benchDirections } from './aepDirections.js';
import { batchedTime } from './benchKit.js';

export async function benchAep(): Promise<void> {
  console.log(
    `\n## AEP engine (one core; native kernel ${nativeIsa()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(
    'case'.padEnd(14) +
      'physics'.padEnd(42) +
      'layout'.padEnd(36) +
      'µs AEP'.padStart(9) +
      'µs AEP+grad'.padStart(13) +
      'cpu µs AEP'.padStart(12) +
      '  reference (JS) µs AEP',
  );
  for (const c of cs1Cases()) {
    const ev = createFarmEvaluator(c.turbine, c.wind, c.model);
    const js = createFarmEvaluator(c.turbine, c.wind, c.model, 'js');
    const a = batchedTime(() => ev.aep(c.x, c.y));
    const g = batchedTime(() => ev.aepWithGradient(c.x, c.y));
    const r = batchedTime(() => js.aep(c.x, c.y));
    console.log(
      c.name.padEnd(14) +
        c.physics.padEnd(42) +
        c.layout.padEnd(36) +
        (a.wall * 1e6).toFixed(1).padStart(9) +
        (g.wall * 1e6).toFixed(1).padStart(13) +
        (a.cpu * 1e6).toFixed(1).padStart(12) +
        (r.wall * 1e6).toFixed(1).padStart(12),
    );
  }
  benchDirections();
  await benchWaked();
}
