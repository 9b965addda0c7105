/**
 * `wflo plot --by-direction`: farm efficiency against a finely resolved wind direction for one or
 * several layouts on one chart (a benchmark record against another layout). A rose of 16 bins says
 * nothing about the wind between its bins; this curve shows what a layout does there.
 *
 * At every direction θ of the fine grid (every `step` degrees from 0) the wind blows from θ with
 * the speed distribution of the listed bin nearest θ (a time series: of its summary rose's); the
 * farm efficiency at θ is the farm's energy at θ over the energy of its turbines each alone in the
 * same wind (its own models; neighbours, when the farm has them, wake it but are not counted).
 * The layouts' listed bins are marked on the chart. Vega-Lite → SVG (vegaSvg.ts), PNG from that SVG.
 */
import path from 'node:path';
import { InputError } from '../util/errors.js';
import type { Case } from '../case/case.js';
import type { WindResource } from '../physics/windResource.js';
import { createFarmEvaluator } from '../physics/aep.js';
import { caseEvaluator, caseTypeOf } from '../optimize/caseEvaluator.js';
import { caseListedWind } from '../optimize/caseDirections.js';
import { resolvePlotSource, type PlotSourceRequest } from './plotSource.js';
import type { LayoutPlotInput } from './layoutSvg.js';
import { vegaLiteToSvg, type VegaLiteSpec } from './vegaSvg.js';
import { svgToPng } from './svgToPng.js';
import { writeOutputFile } from './outputFile.js';

/** Default and limits of the direction step, degrees. */
export const DEFAULT_DIRECTION_STEP = 0.5;
const MIN_STEP = 0.05;

export interface DirectionCurve {
  title: string;
  directionsDeg: Float64Array;
  /** Farm efficiency at each direction (0–1). */
  efficiency: Float64Array;
  /** The listed bins of the layout's wind (none for a time series). */
  binsDeg: number[];
}

/** The wind from every direction of the fine grid, each with the speed distribution of the nearest listed bin (mass 1/m each). */
export function fineDirectionWind(listed: WindResource, stepDeg: number): WindResource {
  const m = Math.round(360 / stepDeg);
  const ns = listed.speeds.length,
    nd = listed.directionsDeg.length;
  const directionsDeg = Float64Array.from({ length: m }, (_, k) => k * stepDeg);
  const probability = new Float64Array(m * ns);
  const ti = listed.turbulenceIntensityByBin ? new Float64Array(m * ns) : undefined;
  for (let k = 0; k < m; k++) {
    let best = 0,
      bestGap = Infinity;
    for (let d = 0; d < nd; d++) {
      const gap = Math.abs(((directionsDeg[k] - listed.directionsDeg[d] + 540) % 360) - 180);
      if (gap < bestGap) {
        bestGap = gap;
        best = d;
      }
    }
    let total = 0;
    for (let s = 0; s < ns; s++) total += listed.probability[best * ns + s];
    for (let s = 0; s < ns; s++) {
      probability[k * ns + s] = (total > 0 ? listed.probability[best * ns + s] / total : 1 / ns) / m;
      if (ti) ti[k * ns + s] = listed.turbulenceIntensityByBin![best * ns + s];
    }
  }
  const { series: _series, ...rest } = listed;
  return { ...rest, directionsDeg, probability, ...(ti ? { turbulenceIntensityByBin: ti } : {}) };
}

/** The efficiency curve of one layout. */
export function directionCurve(input: LayoutPlotInput, stepDeg: number): DirectionCurve {
  const site = input.site as Case;
  const listed = caseListedWind(site);
  const wind = fineDirectionWind(listed, stepDeg);
  const c: Case = { ...site, wind, directions: undefined, nTurbines: input.x.length } as Case;
  const farm = caseEvaluator(c, c.model, input.typeOf).aep(input.x, input.y).perDirectionMwh;
  // Each turbine alone in the same wind: one lone evaluation per model, times its count.
  const types = site.turbines ? site.turbines.types : [site.turbine];
  const typeOf = input.typeOf ?? caseTypeOf({ turbines: site.turbines, nTurbines: input.x.length });
  const alone = new Float64Array(wind.directionsDeg.length);
  types.forEach((t, k) => {
    const count = typeOf.filter((v) => v === k).length;
    if (count === 0) return;
    const lone = createFarmEvaluator(t, wind, site.model).aep(new Float64Array(1), new Float64Array(1)).perDirectionMwh;
    for (let i = 0; i < alone.length; i++) alone[i] += count * lone[i];
  });
  const efficiency = Float64Array.from(farm, (e, i) => (alone[i] > 0 ? e / alone[i] : NaN));
  return { title: input.title, directionsDeg: wind.directionsDeg, efficiency, binsDeg: listed.series ? [] : Array.from(listed.directionsDeg) };
}

/** The Vega-Lite chart of the curves: one line per layout, the listed bins as light rules. */
export function directionCurveSpec(curves: DirectionCurve[], width: number, height: number): VegaLiteSpec {
  const values = curves.flatMap((cv) =>
    Array.from(cv.directionsDeg, (d, i) => ({ layout: cv.title, direction: d, efficiency: 100 * cv.efficiency[i] })).filter((v) =>
      Number.isFinite(v.efficiency),
    ),
  );
  const bins = [...new Set(curves.flatMap((cv) => cv.binsDeg))].sort((a, b) => a - b).map((d) => ({ bin: d }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width,
    height,
    background: '#ffffff',
    title: { text: 'Farm efficiency by wind direction', subtitle: 'grey rules: the directions the wind rose lists (its bins)' },
    layer: [
      ...(bins.length > 0 && bins.length <= 360
        ? [
            {
              data: { values: bins },
              mark: { type: 'rule' as const, color: '#d0d0d0', strokeWidth: 1 },
              encoding: { x: { field: 'bin', type: 'quantitative' as const } },
            },
          ]
        : []),
      {
        data: { values },
        mark: { type: 'line' as const, strokeWidth: 1.4, interpolate: 'linear' as const },
        encoding: {
          x: {
            field: 'direction',
            type: 'quantitative' as const,
            title: 'wind direction (degrees from north)',
            scale: { domain: [0, 360], nice: false },
            axis: { values: Array.from({ length: 9 }, (_, k) => k * 45) },
          },
          y: { field: 'efficiency', type: 'quantitative' as const, title: 'farm efficiency (%)', scale: { zero: false } },
          color: {
            field: 'layout',
            type: 'nominal' as const,
            title: null,
            legend: { orient: 'bottom' as const, direction: 'vertical' as const, labelLimit: 800 },
          },
        },
      },
    ],
  } as VegaLiteSpec;
}

export interface DirectionPlotRequest extends Omit<PlotSourceRequest, 'source'> {
  sources: string[];
  stepDeg?: number;
  output: string;
  width?: number;
  height?: number;
}

export interface DirectionPlotSummary {
  file: string;
  format: 'svg' | 'png';
  step_deg: number;
  layouts: {
    title: string;
    n_turbines: number;
    mean_efficiency: number;
    min_efficiency: number;
    min_at_deg: number;
    max_efficiency: number;
    max_at_deg: number;
  }[];
}

export async function plotByDirection(req: DirectionPlotRequest): Promise<DirectionPlotSummary> {
  const ext = path.extname(req.output).toLowerCase();
  if (ext !== '.svg' && ext !== '.png') throw new InputError(`-o ${req.output}: expected a .svg or .png file name`);
  const step = req.stepDeg ?? DEFAULT_DIRECTION_STEP;
  if (!(step >= MIN_STEP && step <= 45) || Math.abs(360 / step - Math.round(360 / step)) > 1e-9 * (360 / step)) {
    throw new InputError(`--by-direction: expected a step in degrees from ${MIN_STEP} to 45 that divides 360, got ${step}`);
  }
  const width = req.width ?? 820,
    height = req.height ?? 420;
  if (!(width >= 100 && width <= 10000) || !(height >= 100 && height <= 10000))
    throw new InputError(`--width/--height: expected 100 to 10000 pixels, got ${width} × ${height}`);
  const inputs: LayoutPlotInput[] = [];
  for (const [k, source] of req.sources.entries()) {
    // --task/--compare belong to the first source (a campaign folder or layouts.h5).
    inputs.push(...(await resolvePlotSource({ ...req, source, ...(k > 0 ? { task: undefined, compare: undefined } : {}) })));
  }
  const curves = inputs.map((i) => directionCurve(i, step));
  const svg = await vegaLiteToSvg(directionCurveSpec(curves, width, height));
  writeOutputFile(req.output, ext === '.png' ? svgToPng(svg) : svg);
  return {
    file: req.output,
    format: ext === '.png' ? 'png' : 'svg',
    step_deg: step,
    layouts: curves.map((cv, k) => {
      let lo = 0,
        hi = 0,
        sum = 0,
        n = 0;
      cv.efficiency.forEach((e, i) => {
        if (!Number.isFinite(e)) return;
        if (e < cv.efficiency[lo] || !Number.isFinite(cv.efficiency[lo])) lo = i;
        if (e > cv.efficiency[hi] || !Number.isFinite(cv.efficiency[hi])) hi = i;
        sum += e;
        n++;
      });
      return {
        title: cv.title,
        n_turbines: inputs[k].x.length,
        mean_efficiency: sum / n,
        min_efficiency: cv.efficiency[lo],
        min_at_deg: cv.directionsDeg[lo],
        max_efficiency: cv.efficiency[hi],
        max_at_deg: cv.directionsDeg[hi],
      };
    }),
  };
}
