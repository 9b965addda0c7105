/**
 * `inflow` bench section (issue 41): the conditions that are not one rose with one TI, AEP and AEP +
 * gradient on the native kernel beside the JavaScript engine (what they ran on before the kernel
 * took them; createFarmEvaluator's kernel option, as WFLO_KERNEL=js), in one process, side by side:
 *
 * - a time series of INFLOW_SAMPLES samples (default 10⁵; the `realfarms` section's generator: a
 *   seeded random walk of directions at 0.01°, Weibull speeds, a TI per sample) × 100 V80 on a
 *   10 × 10 grid at 5 D, Bastankhah 2014 and Niayifar 2016 (Crespo–Hernández added turbulence);
 * - a WAsP .wrg site (a generated 21 × 21 grid at 250 m, 12 sectors, A, k and frequencies varying
 *   over the farm, read by io/wrgFile.ts) under a 360 × 23 rose, the same 100 V80, Bastankhah 2014:
 *   each turbine's own probability of every (direction, speed);
 * - a rose of 360 × 23 with a TI per bin, the same farm, Niayifar 2016.
 *
 * CPU seconds (user + system of this process: steadier than wall time on a shared machine), the
 * median of INFLOW_REPEATS calls (default 3) after a warm-up call on the native kernel, of
 * INFLOW_JS_REPEATS (default 1) on the JavaScript engine; the ratio of the two within the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readTimeSeriesCsv } from '../src/io/timeSeriesCsv.js';
import { readWrgFile } from '../src/io/wrgFile.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import type { FarmModelSpec } from '../src/physics/farmModel.js';
import type { Turbine } from '../src/physics/turbine.js';
import type { WindResource } from '../src/physics/windResource.js';
import { uniformRose } from '../src/physics/windResource.js';
import { gridLayout } from './aepCases.js';
import { referenceCase } from './wakedCases.js';
import { writeSeries } from './realFarms.js';

const SAMPLES = Number(process.env.INFLOW_SAMPLES ?? 100_000);
const REPEATS = Number(process.env.INFLOW_REPEATS ?? 3);
const JS_REPEATS = Number(process.env.INFLOW_JS_REPEATS ?? 1);

function cpuOf(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

function median(a: number[]): number {
  const s = [...a].sort((p, q) => p - q);
  return s[s.length >> 1];
}

/** A .wrg file: nx × ny nodes at `cell` m from (x0, y0), 12 sectors, A, k, f smooth over the grid (tokens, as windkit's columns). */
export function writeWrg(file: string, nx: number, ny: number, x0: number, y0: number, cell: number): void {
  const lines = [`${nx} ${ny} ${x0} ${y0} ${cell}`];
  const sectors = 12;
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const x = x0 + i * cell,
        y = y0 + j * cell;
      const u = i / (nx - 1),
        v = j / (ny - 1);
      const raw = Array.from(
        { length: sectors },
        (_, s) => 1 + 0.8 * Math.cos(((s * 30 - 240) * Math.PI) / 180) + 0.2 * u * Math.sin((s * Math.PI) / 3) + 0.15 * v,
      );
      const total = raw.reduce((a, b) => a + b, 0);
      const f = raw.map((r) => Math.round((1000 * r) / total));
      f[0] += 1000 - f.reduce((a, b) => a + b, 0);
      const cells = [`p${i}_${j}`, x, y, 10, 70, 85, 2.1, 400, sectors];
      for (let s = 0; s < sectors; s++) {
        const a = Math.round(10 * (7.5 + 1.2 * u + 0.6 * v + 0.8 * Math.cos(((s * 30 - 250) * Math.PI) / 180)));
        const k = Math.round(100 * (1.9 + 0.3 * v + 0.15 * Math.sin((s * Math.PI) / 6)));
        cells.push(f[s], a, k);
      }
      lines.push(cells.join(' '));
    }
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

interface Figure {
  aep: number;
  grad: number;
  aepMwh: number;
}

function measure(
  turbine: Turbine,
  wind: WindResource,
  model: FarmModelSpec,
  kernel: 'native' | 'js',
  x: Float64Array,
  y: Float64Array,
  repeats: number,
): Figure {
  const ev = createFarmEvaluator(turbine, wind, model, kernel);
  let aepMwh = 0;
  if (kernel === 'native') ev.aepWithGradient(x, y);
  const aep: number[] = [],
    grad: number[] = [];
  for (let r = 0; r < repeats; r++) {
    aep.push(
      cpuOf(() => {
        aepMwh = ev.aep(x, y).aepMwh;
      }),
    );
    grad.push(cpuOf(() => ev.aepWithGradient(x, y)));
  }
  return { aep: median(aep), grad: median(grad), aepMwh };
}

function row(label: string, native: Figure, js: Figure): void {
  const rel = Math.abs(native.aepMwh - js.aepMwh) / js.aepMwh;
  console.log(
    `${label.padEnd(46)}${(native.aep * 1e3).toFixed(0).padStart(9)}${(native.grad * 1e3).toFixed(0).padStart(11)}` +
      `${(js.aep * 1e3).toFixed(0).padStart(10)}${(js.grad * 1e3).toFixed(0).padStart(11)}` +
      `${(js.aep / native.aep).toFixed(1).padStart(8)}×${(js.grad / native.grad).toFixed(1).padStart(7)}×   AEP ${native.aepMwh.toFixed(1)} MWh (JS ${rel.toExponential(1)} rel.)`,
  );
}

export async function benchInflow(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-inflow-'));
  try {
    const grid = gridLayout(10, 400);
    const bast = referenceCase('bastankhah2014'),
      niay = referenceCase('niayifar2016');
    console.log(
      `\n## Inflow: time series, per-point Weibull (.wrg), TI per bin; 100 V80 (10 × 10 at 400 m); native kernel vs the JavaScript engine in one process (load at start ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    console.log('case'.padEnd(46) + 'CPU ms: native AEP'.padStart(9) + '  +grad' + '   JS AEP' + '     +grad' + '   ratio AEP, +grad');
    const csv = path.join(dir, 'series.csv');
    writeSeries(csv, SAMPLES);
    const series = readTimeSeriesCsv(csv);
    for (const rc of [bast, niay]) {
      row(
        `time series ${SAMPLES} samples, ${rc.model.wake}`,
        measure(rc.turbine, series, rc.model, 'native', grid.x, grid.y, REPEATS),
        measure(rc.turbine, series, rc.model, 'js', grid.x, grid.y, JS_REPEATS),
      );
    }
    const wrg = path.join(dir, 'site.wrg');
    writeWrg(wrg, 21, 21, -500, -500, 250);
    const rose = uniformRose(
      360,
      Array.from({ length: 23 }, (_, i) => 3 + i),
      0.1,
    );
    const site = { source: wrg, speedup: null, ti: null, shear: null, weibull: readWrgFile(wrg) };
    const wrgModel: FarmModelSpec = { ...bast.model, site };
    row(
      '.wrg site (21 × 21, 12 sectors), 360 × 23',
      measure(bast.turbine, rose, wrgModel, 'native', grid.x, grid.y, REPEATS),
      measure(bast.turbine, rose, wrgModel, 'js', grid.x, grid.y, JS_REPEATS),
    );
    const tiBins: WindResource = { ...rose, turbulenceIntensityByBin: Float64Array.from(rose.probability, (_, i) => 0.05 + (0.1 * ((i * 7919) % 23)) / 23) };
    row(
      'TI per bin, 360 × 23, niayifar2016',
      measure(niay.turbine, tiBins, niay.model, 'native', grid.x, grid.y, REPEATS),
      measure(niay.turbine, tiBins, niay.model, 'js', grid.x, grid.y, JS_REPEATS),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
