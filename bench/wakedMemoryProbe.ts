/**
 * Child process for the waked engine's large-farm figure: one AEP with gradient of 500 V80
 * turbines (the PyWake reference turbine, tabulated Ct) on a 23×22 grid at 5D, 360 × 23 rose, with
 * the reference case's model; prints wall and CPU time, pairs computed and the peak RSS.
 * Usage: node wakedMemoryProbe.js [model-prefix] [threads]   (default bastankhah2014, 1 thread;
 * more threads use parallelAep.ts over blocks of directions)
 */
import { createWakedEvaluator } from '../src/physics/wakedAep.js';
import { createParallelEvaluator } from '../src/physics/parallelAep.js';
import { gridLayout, weibullRose360x23 } from './aepCases.js';
import { referenceCase } from './wakedCases.js';

const prefix = process.argv[2] ?? 'bastankhah2014';
const threads = Number(process.argv[3] ?? 1);
const baselineRssMb = process.resourceUsage().maxRSS / 1024;
const rc = referenceCase(prefix);
if (!rc) {
  console.log(`500 turbines (waked, ${prefix}): reference cases not found`);
  process.exit(0);
}
const grid = gridLayout(23, 400);
const x = grid.x.slice(0, 500), y = grid.y.slice(0, 500);
const wind = weibullRose360x23();
const spec = { ...rc.model, inflow: 'waked' as const };
const ev = createWakedEvaluator(rc.turbine, wind, spec);
const par = threads > 1 ? createParallelEvaluator(rc.turbine, wind, spec, threads) : null;
if (par) await par.aep(x.slice(0, 4), y.slice(0, 4)); // workers started and compiled
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const r = par ? await par.aepWithGradient(x, y) : ev.aepWithGradient(x, y);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(c0);
const peakMb = process.resourceUsage().maxRSS / 1024;
const nominal = 500 * 500 * wind.directionsDeg.length * wind.speeds.length;
await par?.close();
console.log(`500 turbines V80, 360×23, AEP+gradient, waked inflow (${prefix}), ${par ? `${par.threads} threads` : 'one thread'}: ${seconds.toFixed(2)} s wall, ` +
  `${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU (all threads), AEP ${r.aepMwh.toFixed(0)} MWh, pairs computed ${r.pairEvaluations.toExponential(2)} ` +
  `of nominal ${nominal.toExponential(2)}, peak RSS ${peakMb.toFixed(0)} MB (node at start: ${baselineRssMb.toFixed(0)} MB)`);
