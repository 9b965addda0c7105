/**
 * The `site` bench section's case (bench/site.ts), written as a file in the format of
 * test/data/reference/ so that wflo (siteProbe.ts) and PyWake (peers/pywake_site_time.py) read the
 * same one: the V80 and Bastankhah 2014 (k = 0.0324555) of site-speedup-bastankhah2014.yaml, 100
 * turbines on a 10 × 10 grid at 400 m, 360 × 23 directions and speeds of equal probability, TI 0.1,
 * and a speed-up hill 1 + 0.15·exp(−r²/1200²) about the farm's centre on a 17 × 17 grid (−400 …
 * 4000 m, 275 m steps; values rounded to 4 decimals). JSON is YAML: the file is written as JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readYamlFile } from '../src/io/yamlFile.js';

const REFERENCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'data', 'reference');

export function writeSiteBenchCase(file: string): void {
  const base = readYamlFile(path.join(REFERENCE, 'site-speedup-bastankhah2014.yaml')) as Record<string, Record<string, unknown>>;
  const dirs = Array.from({ length: 360 }, (_, i) => i),
    speeds = Array.from({ length: 23 }, (_, i) => 3 + i);
  const p = 1 / (dirs.length * speeds.length);
  const x: number[] = [],
    y: number[] = [];
  for (let i = 0; i < 10; i++)
    for (let j = 0; j < 10; j++) {
      x.push(i * 400);
      y.push(j * 400);
    }
  const grid = Array.from({ length: 17 }, (_, i) => -400 + 275 * i);
  const values = grid.map((gx) => grid.map((gy) => Math.round((1 + 0.15 * Math.exp(-((gx - 1800) ** 2 + (gy - 1800) ** 2) / 1200 ** 2)) * 1e4) / 1e4));
  const doc = {
    name: 'bench: 100 V80 on a 10 × 10 grid at 400 m, a speed-up hill on a 17 × 17 grid, 360 × 23 equal probabilities',
    source: { ...base.source, computed_with: 'not a reference: the site bench case of bench/siteCase.ts (no expected values)' },
    turbine: base.turbine,
    wind: {
      wind_direction: dirs,
      wind_speed: speeds,
      dims: ['wind_direction', 'wind_speed'],
      probability: dirs.map(() => speeds.map(() => p)),
      turbulence_intensity: 0.1,
      hours_per_year: 8760,
    },
    layout: { x, y },
    model: base.model,
    site: { speedup: { x: grid, y: grid, values } },
  };
  fs.writeFileSync(file, JSON.stringify(doc));
}
