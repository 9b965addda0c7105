/**
 * Shared test fixtures for the geometry layer: the IEA37 case-study boundaries and baseline
 * layouts read from the case-study files of test/data/iea37/ (written from the published facts,
 * see SOURCE.md there), random points, and a central-difference gradient check.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { Boundary, Point } from '../../src/geometry/boundary.js';
import type { Rng } from '../../src/util/rng.js';

// Compiled to dist/test/geometry/: the repository root is three levels up.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const IEA37_DIR = process.env.WFLO_IEA37_DIR ?? resolve(repoRoot, 'test/data/iea37');

function readYaml(relativePath: string): any {
  return parse(readFileSync(resolve(IEA37_DIR, relativePath), 'utf8'));
}

/** The boundaries: {name: [[x, y], ...]} of iea37-boundary-cs3.yaml or -cs4.yaml. */
export function iea37BoundaryParts(caseStudy: 'cs3' | 'cs4'): Record<string, Point[]> {
  return readYaml(`cs3-4/iea37-boundary-${caseStudy}.yaml`).boundaries as Record<string, Point[]>;
}

/** cs3: the single concave polygon IIIa. */
export function cs3Boundary(): Boundary {
  return { kind: 'polygon', vertices: iea37BoundaryParts('cs3')['IIIa']! };
}

/** cs4: five disjoint polygons IIIa, IIIb, IVa, IVb, IVc. */
export function cs4Boundary(): Boundary {
  return { kind: 'multipolygon', polygons: Object.values(iea37BoundaryParts('cs4')) };
}

/** IEA37 case study 1 with 16 turbines: a circle of radius 1300 m about the origin. */
export const CS1_16_CIRCLE: Boundary = { kind: 'circle', center: [0, 0], radius: 1300 };

/** IEA37 10 MW turbine rotor diameter, m (iea37-10mw.yaml). */
export const D_10MW = 198;
/** IEA37 3.35 MW turbine rotor diameter, m (iea37-335mw.yaml). */
export const D_335MW = 130;

export interface XY {
  x: Float64Array;
  y: Float64Array;
}

/** Published baseline layout of cs3 (25 turbines) or cs4 (81 turbines). */
export function baselineLayout(caseStudy: 'cs3' | 'cs4'): XY {
  const file = caseStudy === 'cs3' ? 'cs3-4/iea37-ex-opt3.yaml' : 'cs3-4/iea37-ex-opt4.yaml';
  const items = readYaml(file).definitions.position.items as [number, number][];
  return { x: Float64Array.from(items, (p) => p[0]), y: Float64Array.from(items, (p) => p[1]) };
}

/** Published 16-turbine baseline of case study 1 (iea37-ex16.yaml, xc/yc lists). */
export function cs1Baseline16(): XY {
  const items = readYaml('cs1-2/iea37-ex16.yaml').definitions.position.items as { xc: number[]; yc: number[] };
  return { x: Float64Array.from(items.xc), y: Float64Array.from(items.yc) };
}

/** n points uniform in the box [minX, maxX] × [minY, maxY]. */
export function randomPoints(rng: Rng, count: number, minX: number, maxX: number, minY: number, maxY: number): XY {
  const x = new Float64Array(count),
    y = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    x[i] = rng.uniform(minX, maxX);
    y[i] = rng.uniform(minY, maxY);
  }
  return { x, y };
}

/**
 * Central difference of f at coordinate `index` of `values` (perturbed in place, then restored).
 */
export function centralDifference(values: Float64Array, index: number, step: number, f: () => number): number {
  const saved = values[index]!;
  values[index] = saved + step;
  const forward = f();
  values[index] = saved - step;
  const backward = f();
  values[index] = saved;
  return (forward - backward) / (2 * step);
}

/** |analytic − numeric| <= relative·max(floor, |analytic|), with a message naming what failed. */
export function assertGradientClose(analytic: number, numeric: number, what: string, relative = 1e-6, floor = 1): void {
  const allowed = relative * Math.max(floor, Math.abs(analytic));
  assert.ok(Math.abs(analytic - numeric) <= allowed, `${what}: analytic ${analytic} vs central difference ${numeric} (allowed ${allowed})`);
}
