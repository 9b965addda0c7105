/** The benchmark problems of the AEP section (shared by the timing and the memory probes). */
import type { Turbine } from '../src/physics/turbine.js';
import { roseFromWeibull, type WindResource } from '../src/physics/windResource.js';
import type { FarmModelSpec } from '../src/physics/farmModel.js';
import { builtinCase, builtinTurbine } from '../src/io/builtinCases.js';

export interface AepBenchCase {
  name: string;
  /** Physics in words: engine (waked / free-stream), Ct kind, model options. */
  physics: string;
  /** Layout and spacing in words. */
  layout: string;
  turbine: Turbine;
  wind: WindResource;
  model: FarmModelSpec;
  x: Float64Array;
  y: Float64Array;
}

/** 360 one-degree sectors, Weibull A = 9–11 m/s, k = 2, speeds 3…25 m/s (23 bins). */
export function weibullRose360x23(): WindResource {
  const dirs = Array.from({ length: 360 }, (_, i) => i);
  const freq = dirs.map((d) => (1 + 0.5 * Math.cos(((d - 270) * Math.PI) / 180)) / 360);
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

/** A square grid of n×n turbines at `spacing` metres. */
export function gridLayout(n: number, spacing: number): { x: Float64Array; y: Float64Array } {
  const x = new Float64Array(n * n),
    y = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      x[i * n + j] = i * spacing;
      y[i * n + j] = j * spacing;
    }
  return { x, y };
}

/** IEA37 case study 1 (16/36/64 turbines, baseline layouts): free-stream engine, constant Ct. */
export function cs1Cases(): AepBenchCase[] {
  return ['iea37-cs1-16', 'iea37-cs1-36', 'iea37-cs1-64'].map((name) => {
    const c = builtinCase(name);
    return {
      name,
      physics: 'free-stream, constant Ct 8/9, iea37, sos',
      layout: `${c.layout!.x.length} on rings (baseline), 16×1 rose`,
      turbine: c.turbine,
      wind: c.wind,
      model: c.model,
      x: c.layout!.x,
      y: c.layout!.y,
    };
  });
}

export { builtinTurbine };
