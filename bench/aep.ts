/**
 * AEP engine benchmark: microseconds per AEP, per AEP with gradient, their ratio, and wake-pair
 * evaluations per second (turbines² × directions × speeds / time, the definition; for a
 * constant-Ct turbine the engine computes the pairs once per direction, which this counts as
 * 'speeds' evaluations: the figure is the equivalent throughput). Then the 500-turbine, 360×23
 * AEP with gradient in a child process, for its time and peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { aepBenchCases } from './aepCases.js';

function timeIt(fn: () => void, minSeconds = 0.4): number {
  fn(); fn(); // warm up the JIT
  let reps = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0;
  do {
    fn();
    reps++;
    elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  } while (elapsed < minSeconds);
  return elapsed / reps;
}

export async function benchAep(): Promise<void> {
  console.log('\n## AEP engine (one core)');
  console.log('case'.padEnd(52) + 'µs/AEP'.padStart(12) + 'µs/AEP+grad'.padStart(14) + 'ratio'.padStart(7) + 'pairs/s (AEP)'.padStart(15) + 'pairs/s (grad)'.padStart(16));
  for (const c of aepBenchCases()) {
    const ev = createFarmEvaluator(c.turbine, c.wind, c.model);
    const tAep = timeIt(() => ev.aep(c.x, c.y));
    const tGrad = timeIt(() => ev.aepWithGradient(c.x, c.y));
    const n = c.x.length;
    const pairs = n * n * c.wind.directionsDeg.length * c.wind.speeds.length;
    console.log(
      c.name.padEnd(52) + (tAep * 1e6).toFixed(0).padStart(12) + (tGrad * 1e6).toFixed(0).padStart(14) +
      (tGrad / tAep).toFixed(2).padStart(7) + (pairs / tAep).toExponential(2).padStart(15) + (pairs / tGrad).toExponential(2).padStart(16),
    );
  }
  const probe = fileURLToPath(new URL('./aepMemoryProbe.js', import.meta.url));
  for (const ct of ['const', 'table']) {
    const r = spawnSync(process.execPath, [probe, ct], { encoding: 'utf8' });
    process.stdout.write(r.stdout);
    if (r.status !== 0) process.stdout.write(`memory probe failed: ${r.stderr}\n`);
  }
}
