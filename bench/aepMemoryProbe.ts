/**
 * Child process for the memory figure: one 500-turbine AEP with gradient on a 360×23 rose
 * (Bastankhah 2014), then its wall time and the process's peak RSS.
 * Usage: node aepMemoryProbe.js const|table
 */
import { builtinTurbine } from '../src/io/builtinCases.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { gridLayout, tabulatedCtTurbine, weibullRose360x23 } from './aepCases.js';

const ct = process.argv[2] === 'table' ? 'table' : 'const';
const baselineRssMb = process.resourceUsage().maxRSS / 1024;
const turbine = ct === 'table' ? tabulatedCtTurbine() : builtinTurbine('iea37-3.35mw');
const grid = gridLayout(Math.ceil(Math.sqrt(500)), 5 * 130);
const x = grid.x.slice(0, 500), y = grid.y.slice(0, 500);
const ev = createFarmEvaluator(turbine, weibullRose360x23(), { wake: 'bastankhah2014', superposition: 'sos' });
const t0 = process.hrtime.bigint();
const r = ev.aepWithGradient(x, y);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const peakMb = process.resourceUsage().maxRSS / 1024;
console.log(`500 turbines, 360×23, AEP+gradient (${ct} Ct): ${seconds.toFixed(2)} s, AEP ${r.aepMwh.toFixed(0)} MWh, ` +
  `peak RSS ${peakMb.toFixed(0)} MB (node at start: ${baselineRssMb.toFixed(0)} MB); ` +
  `all-conditions per-pair arrays would need ${((500 * 500 * 360 * 23 * 3 * 8) / 1e9).toFixed(1)} GB`);
