/**
 * Cases of the quality-per-second benchmark: the built-in IEA37 cases, and `iea37-cs4-360` (case
 * study 4 on its 360 × 20 rose, examples/records/iea37-windrose-cs4.yaml: the rose the published
 * cs4 layouts are compared on). Also the case as JSON for the PyWake peer (bench/peers/).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinCase } from '../src/io/builtinCases.js';
import { readWindFile } from '../src/io/readers.js';
import type { Case } from '../src/case/case.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CS4_ROSE_360 = path.join(REPO, 'examples', 'records', 'iea37-windrose-cs4.yaml');

export function qualityCase(name: string): Case {
  if (name === 'iea37-cs4-360') {
    const c = builtinCase('iea37-cs4');
    return { ...c, name, wind: readWindFile(CS4_ROSE_360) };
  }
  return builtinCase(name);
}

/** The case as the PyWake peer reads it (constant-Ct cubic IEA37 turbines only). */
export function caseJson(c: Case): string {
  const t = c.turbine;
  if (t.power.kind !== 'cubic' || t.thrust.kind !== 'constant') throw new Error(`${c.name}: the PyWake peer handles IEA37 cubic turbines only`);
  const b = c.boundary!;
  const boundary =
    b.kind === 'circle'
      ? { kind: 'circle', center: b.center, radius: b.radius }
      : { kind: 'polygons', polygons: b.kind === 'polygon' ? [b.vertices] : b.polygons };
  return JSON.stringify({
    name: c.name,
    n_turbines: c.nTurbines,
    min_spacing: c.minSpacing,
    turbine: {
      name: t.name,
      diameter: t.diameter,
      hub_height: t.hubHeight,
      cut_in: t.cutIn,
      cut_out: t.cutOut,
      rated_speed: t.power.ratedSpeed,
      rated_power_w: t.ratedPowerW,
      ct: t.thrust.ct,
    },
    wind: {
      directions: Array.from(c.wind.directionsDeg),
      speeds: Array.from(c.wind.speeds),
      probability: Array.from(c.wind.probability),
      ti: c.wind.turbulenceIntensity,
    },
    boundary,
  });
}
