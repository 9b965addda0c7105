/**
 * Child process for the waked engine's large-farm figure: one AEP (or AEP with gradient) of 500 V80
 * turbines (the PyWake reference turbine, tabulated Ct) on a 23×22 grid at 5D, 360 × 23 rose, with
 * the reference case's model; prints one JSON line: seconds, a description, peak RSS.
 * Usage: node wakedMemoryProbe.js [model-prefix] [aep|grad] [threads]
 */
import fs from 'node:fs';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { createParallelEvaluator } from '../src/physics/parallelAep.js';
import { gridLayout, weibullRose360x23 } from './aepCases.js';
import { referenceCase } from './wakedCases.js';

const prefix = process.argv[2] ?? 'bastankhah2014';
const grad = process.argv[3] === 'grad';
const threads = Number(process.argv[4] ?? 1);

/** Peak resident memory of this process in MB (VmHWM: getrusage's maxrss carries the parent's over a spawn). */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : process.resourceUsage().maxRSS / 1024;
}
const baselineRssMb = peakRssMb();
const rc = referenceCase(prefix);
const grid = gridLayout(23, 400);
const x = grid.x.slice(0, 500),
  y = grid.y.slice(0, 500);
const wind = weibullRose360x23();
const spec = { ...rc.model, inflow: 'waked' as const };
const ev = createFarmEvaluator(rc.turbine, wind, spec) as ReturnType<typeof createFarmEvaluator> & { last(): number };
const par = threads > 1 ? createParallelEvaluator(rc.turbine, wind, spec, threads) : null;
if (par) await par.aep(x.slice(0, 4), y.slice(0, 4)); // workers started
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const r = par ? await (grad ? par.aepWithGradient(x, y) : par.aep(x, y)) : grad ? ev.aepWithGradient(x, y) : ev.aep(x, y);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(c0);
const peakMb = peakRssMb();
const pairs = 'pairEvaluations' in r ? (r as { pairEvaluations: number }).pairEvaluations : ev.last();
const nominal = ((500 * 499) / 2) * wind.directionsDeg.length * wind.speeds.length;
await par?.close();
const line =
  `500 turbines V80, 23×22 grid at 5D, 360×23, waked, ${rc.describe}, ${grad ? 'AEP+gradient' : 'AEP'}, ${par ? `${par.threads} threads` : 'one thread'}: ` +
  `${seconds.toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, computed ${pairs.toExponential(2)} of nominal ${nominal.toExponential(2)}, ` +
  `node at start ${baselineRssMb.toFixed(0)} MB`;
process.stdout.write(JSON.stringify({ seconds, line, peakMb, aepMwh: r.aepMwh }) + '\n');
