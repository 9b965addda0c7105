/**
 * windIO's gridded `wind_resource` (issue 31): quantities whose `dims` include `x`, `y` (and
 * optionally `height`) are a per-point site (physics/site/site.ts), as windIO's
 * GriddedResource example gives it:
 *
 *   x: [...], y: [...], height: [...]            coordinates, metres, strictly ascending
 *   wind_direction: [0, 30, ...]                 the sectors (equal width), also the rose's directions
 *   wind_speed: [...]                            the rose's speeds (0, 1, ..., 30 without it)
 *   weibull_a / weibull_k / sector_probability: {data, dims: [x, y, (height), wind_direction]}
 *   turbulence_intensity: {data, dims: [x, y, (height), (wind_direction)]}   (optional)
 *
 * Any order of `dims` is read (the data are transposed to the site's x, y, h, wd); an axis a
 * quantity does not list is broadcast. When any of the three Weibull quantities is over x/y/height,
 * all three are read on one grid x, y[, h], wd and become the site's per-point sector Weibull
 * (io/siteWeibullGrid.ts checks the values: A, k in range, each point's sectors summing to 1);
 * turbulence_intensity over x/y becomes the site's TI field. wind_speed in such a quantity's dims
 * is refused (site fields have no speed axis). windIO defines no speed-up; a gridded `probability`
 * is refused by dimensionalData.ts.
 *
 * The listed rose (what `wflo aep` prints as the case's wind; the AEP itself weights each
 * turbine's power by its own per-point probability) is the mean over the grid points of each
 * point's sector Weibull rose, normalised to sum 1.
 */
import { roseFromWeibull, type WindResource } from '../../physics/windResource.js';
import { makeSiteField, type SiteDim, type SiteField } from '../../physics/site/siteField.js';
import type { SiteWeibull } from '../../physics/site/siteWeibull.js';
import { axisProblem, valueProblem } from '../siteValues.js';
import { siteWeibullOf, weibullGridProblem, type WeibullGrid, type WeibullVariable } from '../siteWeibullGrid.js';
import { readCoordinate, readDimensional, type Axis } from './dimensionalData.js';
import type { WindioNode } from './windioTree.js';

/** windIO's name of each site dimension. */
const WINDIO_NAME: Record<SiteDim, string> = { x: 'x', y: 'y', h: 'height', wd: 'wind_direction' };
const SPATIAL = ['x', 'y', 'height'];
const WEIBULL_KEYS: readonly [WeibullVariable, string][] = [
  ['A', 'weibull_a'],
  ['k', 'weibull_k'],
  ['frequency', 'sector_probability'],
];

/** The axis names a `{data, dims}` node lists (empty for a number or a node without dims). */
function dimsOf(node: WindioNode): string[] {
  if (!node.exists || !node.isMap) return [];
  const dims = node.get('dims');
  if (!dims.isSeq) return [];
  return dims.items().map((d) => String(d.scalar));
}

/** Whether a quantity varies with position (its dims name x, y or height). */
export function isGridded(node: WindioNode): boolean {
  return dimsOf(node).some((d) => SPATIAL.includes(d));
}

/** Whether the resource has any quantity over position (then it is read as a per-point site). */
export function hasGriddedQuantity(wr: WindioNode): boolean {
  return [...WEIBULL_KEYS.map(([, k]) => k), 'turbulence_intensity'].some((k) => isGridded(wr.get(k)));
}

/** A site coordinate of the resource (x, y, height, wind_direction), checked as a site grid. */
function coordinate(wr: WindioNode, dim: SiteDim, what: string): Float64Array {
  const node = wr.get(WINDIO_NAME[dim]);
  if (!node.exists)
    node.fail(
      `missing: the resource varies with position (a quantity's dims name x, y or height), so it must give the ${WINDIO_NAME[dim]} coordinates (${what})`,
    );
  const values = readCoordinate(node, what);
  const problem = axisProblem(dim, values);
  if (problem) {
    const list = node.isMap && node.get('data').exists ? node.get('data') : node;
    (list.isSeq && list.get(problem.index).exists ? list.get(problem.index) : node).fail(problem.message);
  }
  return values;
}

/** The grid over `dims` (x, y always; h, wd when asked). */
function gridOf(wr: WindioNode, dims: SiteDim[]): { dims: SiteDim[]; coords: Float64Array[]; axes: Axis[] } {
  const what: Record<SiteDim, string> = {
    x: 'west-east positions, metres',
    y: 'south-north positions, metres',
    h: 'heights, metres',
    wd: 'wind directions, degrees',
  };
  const coords = dims.map((d) => coordinate(wr, d, what[d]));
  return { dims, coords, axes: dims.map((d, i) => ({ name: WINDIO_NAME[d], length: coords[i].length })) };
}

/** `at x[2], y[0], wind_direction[5]` for flat index i of a grid. */
function pointName(dims: readonly SiteDim[], coords: readonly Float64Array[], i: number): string {
  const parts: string[] = [];
  let rest = i;
  for (let a = dims.length - 1; a >= 0; a--) {
    const n = coords[a].length;
    parts.unshift(`${WINDIO_NAME[dims[a]]}[${rest % n}]`);
    rest = Math.floor(rest / n);
  }
  return parts.join(', ');
}

/** The per-point sector Weibull of a resource whose weibull_a/weibull_k/sector_probability vary with position. */
export function readGriddedWeibull(wr: WindioNode): { weibull: SiteWeibull; grid: WeibullGrid } {
  const nodes = WEIBULL_KEYS.map(([, key]) =>
    wr.require(
      key,
      key === 'sector_probability'
        ? 'probability of each direction sector at each point'
        : `Weibull ${key === 'weibull_a' ? 'scale, m/s' : 'shape'} at each point and sector`,
    ),
  );
  const height = nodes.some((n) => dimsOf(n).includes('height'));
  const g = gridOf(wr, height ? ['x', 'y', 'h', 'wd'] : ['x', 'y', 'wd']);
  const [a, k, frequency] = nodes.map((n) => readDimensional(n, g.axes).values);
  const grid: WeibullGrid = { dims: g.dims, coords: g.coords, a, k, frequency };
  const problem = weibullGridProblem(grid);
  if (problem) {
    const node = nodes[WEIBULL_KEYS.findIndex(([v]) => v === problem.variable)];
    node.fail(`at ${pointName(grid.dims, grid.coords, problem.index)}: ${problem.message}`);
  }
  return { weibull: siteWeibullOf(grid), grid };
}

/** The site's TI field of a turbulence_intensity over x and y (and, where its dims say, height and wind_direction). */
export function readGriddedTi(wr: WindioNode): SiteField {
  const node = wr.get('turbulence_intensity');
  const listed = dimsOf(node);
  const dims: SiteDim[] = ['x', 'y', ...(listed.includes('height') ? ['h' as const] : []), ...(listed.includes('wind_direction') ? ['wd' as const] : [])];
  const g = gridOf(wr, dims);
  // Names outside these axes (wind_speed, time, …) are refused by readDimensional, naming the allowed ones.
  const values = readDimensional(node, g.axes).values;
  for (let i = 0; i < values.length; i++) {
    const problem = valueProblem('ti', values[i]);
    if (problem) node.fail(`at ${pointName(g.dims, g.coords, i)}: ${problem}`);
  }
  return makeSiteField('ti', g.dims, g.coords, values);
}

/**
 * The listed rose of a per-point Weibull grid: the mean over the grid points (x, y[, h]) of each
 * point's sector Weibull rose on the resource's directions and speeds, normalised to sum 1.
 */
export function meanRoseOf(grid: WeibullGrid, directions: Float64Array, speeds: Float64Array, turbulenceIntensity: number): WindResource {
  const nw = directions.length;
  const points = grid.a.length / nw;
  let sum: Float64Array | null = null;
  let first: WindResource | null = null;
  for (let p = 0; p < points; p++) {
    const at = (v: Float64Array) => v.subarray(p * nw, (p + 1) * nw);
    const rose = roseFromWeibull(directions, at(grid.frequency), at(grid.a), at(grid.k), speeds, turbulenceIntensity);
    if (!sum) {
      sum = new Float64Array(rose.probability.length);
      first = rose;
    }
    for (let i = 0; i < sum.length; i++) sum[i] += rose.probability[i];
  }
  // Normalised: each point's sectors may sum to 1 only within siteWeibullGrid's tolerance (a .wrg's rounding).
  const total = sum!.reduce((t, v) => t + v, 0);
  for (let i = 0; i < sum!.length; i++) sum![i] /= total;
  return { ...first!, probability: sum! };
}
