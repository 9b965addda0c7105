/**
 * What the site tests share (siteFields, siteWeibull, siteHubGradient, siteNative, hubNative): a
 * PyWake site reference case by file name, a lighter rose of every `step`-th direction, an (x, y)
 * field given an h dimension, and the central difference step. On a site the step is 1e-4 m, not gradientCheck.ts's 1e-3: a speed-up makes
 * free-stream speeds non-integer, so a node of the power table (a kink of the AEP) can lie within a
 * millimetre of a turbine (measured on site-speedup-bastankhah2014, 12 directions, turbine 3's
 * ∂AEP/∂x: one-sided differences 7.34467 and 7.34764 at 1e-3 m, 7.344373 and 7.344307 at 1e-4 m,
 * exact 7.344340).
 */
import path from 'node:path';
import { PYWAKE_REFERENCE } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import type { WindResource } from '../../src/physics/windResource.js';
import { makeSiteField, type SiteField } from '../../src/physics/site/siteField.js';

export const SITE_STEP = 1e-4;

/** The reference case test/data/reference/<file>. */
export function loadSiteReference(file: string): ReturnType<typeof caseFromReferenceDocument> {
  const full = path.join(PYWAKE_REFERENCE, file);
  return caseFromReferenceDocument(readYamlFile(full), full);
}

/**
 * Every `step`-th direction of the rose; its probabilities renormalised, or (`renormalise` false)
 * kept as they are: a per-point Weibull site forms its own from the bin width of what is left.
 */
export function thinRose(wind: WindResource, step: number, renormalise = true): WindResource {
  const nS = wind.speeds.length;
  const dirs: number[] = [],
    p: number[] = [];
  for (let d = 0; d < wind.directionsDeg.length; d += step) {
    dirs.push(wind.directionsDeg[d]);
    for (let s = 0; s < nS; s++) p.push(wind.probability[d * nS + s]);
  }
  const sum = renormalise ? p.reduce((a, b) => a + b, 0) : 1;
  return { ...wind, directionsDeg: Float64Array.from(dirs), probability: Float64Array.from(p, (v) => v / sum) };
}

/** An (x, y) field given an h dimension: value(x, y) · factor(h) on the h grid. */
export function overHeight(f: SiteField, h: number[], factor: number[]): SiteField {
  if (f.dims.length !== 2 || f.dims[0] !== 'x' || f.dims[1] !== 'y') throw new Error(`overHeight: an (x, y) field, not (${f.dims.join(', ')})`);
  const nx = f.coords[0].length,
    ny = f.coords[1].length,
    nh = h.length;
  const v = new Float64Array(nx * ny * nh);
  for (let i = 0; i < nx * ny; i++) for (let k = 0; k < nh; k++) v[i * nh + k] = f.values[i] * factor[k];
  return makeSiteField(f.name, ['x', 'y', 'h'], [f.coords[0], f.coords[1], Float64Array.from(h)], v);
}
