/**
 * windIO `energy_resource.wind_resource` → wflo's discrete wind rose, in the three forms windIO
 * defines (the schema's oneOf):
 *
 * - probability table: `probability` over (wind_direction, wind_speed) in the order its `dims`
 *   give; with `sector_probability` as well (the IEA37 cs3/cs4 examples), `probability` is the
 *   speed distribution within each sector and the joint probability is
 *   sector_probability[d] · probability[d, s] (each of those rows sums to 1 in the examples).
 * - Weibull sectors: `sector_probability`, `weibull_a`, `weibull_k` over wind_direction,
 *   discretized on the `wind_speed` bin centres (roseFromWeibull: each bin gets the Weibull mass
 *   between the midpoints to its neighbours); without `wind_speed`, on 0, 1, …, 30 m/s.
 * - time series: `time`, `wind_speed`, `wind_direction` per time stamp, evaluated sample by
 *   sample (timeSeries.ts).
 *
 * Directions are meteorological in windIO as in wflo (degrees clockwise from north, where the
 * wind comes from), so they are used as they are;
 * Weibull quantities or a turbulence intensity over x, y[, height] (windIO's gridded resource) make
 * a per-point site, carried as `site` (griddedResource.ts); in [0, 360), each once (io/plausibility.ts). `turbulence_intensity` (a number or over
 * direction/speed) is kept per bin: the resource carries `turbulenceIntensityByBin` when it
 * varies between bins (one value stays one value); absent, it is 0.075 (the IEA37 value).
 */
import { roseFromWeibull, windResourceProblem, type WindResource } from '../../physics/windResource.js';
import { readCoordinate, readDimensional, type Axis } from './dimensionalData.js';
import { timeSeriesResource } from './timeSeries.js';
import { directionsProblem, radianDirectionsProblem, weibullScaleProblem, windPlausibility } from '../plausibility.js';
import { probabilityWeightedMean, type BinnedResource } from './binnedResource.js';
import type { WindioNode } from './windioTree.js';
import type { SiteField } from '../../physics/site/siteField.js';
import type { Site } from '../../physics/site/site.js';
import type { SiteWeibull } from '../../physics/site/siteWeibull.js';
import { isGridded, meanRoseOf, readGriddedTi, readGriddedWeibull } from './griddedResource.js';

export const DEFAULT_TURBULENCE_INTENSITY = 0.075;
/** Speed bin centres for a Weibull resource that gives no `wind_speed`. */
export const DEFAULT_WEIBULL_SPEEDS = Array.from({ length: 31 }, (_, i) => i);
const SUM_TOLERANCE = 1e-3;

/** `site.energy_resource` (or a file whose root is an energy resource) → its `wind_resource`. */
export function windResourceNode(energyResource: WindioNode): WindioNode {
  const wr = energyResource.get('wind_resource');
  if (!wr.exists) wr.fail('missing (windIO energy_resource needs a wind_resource)');
  if (!wr.isMap) wr.fail('expected a mapping');
  return wr;
}

export function readWindResource(wr: WindioNode): BinnedResource {
  const has = (k: string) => wr.get(k).exists;
  let result: BinnedResource;
  if (has('probability')) result = probabilityTable(wr);
  else if (has('weibull_a') || has('weibull_k')) result = weibullSectors(wr);
  else if (has('time')) {
    const wind = timeSeriesResource(wr, DEFAULT_TURBULENCE_INTENSITY);
    result = { wind, turbulenceIntensityByBin: new Float64Array(wind.probability.length).fill(wind.turbulenceIntensity) };
  } else {
    return wr.fail(
      'expected one of the three windIO forms: probability (with wind_direction, wind_speed), ' +
        'weibull_a + weibull_k + sector_probability, or time + wind_speed + wind_direction',
    );
  }
  const problem = windResourceProblem(result.wind, SUM_TOLERANCE);
  if (problem) wr.fail(problem);
  // Unit slips of a rose's speeds and turbulence (km/h, percent); directions were checked on their axis.
  const implausible = windPlausibility(result.wind);
  if (implausible && implausible.quantity !== 'directions') {
    const node = wr.get(implausible.quantity === 'speeds' ? 'wind_speed' : 'turbulence_intensity');
    const list = node.isMap && node.get('data').exists ? node.get('data') : node;
    const item = implausible.quantity === 'speeds' && list.isSeq && list.get(implausible.index!).exists ? list.get(implausible.index!) : node;
    item.fail(implausible.message);
  }
  return result;
}

function directionAxis(wr: WindioNode): { directions: Float64Array; axis: Axis } {
  const node = wr.require('wind_direction', 'the direction bins, degrees from north');
  const directions = readCoordinate(node, 'wind directions (degrees)');
  const radians = radianDirectionsProblem(directions);
  if (radians) node.fail(radians);
  const bad = directionsProblem(directions, true);
  if (bad) {
    const list = node.isMap && node.get('data').exists ? node.get('data') : node;
    (list.isSeq && list.get(bad.index).exists ? list.get(bad.index) : node).fail(bad.message);
  }
  return { directions, axis: { name: 'wind_direction', length: directions.length } };
}

function speedAxis(wr: WindioNode, fallback: number[] | null): { speeds: Float64Array; axis: Axis } {
  const node = wr.get('wind_speed');
  let speeds: Float64Array;
  if (node.exists) speeds = readCoordinate(node, 'wind speeds (m/s)');
  else if (fallback) speeds = Float64Array.from(fallback);
  else return node.fail('missing (the speed bins the probability table is given on)');
  speeds.forEach((v, i) => {
    if (!(v >= 0)) node.fail(`wind_speed[${i}] = ${v} must be >= 0`);
  });
  return { speeds, axis: { name: 'wind_speed', length: speeds.length } };
}

function turbulence(wr: WindioNode, axes: Axis[], probability: Float64Array): { byBin: Float64Array; mean: number; field?: SiteField } {
  const node = wr.get('turbulence_intensity');
  if (isGridded(node)) {
    // A TI over position is the site's TI field (each turbine's own); the listed rose carries its mean.
    const field = readGriddedTi(wr);
    const mean = field.values.reduce((s, v) => s + v, 0) / field.values.length;
    return { byBin: new Float64Array(probability.length).fill(mean), mean, field };
  }
  if (!node.exists) return { byBin: new Float64Array(probability.length).fill(DEFAULT_TURBULENCE_INTENSITY), mean: DEFAULT_TURBULENCE_INTENSITY };
  const byBin = readDimensional(node, axes).values;
  byBin.forEach((v, i) => {
    if (!(v >= 0)) node.fail(`value ${v} at bin ${i} must be >= 0`);
  });
  return { byBin, mean: probabilityWeightedMean(probability, byBin) };
}

function nonNegative(node: WindioNode, values: Float64Array): Float64Array {
  values.forEach((v, i) => {
    if (!(v >= 0)) node.fail(`value ${v} at flat index ${i} must be a probability >= 0`);
  });
  return values;
}

function checkSum(node: WindioNode, values: Float64Array, what: string): void {
  const sum = values.reduce((s, v) => s + v, 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE) node.fail(`${what} sum to ${sum.toPrecision(8)}, expected 1 (within ${SUM_TOLERANCE})`);
}

function probabilityTable(wr: WindioNode): BinnedResource {
  const { directions, axis: dirAxis } = directionAxis(wr);
  const { speeds, axis: speedAxisInfo } = speedAxis(wr, null);
  const axes = [dirAxis, speedAxisInfo];
  const probabilityNode = wr.get('probability');
  // Flat over (direction, speed): index = dir * nSpeeds + speed.
  const table = readDimensional(probabilityNode, axes);
  if (speeds.length > 1 && !table.dims.includes('wind_speed')) {
    probabilityNode.get('dims').fail(`no wind_speed axis, but there are ${speeds.length} wind speeds: give the probability of every (direction, speed) bin`);
  }
  const probability = nonNegative(probabilityNode, table.values);
  const sectorNode = wr.get('sector_probability');
  if (sectorNode.exists) {
    const sector = nonNegative(sectorNode, readDimensional(sectorNode, [dirAxis]).values);
    checkSum(sectorNode, sector, 'sector probabilities');
    const ns = speeds.length;
    for (let d = 0; d < directions.length; d++) for (let s = 0; s < ns; s++) probability[d * ns + s] *= sector[d];
    checkSum(probabilityNode, probability, 'sector_probability × probability');
  } else {
    checkSum(probabilityNode, probability, 'probabilities');
  }
  const ti = turbulence(wr, axes, probability);
  const wind: WindResource = withBins({ directionsDeg: directions, speeds, probability, turbulenceIntensity: ti.mean }, ti.byBin);
  return { wind, turbulenceIntensityByBin: ti.byBin, ...siteOf(wr, ti.field ?? null, null) };
}

function weibullSectors(wr: WindioNode): BinnedResource {
  const { directions, axis: dirAxis } = directionAxis(wr);
  const { speeds, axis: speedAxisInfo } = speedAxis(wr, DEFAULT_WEIBULL_SPEEDS);
  if (['weibull_a', 'weibull_k', 'sector_probability'].some((key) => isGridded(wr.get(key)))) {
    const { weibull, grid } = readGriddedWeibull(wr);
    const mean = meanRoseOf(grid, directions, speeds, DEFAULT_TURBULENCE_INTENSITY);
    const ti = turbulence(wr, [dirAxis, speedAxisInfo], mean.probability);
    return {
      wind: withBins({ ...mean, turbulenceIntensity: ti.mean }, ti.byBin),
      turbulenceIntensityByBin: ti.byBin,
      ...siteOf(wr, ti.field ?? null, weibull),
    };
  }
  const aNode = wr.require('weibull_a', 'Weibull scale per sector, m/s');
  const kNode = wr.require('weibull_k', 'Weibull shape per sector');
  const sectorNode = wr.require('sector_probability', 'probability of each direction sector');
  const a = readDimensional(aNode, [dirAxis]).values;
  const k = readDimensional(kNode, [dirAxis]).values;
  const sector = nonNegative(sectorNode, readDimensional(sectorNode, [dirAxis]).values);
  a.forEach((v, i) => {
    if (!(v > 0)) aNode.fail(`sector ${i}: ${v} must be > 0`);
  });
  const scale = weibullScaleProblem(a);
  if (scale) aNode.fail(`sector ${scale.index}: ${scale.message}`);
  k.forEach((v, i) => {
    if (!(v > 0)) kNode.fail(`sector ${i}: ${v} must be > 0`);
  });
  checkSum(sectorNode, sector, 'sector probabilities');
  const rose = roseFromWeibull(directions, sector, a, k, speeds, DEFAULT_TURBULENCE_INTENSITY);
  const ti = turbulence(wr, [dirAxis, speedAxisInfo], rose.probability);
  return { wind: withBins({ ...rose, turbulenceIntensity: ti.mean }, ti.byBin), turbulenceIntensityByBin: ti.byBin, ...siteOf(wr, ti.field ?? null, null) };
}

/** `{site}` when the resource has fields over position (none otherwise). */
function siteOf(wr: WindioNode, ti: SiteField | null, weibull: SiteWeibull | null): { site?: Site } {
  if (!ti && !weibull) return {};
  return { site: { source: `${wr.file} (wind_resource)`, speedup: null, ti, weibull, shear: null } };
}

/** The rose with its per-bin turbulence intensity, when the bins differ. */
function withBins(wind: WindResource, byBin: Float64Array): WindResource {
  return byBin.every((v) => v === byBin[0]) ? wind : { ...wind, turbulenceIntensityByBin: byBin };
}
