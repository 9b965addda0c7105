/** The benchmark problems for the AEP engine (shared by the timing and the memory probe). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Turbine } from '../src/physics/turbine.js';
import { roseFromWeibull, type WindResource } from '../src/physics/windResource.js';
import type { FarmModelSpec } from '../src/physics/farmModel.js';
import { builtinCase, builtinTurbine } from '../src/io/builtinCases.js';
import { readWindFile } from '../src/io/readers.js';

export interface AepBenchCase {
  name: string;
  turbine: Turbine;
  wind: WindResource;
  model: FarmModelSpec;
  x: Float64Array;
  y: Float64Array;
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CS4_ROSE_360 = path.join(REPO, 'test', 'data', 'iea37', 'cs3-4', 'iea37-windrose-cs4.yaml');

/** 360 one-degree sectors, Weibull A = 9–11 m/s, k = 2, speeds 3…25 m/s (23 bins). */
export function weibullRose360x23(): WindResource {
  const dirs = Array.from({ length: 360 }, (_, i) => i);
  const freq = dirs.map((d) => (1 + 0.5 * Math.cos(((d - 270) * Math.PI) / 180)) / 360);
  const sum = freq.reduce((a, b) => a + b, 0);
  return roseFromWeibull(dirs, freq.map((f) => f / sum), dirs.map((d) => 10 + Math.sin((d * Math.PI) / 180)), dirs.map(() => 2),
    Array.from({ length: 23 }, (_, i) => 3 + i));
}

/** A square grid of n×n turbines at `spacing` metres. */
export function gridLayout(n: number, spacing: number): { x: Float64Array; y: Float64Array } {
  const x = new Float64Array(n * n), y = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { x[i * n + j] = i * spacing; y[i * n + j] = j * spacing; }
  return { x, y };
}

/** IEA37 3.35 MW with a speed-dependent thrust curve (synthetic, for the per-speed code path). */
export function tabulatedCtTurbine(): Turbine {
  const t = builtinTurbine('iea37-3.35mw');
  const speeds = Float64Array.from({ length: 23 }, (_, i) => 3 + i);
  const ct = speeds.map((v) => (v <= 9.8 ? 0.8 : 0.8 * (9.8 / v) ** 3));
  return { ...t, name: 'iea37-3.35mw-ct-table', thrust: { kind: 'table', speeds, ct } };
}

export function aepBenchCases(): AepBenchCase[] {
  const cases: AepBenchCase[] = [];
  for (const name of ['iea37-cs1-16', 'iea37-cs1-36', 'iea37-cs1-64']) {
    const c = builtinCase(name);
    cases.push({ name: `${name} (iea37, 16×1)`, turbine: c.turbine, wind: c.wind, model: c.model, x: c.layout!.x, y: c.layout!.y });
  }
  const cs4 = builtinCase('iea37-cs4');
  if (fs.existsSync(CS4_ROSE_360)) {
    cases.push({ name: 'iea37-cs4 81 (iea37, 360×20)', turbine: cs4.turbine, wind: readWindFile(CS4_ROSE_360), model: cs4.model, x: cs4.layout!.x, y: cs4.layout!.y });
  }
  const grid = gridLayout(10, 5 * 130);
  const wind = weibullRose360x23();
  cases.push({ name: '10×10 grid 5D (bastankhah2014, 360×23, const Ct)', turbine: builtinTurbine('iea37-3.35mw'), wind, model: { wake: 'bastankhah2014', superposition: 'sos' }, ...grid });
  cases.push({ name: '10×10 grid 5D (bastankhah2014, 360×23, Ct table)', turbine: tabulatedCtTurbine(), wind, model: { wake: 'bastankhah2014', superposition: 'sos' }, ...grid });
  return cases;
}
