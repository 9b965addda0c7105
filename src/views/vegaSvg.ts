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
