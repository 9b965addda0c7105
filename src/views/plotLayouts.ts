/**
 * `wflo plot`: resolve the source, draw one layout (or several side by side with --compare, on
 * a shared wake-loss colour scale), in the screen or the paper style (plotStyle.ts); write SVG, or
 * PNG rendered from the same SVG (paper: at 300 dpi of its size in millimetres).
 */
import path from 'node:path';
import { InputError } from '../util/errors.js';
import { layoutSvg, PLOT_FONT, type LayoutPlot, type LayoutPlotInput } from './layoutSvg.js';
import { resolvePlotSource, type PlotSourceRequest } from './plotSource.js';
import { svgToPng } from './svgToPng.js';
import { writeOutputFile } from './outputFile.js';
import { nonEmptyRange } from './colorScale.js';
import { turbineYield } from './turbineYield.js';
import { economicsDrawing } from './economicsDrawing.js';
import type { Case } from '../case/case.js';
import { SITE_FIELD_CHOICES, type SiteFieldChoice } from './siteFieldDrawing.js';
import { nearestKey } from '../io/didYouMean.js';
import { PLOT_STYLE_NAMES, PLOT_STYLES, withPhysicalSize, type PlotStyleName } from './plotStyle.js';

export interface PlotRequest extends PlotSourceRequest {
  output: string;
  width?: number;
  height?: number;
  flowDirectionDeg?: number;
  style?: string;
  /** Number the turbines (their index in the layout). */
  numbers?: boolean;
  /** A site that is not uniform: the field drawn under the layout (`--site-field speedup|ti|none`; default speedup, else ti). */
  siteField?: string;
  /** The wind direction a field by direction is drawn at (`--site-wd`; default the rose's most probable). */
  siteWdDeg?: number;
}

export interface PlotSummary {
  file: string;
  format: 'svg' | 'png';
  width: number;
  height: number;
  layouts: {
    title: string;
    nTurbines: number;
    aepMwh: number;
    grossAepMwh: number;
    wakeLoss: number;
    recordedAepMwh?: number;
    /** The figures the source records, with their currency ("LCOE 64.80 €/MWh · NPV −18.71 M€"). */
    economics?: string;
    /** The network drawn: stored with the layout or routed for the plot, its length and cost (currency). */
    cables?: { origin: 'stored' | 'routed'; edges: number; lengthM: number; cost: number; currency: string; note?: string };
  }[];
}

/** The figure as SVG: one layout, or panels side by side. */
export async function plotSvg(
  req: Omit<PlotRequest, 'output'>,
): Promise<{ svg: string; plots: LayoutPlot[]; width: number; height: number; titles: string[]; recorded: (number | undefined)[]; inputs: LayoutPlotInput[] }> {
  if (req.style !== undefined && !PLOT_STYLE_NAMES.includes(req.style as PlotStyleName)) {
    throw new InputError(`--style: expected ${PLOT_STYLE_NAMES.join(' or ')}, got '${req.style}'`);
  }
  const styleName = (req.style ?? 'screen') as PlotStyleName;
  const style = PLOT_STYLES[styleName];
  if (req.flowDirectionDeg !== undefined && !style.flowAllowed) throw new InputError(`--flow: the ${styleName} style draws no flow field (use --style screen)`);
  if (req.siteField !== undefined && !SITE_FIELD_CHOICES.includes(req.siteField as SiteFieldChoice)) {
    const near = nearestKey(req.siteField, SITE_FIELD_CHOICES);
    throw new InputError(`--site-field: expected ${SITE_FIELD_CHOICES.join(', ')}, got '${req.siteField}'${near ? `; did you mean '${near}'?` : ''}`);
  }
  if (req.siteWdDeg !== undefined && !(req.siteWdDeg >= 0 && req.siteWdDeg <= 360))
    throw new InputError(`--site-wd: expected a wind direction in degrees within [0, 360], got ${req.siteWdDeg}`);
  const siteOptions = { siteField: req.siteField as SiteFieldChoice | undefined, siteWdDeg: req.siteWdDeg };
  // A case with economics (or a result file recording its network) draws its cables, substations and sea floor (economicsDrawing.ts).
  const inputs = (await resolvePlotSource(req)).map((input) => ({
    ...input,
    ...economicsDrawing(input.site as Pick<Case, 'boundary' | 'economics'>, input.x, input.y, input.cableTo, input.cableType, input.network),
  }));
  const panels = inputs.length;
  const width = req.width ?? (panels === 1 ? style.width : Math.min(2400, Math.round(style.width * 0.7) * panels));
  const height = req.height ?? (panels === 1 ? style.height : Math.round(style.height * 0.85));
  if (!(width >= 100 && width <= 10000) || !(height >= 100 && height <= 10000)) {
    throw new InputError(`--width/--height: expected 100 to 10000 pixels, got ${width} × ${height}`);
  }
  if (panels === 1) {
    const plot = await layoutSvg(inputs[0], { width, height, flowDirectionDeg: req.flowDirectionDeg, style: styleName, numbers: req.numbers, ...siteOptions });
    return {
      svg: withPhysicalSize(plot.svg, style, width, height),
      plots: [plot],
      width,
      height,
      titles: [inputs[0].title],
      recorded: [inputs[0].recordedAepMwh],
      inputs,
    };
  }
  // Shared colour scale so the same colour means the same loss in every panel.
  let lo = Infinity,
    hi = -Infinity;
  for (const input of inputs) {
    for (const l of turbineYield(input.site, input.x, input.y).lossByTurbine) {
      lo = Math.min(lo, l);
      hi = Math.max(hi, l);
    }
  }
  const lossRange = nonEmptyRange(lo, hi);
  const panelW = Math.floor(width / panels);
  const plots: LayoutPlot[] = [];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${PLOT_FONT}" class="wflo-compare"><rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  for (let k = 0; k < panels; k++) {
    const plot = await layoutSvg(inputs[k], {
      width: panelW,
      height,
      flowDirectionDeg: req.flowDirectionDeg,
      lossRange,
      idPrefix: `cmp${k}`,
      style: styleName,
      numbers: req.numbers,
      ...siteOptions,
    });
    plots.push(plot);
    parts.push(plot.svg.replace(/^<svg /, `<svg x="${k * panelW}" y="0" `));
  }
  parts.push('</svg>');
  return {
    svg: withPhysicalSize(parts.join(''), style, width, height),
    plots,
    width,
    height,
    titles: inputs.map((i) => i.title),
    recorded: inputs.map((i) => i.recordedAepMwh),
    inputs,
  };
}

export async function plotLayouts(req: PlotRequest): Promise<PlotSummary> {
  const ext = path.extname(req.output).toLowerCase();
  if (ext !== '.svg' && ext !== '.png') throw new InputError(`-o ${req.output}: expected a .svg or .png file name`);
  const fig = await plotSvg(req);
  const style = PLOT_STYLES[(req.style ?? 'screen') as PlotStyleName];
  // Paper: the SVG is sized in millimetres; its PNG has style.pngDpi pixels per inch of that size.
  const pngWidth = style.mmPerUnit > 0 ? Math.round(((fig.width * style.mmPerUnit) / 25.4) * style.pngDpi) : undefined;
  writeOutputFile(req.output, ext === '.png' ? svgToPng(fig.svg, pngWidth) : fig.svg);
  return {
    file: req.output,
    format: ext === '.png' ? 'png' : 'svg',
    width: pngWidth && ext === '.png' ? pngWidth : fig.width,
    height: pngWidth && ext === '.png' ? Math.round((fig.height * pngWidth) / fig.width) : fig.height,
    layouts: fig.plots.map((p, i) => ({
      title: fig.titles[i],
      nTurbines: p.yield.netByTurbine.length,
      aepMwh: p.yield.aepMwh,
      grossAepMwh: p.yield.grossAepMwh,
      wakeLoss: p.yield.wakeLoss,
      recordedAepMwh: fig.recorded[i],
      ...(fig.inputs[i].economicsLine ? { economics: fig.inputs[i].economicsLine } : {}),
      ...(() => {
        const d = fig.inputs[i].collection;
        return d
          ? {
              cables: {
                origin: d.origin ?? 'routed',
                edges: d.network.edges.length,
                lengthM: d.network.totalLength,
                cost: d.network.totalCost,
                currency: d.currency ?? 'EUR',
                ...(d.note ? { note: d.note } : {}),
              },
            }
          : {};
      })(),
    })),
  };
}
