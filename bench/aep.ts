/**
 * AEP engine benchmark: microseconds per AEP, per AEP with gradient, their ratio, and wake-pair
 * evaluations per second (turbines² × directions × speeds / time, the definition; for a
 * constant-Ct turbine the engine computes the pairs once per direction, which this counts as
 * 'speeds' evaluations: the figure is the equivalent throughput). Then the 500-turbine, 360×23
 * AEP with gradient in a child process, for its time and peak RSS. Then the waked-inflow engine
 * (benchWaked in aepWaked.ts). Every figure: 2 warm-up runs, then at least 5 timed repeats (and
 * 0.4 s), the median.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { aepBenchCases } from './aepCases.js';
import { benchWaked, medianTime } from './aepWaked.js';

function timeIt(fn: () => void, minSeconds = 0.4): { wall: number; cpu: number } {
  return medianTime(fn, minSeconds);
}

export async function benchAep(): Promise<void> {
  console.log('\n## AEP engine (one core)');
  console.log('case'.padEnd(52) + 'µs/AEP'.padStart(12) + 'µs/AEP+grad'.padStart(14) + 'ratio'.padStart(7) + 'pairs/s (AEP)'.padStart(15) + 'pairs/s (grad)'.padStart(16) +
    'cpu µs/AEP'.padStart(12) + 'cpu µs/grad'.padStart(13));
  for (const c of aepBenchCases()) {
    const ev = createFarmEvaluator(c.turbine, c.wind, c.model);
    const mAep = timeIt(() => ev.aep(c.x, c.y));
    const mGrad = timeIt(() => ev.aepWithGradient(c.x, c.y));
    const tAep = mAep.wall, tGrad = mGrad.wall;
    const n = c.x.length;
    const pairs = n * n * c.wind.directionsDeg.length * c.wind.speeds.length;
    console.log(
      c.name.padEnd(52) + (tAep * 1e6).toFixed(0).padStart(12) + (tGrad * 1e6).toFixed(0).padStart(14) +
      (tGrad / tAep).toFixed(2).padStart(7) + (pairs / tAep).toExponential(2).padStart(15) + (pairs / tGrad).toExponential(2).padStart(16) +
      (mAep.cpu * 1e6).toFixed(0).padStart(12) + (mGrad.cpu * 1e6).toFixed(0).padStart(13),
    );
  }
  const probe = fileURLToPath(new URL('./aepMemoryProbe.js', import.meta.url));
  for (const ct of ['const', 'table']) {
    const r = spawnSync(process.execPath, [probe, ct], { encoding: 'utf8' });
    process.stdout.write(r.stdout);
    if (r.status !== 0) process.stdout.write(`memory probe failed: ${r.stderr}\n`);
  }
  await benchWaked();
}
