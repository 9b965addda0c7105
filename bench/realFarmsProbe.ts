/**
 * Child process of the `realfarms` bench section (realFarms.ts): one evaluation as a user runs it,
 * with its own peak RSS. Prints one JSON line.
 *   node realFarmsProbe.js series CSV MODEL SIDE [grad]   a time series (read from the CSV) on the V80, SIDE × SIDE grid at 5D
 *   node realFarmsProbe.js blockage NDIR SIDE [grad|none]   bastankhah2014 + self-similarity blockage, NDIR × 22 speeds (3–24 m/s);
 *                                                          `none`: the same without blockage
 * MODEL is a reference-case prefix (bastankhah2014, niayifar2016, …): its turbine and options.
 */
import { readTimeSeriesCsv } from '../src/io/timeSeriesCsv.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { uniformRose } from '../src/physics/windResource.js';
import { gridLayout } from './aepCases.js';
import { referenceCase } from './wakedCases.js';

const [mode, arg, third, fourth, fifth] = process.argv.slice(2);
const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
/** CPU seconds (user + system) of this process since `c0`: steadier than wall time on a loaded machine. */
const cpuSeconds = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};
const load = (await import('node:os')).loadavg().map((l) => l.toFixed(2));

if (mode === 'series') {
  const rc = referenceCase(third);
  if (!rc) throw new Error(`reference case ${third} not found`);
  const side = Number(fourth);
  const grid = gridLayout(side, 400);
  let t0 = process.hrtime.bigint();
  const wind = readTimeSeriesCsv(arg);
  const readS = seconds(t0);
  t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const ev = createFarmEvaluator(rc.turbine, wind, rc.model);
  const r = fifth === 'grad' ? ev.aepWithGradient(grid.x, grid.y) : ev.aep(grid.x, grid.y);
  const evalS = seconds(t0),
    cpuS = cpuSeconds(c0);
  console.log(
    JSON.stringify({
      peer: 'wflo',
      case: `time series ${wind.series!.speeds.length} samples x ${grid.x.length} V80, ${third}${fifth === 'grad' ? ', with gradient' : ''}`,
      aep_mwh: r.aepMwh,
      read_s: readS,
      seconds: evalS,
      cpu_s: cpuS,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
      load,
    }),
  );
} else if (mode === 'blockage') {
  const rc = referenceCase('bastankhah2014');
  if (!rc) throw new Error('reference case bastankhah2014 not found');
  const nDir = Number(arg),
    side = Number(third);
  const grid = gridLayout(side, 400);
  const wind = uniformRose(
    nDir,
    Array.from({ length: 22 }, (_, i) => 3 + i),
    0.1,
  );
  const model = fourth === 'none' ? rc.model : { ...rc.model, blockage: 'selfsimilarity2020' as const };
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const ev = createFarmEvaluator(rc.turbine, wind, model);
  const r = fourth === 'grad' ? ev.aepWithGradient(grid.x, grid.y) : ev.aep(grid.x, grid.y);
  const s = seconds(t0),
    cpuS = cpuSeconds(c0);
  const solve = 'lastSolve' in ev ? (ev as unknown as { lastSolve(): { sweeps: number; unconverged: number } }).lastSolve() : null;
  console.log(
    JSON.stringify({
      peer: 'wflo',
      case: `${grid.x.length} V80, ${nDir}x22, ${fourth === 'none' ? 'waked, no blockage' : `blockage${fourth === 'grad' ? ', with gradient' : ''}`}`,
      aep_mwh_uniform: r.aepMwh,
      seconds: s,
      cpu_s: cpuS,
      ...(solve ? { sweeps: solve.sweeps, unconverged: solve.unconverged } : {}),
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
      load,
    }),
  );
} else {
  throw new Error(`unknown mode '${mode}' (series | blockage)`);
}
