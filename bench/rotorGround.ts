/**
 * `rotorground` and `blockage` bench sections (issue 41).
 *
 * rotorground: the features the native waked kernel took over from the JavaScript engine — the
 * ground mirror, rotor-average quadratures, Madsen's Ct→a in Crespo–Hernández — on the V80 of the
 * PyWake reference cases, 10 × 10 grid at 5D (400 m), a 72 × 23 Weibull rose (every fifth sector of
 * aepCases.ts's 360 × 23, so the JavaScript side stays within minutes): AEP and AEP + gradient,
 * wall and CPU ms of each kernel side by side in one run (native: median of ≥ 3 after 2 warm-ups;
 * JavaScript: one call after one warm-up), then the native kernel alone on the full 360 × 23 rose.
 *
 * blockage: the blockage solve (blockageSolve.ts, JavaScript only) against the waked solve of the
 * same model without blockage, on each kernel, for 16, 49 and 100 turbines (grids at 5D), 72 × 23:
 * what porting blockage would buy, measured (docs/physics.md, blockageCovers.ts).
 */
import os from 'node:os';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { roseFromWeibull, type WindResource } from '../src/physics/windResource.js';
import type { FarmModelSpec } from '../src/physics/farmModel.js';
import type { Turbine } from '../src/physics/turbine.js';
import { wakedConfig } from '../src/physics/nativeKernel.js';
import { gridLayout, weibullRose360x23 } from './aepCases.js';
import { medianTime } from './aepWaked.js';
import { referenceCase } from './wakedCases.js';

/** aepCases.ts's 360 × 23 rose on every `step`-th sector. */
function weibullRose(step: number): WindResource {
  const dirs = Array.from({ length: 360 / step }, (_, i) => i * step);
  const freq = dirs.map((d) => 1 + 0.5 * Math.cos(((d - 270) * Math.PI) / 180));
  const sum = freq.reduce((a, b) => a + b, 0);
  return roseFromWeibull(
    dirs,
    freq.map((f) => f / sum),
    dirs.map((d) => 10 + Math.sin((d * Math.PI) / 180)),
    dirs.map(() => 2),
    Array.from({ length: 23 }, (_, i) => 3 + i),
    0.1,
  );
}

/** Wall and CPU seconds of one call after one warm-up (the slow JavaScript side). */
function onceTime(fn: () => void): { wall: number; cpu: number } {
  fn();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1e6 };
}

const ms = (s: number) => (s * 1e3).toFixed(0);

function timeBoth(turbine: Turbine, wind: WindResource, model: FarmModelSpec, x: Float64Array, y: Float64Array, kernel: 'native' | 'js') {
  const ev = createFarmEvaluator(turbine, wind, model, kernel);
  const time = kernel === 'native' ? (f: () => void) => medianTime(f, 0.4, 3) : onceTime;
  const aep = time(() => ev.aep(x, y));
  const grad = time(() => ev.aepWithGradient(x, y));
  return { aep, grad, aepMwh: ev.aep(x, y).aepMwh };
}

const V80_MODELS: [string, FarmModelSpec][] = (() => {
  const b = referenceCase('bastankhah2014').model,
    n = referenceCase('niayifar2016').model,
    t = referenceCase('turbopark2022').model,
    j = referenceCase('jensen1983').model;
  return [
    ['bastankhah2014, ground mirror', { ...b, ground: 'mirror' }],
    ['bastankhah2014, cgi4', { ...b, rotorAverage: 'cgi4' }],
    ['bastankhah2014, cgi4 + ground mirror', { ...b, rotorAverage: 'cgi4', ground: 'mirror' }],
    ['niayifar2016 (Crespo–Hernández), turbulence ct2a madsen', { ...n, turbulenceCt2a: 'madsen' }],
    ['niayifar2016, gauss3 + ground + ct2a madsen', { ...n, rotorAverage: 'gauss3', ground: 'mirror', turbulenceCt2a: 'madsen' }],
    ['turbopark2022, cgi7 + ground mirror', { ...t, rotorAverage: 'cgi7', ground: 'mirror' }],
    ['jensen1983, ground mirror (area overlap)', { ...j, ground: 'mirror' }],
    ['jensen1983, eqgrid4 + ground mirror', { ...j, rotorAverage: 'eqgrid4', ground: 'mirror' }],
  ];
})();

export async function benchRotorGround(): Promise<void> {
  const { turbine } = referenceCase('bastankhah2014');
  const grid = gridLayout(10, 400);
  const wind = weibullRose(5);
  console.log(
    `\n## Ground mirror, rotor averages, turbulence ct2a: V80 (Ct table), 10×10 grid at 5D (400 m), 72 × 23 rose (one core; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(
    'model'.padEnd(58) +
      'native ms AEP'.padStart(14) +
      'cpu'.padStart(7) +
      'grad'.padStart(8) +
      'cpu'.padStart(7) +
      'JS ms AEP'.padStart(11) +
      'cpu'.padStart(7) +
      'grad'.padStart(8) +
      'cpu'.padStart(7) +
      'JS/native AEP'.padStart(15) +
      'grad'.padStart(7) +
      '  AEP rel. diff',
  );
  for (const [what, model] of V80_MODELS) {
    const spec = { ...model, inflow: 'waked' as const };
    if (wakedConfig(turbine, wind, spec, 'best') === null) {
      console.log(`${what.padEnd(58)} not covered by the native kernel`);
      continue;
    }
    const nat = timeBoth(turbine, wind, spec, grid.x, grid.y, 'native');
    const js = timeBoth(turbine, wind, spec, grid.x, grid.y, 'js');
    console.log(
      what.slice(0, 57).padEnd(58) +
        ms(nat.aep.wall).padStart(14) +
        ms(nat.aep.cpu).padStart(7) +
        ms(nat.grad.wall).padStart(8) +
        ms(nat.grad.cpu).padStart(7) +
        ms(js.aep.wall).padStart(11) +
        ms(js.aep.cpu).padStart(7) +
        ms(js.grad.wall).padStart(8) +
        ms(js.grad.cpu).padStart(7) +
        `${(js.aep.cpu / nat.aep.cpu).toFixed(1)}×`.padStart(15) +
        `${(js.grad.cpu / nat.grad.cpu).toFixed(1)}×`.padStart(7) +
        `  ${(Math.abs(nat.aepMwh - js.aepMwh) / js.aepMwh).toExponential(1)}`,
    );
  }
  const full = weibullRose360x23();
  console.log('\nnative kernel alone, 360 × 23 rose (ms AEP, cpu, ms AEP + gradient, cpu):');
  for (const [what, model] of V80_MODELS.slice(0, 5)) {
    const nat = timeBoth(turbine, full, { ...model, inflow: 'waked' }, grid.x, grid.y, 'native');
    console.log(
      `  ${what.padEnd(58)}${ms(nat.aep.wall).padStart(8)}${ms(nat.aep.cpu).padStart(8)}${ms(nat.grad.wall).padStart(8)}${ms(nat.grad.cpu).padStart(8)}`,
    );
  }
}

export async function benchBlockage(): Promise<void> {
  const rc = referenceCase('bastankhah2014');
  const wind = weibullRose(5);
  const model: FarmModelSpec = { ...rc.model, inflow: 'waked' };
  console.log(
    `\n## Blockage (selfsimilarity2020, JavaScript) vs the waked solve without it, V80, ${rc.describe}, grids at 5D, 72 × 23 rose (one core; load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(
    'turbines'.padEnd(10) +
      'blockage JS ms AEP'.padStart(19) +
      'grad'.padStart(8) +
      'waked JS AEP'.padStart(14) +
      'grad'.padStart(8) +
      'waked native AEP'.padStart(18) +
      'grad'.padStart(8) +
      '   blockage JS / waked native: AEP, grad (CPU)',
  );
  for (const side of [4, 7, 10]) {
    const grid = gridLayout(side, 400);
    const blockage = timeBoth(rc.turbine, wind, { ...model, blockage: 'selfsimilarity2020' }, grid.x, grid.y, 'js');
    const wakedJs = timeBoth(rc.turbine, wind, model, grid.x, grid.y, 'js');
    const wakedNative = timeBoth(rc.turbine, wind, model, grid.x, grid.y, 'native');
    console.log(
      String(side * side).padEnd(10) +
        ms(blockage.aep.cpu).padStart(19) +
        ms(blockage.grad.cpu).padStart(8) +
        ms(wakedJs.aep.cpu).padStart(14) +
        ms(wakedJs.grad.cpu).padStart(8) +
        ms(wakedNative.aep.cpu).padStart(18) +
        ms(wakedNative.grad.cpu).padStart(8) +
        `   ${(blockage.aep.cpu / wakedNative.aep.cpu).toFixed(0)}×, ${(blockage.grad.cpu / wakedNative.grad.cpu).toFixed(0)}×`,
    );
  }
}
