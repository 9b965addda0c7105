/**
 * Vega-Lite → SVG in Node, without a browser: compile the Vega-Lite spec to Vega and render it
 * headless (`renderer: 'none'`, View.toSVG). The page renders the same specs interactively.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export type VegaLiteSpec = TopLevelSpec;

export async function vegaLiteToSvg(spec: VegaLiteSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * An SVG document re-opened as a nested `<svg>` element placed at (x, y) with the given size,
 * for embedding a chart inside a hand-drawn SVG.
 */
export function nestSvg(svg: string, x: number, y: number, width: number, height: number): string {
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) return '';
  const viewBox = /viewBox="([^"]+)"/.exec(open[0])?.[1];
  const w = /\swidth="([\d.]+)"/.exec(open[0])?.[1], h = /\sheight="([\d.]+)"/.exec(open[0])?.[1];
  const box = viewBox ?? `0 0 ${w ?? width} ${h ?? height}`;
  return `<svg x="${x}" y="${y}" width="${width}" height="${height}" viewBox="${box}" preserveAspectRatio="xMidYMid meet">${svg.slice(open[0].length)}`;
}
