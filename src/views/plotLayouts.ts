/**
 * `wflo plot`: resolve the source, draw one layout (or several side by side with --compare, on
 * a shared wake-loss colour scale), write SVG, or PNG rendered from the same SVG.
 */
import path from 'node:path';
import { InputError } from '../util/errors.js';
import { layoutSvg, PLOT_FONT, type LayoutPlot } from './layoutSvg.js';
import { resolvePlotSource, type PlotSourceRequest } from './plotSource.js';
import { svgToPng } from './svgToPng.js';
import { writeOutputFile } from './outputFile.js';
import { nonEmptyRange } from './colorScale.js';
import { turbineYield } from './turbineYield.js';

export interface PlotRequest extends PlotSourceRequest {
  output: string;
  width?: number;
  height?: number;
  flowDirectionDeg?: number;
}

export interface PlotSummary {
  file: string;
  format: 'svg' | 'png';
  width: number;
  height: number;
  layouts: { title: string; nTurbines: number; aepMwh: number; grossAepMwh: number; wakeLoss: number; recordedAepMwh?: number }[];
}

/** The figure as SVG: one layout, or panels side by side. */
export async function plotSvg(req: Omit<PlotRequest, 'output'>): Promise<{ svg: string; plots: LayoutPlot[]; width: number; height: number; titles: string[]; recorded: (number | undefined)[] }> {
  const inputs = await resolvePlotSource(req);
  const panels = inputs.length;
  const width = req.width ?? (panels === 1 ? 900 : Math.min(2400, 620 * panels));
  const height = req.height ?? (panels === 1 ? 720 : 600);
  if (!(width >= 100 && width <= 10000) || !(height >= 100 && height <= 10000)) {
    throw new InputError(`--width/--height: expected 100 to 10000 pixels, got ${width} × ${height}`);
  }
  if (panels === 1) {
    const plot = await layoutSvg(inputs[0], { width, height, flowDirectionDeg: req.flowDirectionDeg });
    return { svg: plot.svg, plots: [plot], width, height, titles: [inputs[0].title], recorded: [inputs[0].recordedAepMwh] };
  }
  // Shared colour scale so the same colour means the same loss in every panel.
  let lo = Infinity, hi = -Infinity;
  for (const input of inputs) {
    for (const l of turbineYield(input.site, input.x, input.y).lossByTurbine) { lo = Math.min(lo, l); hi = Math.max(hi, l); }
  }
  const lossRange = nonEmptyRange(lo, hi);
  const panelW = Math.floor(width / panels);
  const plots: LayoutPlot[] = [];
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${PLOT_FONT}" class="wflo-compare"><rect width="${width}" height="${height}" fill="#ffffff"/>`];
  for (let k = 0; k < panels; k++) {
    const plot = await layoutSvg(inputs[k], { width: panelW, height, flowDirectionDeg: req.flowDirectionDeg, lossRange, idPrefix: `cmp${k}` });
    plots.push(plot);
    parts.push(plot.svg.replace(/^<svg /, `<svg x="${k * panelW}" y="0" `));
  }
  parts.push('</svg>');
  return { svg: parts.join(''), plots, width, height, titles: inputs.map((i) => i.title), recorded: inputs.map((i) => i.recordedAepMwh) };
}

export async function plotLayouts(req: PlotRequest): Promise<PlotSummary> {
  const ext = path.extname(req.output).toLowerCase();
  if (ext !== '.svg' && ext !== '.png') throw new InputError(`-o ${req.output}: expected a .svg or .png file name`);
  const fig = await plotSvg(req);
  writeOutputFile(req.output, ext === '.png' ? svgToPng(fig.svg) : fig.svg);
  return {
    file: req.output, format: ext === '.png' ? 'png' : 'svg', width: fig.width, height: fig.height,
    layouts: fig.plots.map((p, i) => ({
      title: fig.titles[i], nTurbines: p.yield.netByTurbine.length, aepMwh: p.yield.aepMwh, grossAepMwh: p.yield.grossAepMwh, wakeLoss: p.yield.wakeLoss,
      recordedAepMwh: fig.recorded[i],
    })),
  };
}
