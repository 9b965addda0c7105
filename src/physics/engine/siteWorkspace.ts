/**
 * The site's part of the waked workspace (engine/workspace.ts): by position, each turbine's local
 * free stream and ambient TI for the condition being solved, their adjoints and the gradient
 * through the fields (filled and read by engine/siteWork.ts). Its own file so that the workspace
 * does not import the pass.
 */
import { createSiteSamples, type SiteSamples } from '../site/site.js';

export interface SiteWork {
  samples: SiteSamples;
  /** By position, for the condition being solved: U_p, TI₀_p, TI₀_p^c₂ (the added-turbulence screen's factor). */
  uFree: Float64Array;
  tiAmb: Float64Array;
  tiFac: Float64Array;
  /** Adjoint of U_q as the free-stream deficit reference (written by the reverse pass). */
  refBar: Float64Array;
  tiAmbBar: Float64Array;
  /** A per-point Weibull site: each turbine's probability of the condition, its ∂/∂x, ∂/∂y, and ∂J/∂P (the objective term's). */
  prob: Float64Array;
  probDx: Float64Array;
  probDy: Float64Array;
  probBar: Float64Array;
  /** The direction's gradient through the fields, layout frame, by position; gsh: with respect to the turbine's hub height (through the shear and a field's h). */
  gsx: Float64Array;
  gsy: Float64Array;
  gsh: Float64Array;
}

export function createSiteWork(n: number): SiteWork {
  const f = () => new Float64Array(n);
  return {
    samples: createSiteSamples(n),
    uFree: f(),
    tiAmb: f(),
    tiFac: f(),
    refBar: f(),
    tiAmbBar: f(),
    prob: f(),
    probDx: f(),
    probDy: f(),
    probBar: f(),
    gsx: f(),
    gsy: f(),
    gsh: f(),
  };
}
