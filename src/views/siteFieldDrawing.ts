/**
 * A site's field (physics/site/: the speed-up or the ambient TI, docs/site.md) drawn under the
 * layout: an embedded PNG raster over the map frame (nx × ny cells, light low → dark high) and a
 * key row with its range and unit. Each cell is the field at the cell's centre, at the hub height
 * of the farm's (first) turbine model and, for a field by direction, at one wind direction (the
 * rose's most probable one unless given). Outside the field's grid a cell is grey: the field gives
 * no value there (the layout plot shows where the grid ends; `outside: limit` would hold the edge).
 * The <image> carries data-field, data-min, data-max (and data-wd) for tests and readers.
 */
import type { Site } from '../physics/site/site.js';
import { sampleField, type FieldSample, type SiteField } from '../physics/site/siteField.js';
import type { WindResource } from '../physics/windResource.js';
import { rampColor, rgbHex, type Rgb } from './colorScale.js';
import { encodeRgbPng } from './pngEncode.js';
import { grouped, px } from './svgMarkup.js';

/** Light yellow (low) → dark green (high). */
export const SITE_RAMP: readonly Rgb[] = [
  [255, 255, 229],
  [217, 240, 163],
  [120, 198, 121],
  [35, 132, 67],
  [0, 69, 41],
];
/** Cells outside the field's grid. */
export const OUTSIDE_GRID: Rgb = [224, 224, 224];

export type SiteFieldChoice = 'speedup' | 'ti' | 'none';
export const SITE_FIELD_CHOICES: readonly SiteFieldChoice[] = ['speedup', 'ti', 'none'];

/** The field to draw: the one asked for, else the speed-up, else the TI; null when the site has no such field or it is one value everywhere. */
export function siteFieldToDraw(site: Site | undefined, choice: SiteFieldChoice | undefined): SiteField | null {
  if (!site || choice === 'none') return null;
  const field = choice === 'ti' ? site.ti : choice === 'speedup' ? site.speedup : (site.speedup ?? site.ti);
  return field && field.dims.includes('x') && field.dims.includes('y') ? field : null;
}

/** The rose's most probable direction (degrees), where a field by direction is drawn by default. */
export function mostProbableDirection(wind: WindResource): number {
  const ns = wind.speeds.length;
  let best = 0,
    bestP = -Infinity;
  for (let d = 0; d < wind.directionsDeg.length; d++) {
    let p = 0;
    for (let s = 0; s < ns; s++) p += wind.probability[d * ns + s];
    if (p > bestP) {
      bestP = p;
      best = d;
    }
  }
  return wind.directionsDeg[best];
}

export interface SiteRaster {
  svg: string;
  field: string;
  min: number;
  max: number;
  wdDeg: number | null;
}

export function siteRasterSvg(
  field: SiteField,
  hubHeight: number,
  wdDeg: number,
  frame: { left: number; top: number; minX: number; maxX: number; minY: number; maxY: number },
  width: number,
  height: number,
  nx: number,
  ny: number,
): SiteRaster | null {
  const values = new Float64Array(nx * ny).fill(NaN);
  const sample: FieldSample = { value: 0, dx: 0, dy: 0 };
  let lo = Infinity,
    hi = -Infinity;
  for (let r = 0; r < ny; r++) {
    const wy = frame.maxY - ((r + 0.5) / ny) * (frame.maxY - frame.minY);
    for (let c = 0; c < nx; c++) {
      const wx = frame.minX + ((c + 0.5) / nx) * (frame.maxX - frame.minX);
      if (sampleField(field, wx, wy, hubHeight, wdDeg, sample) !== null) continue;
      values[r * nx + c] = sample.value;
      lo = Math.min(lo, sample.value);
      hi = Math.max(hi, sample.value);
    }
  }
  if (!(hi >= lo)) return null; // no cell inside the grid
  const rgb = new Uint8Array(nx * ny * 3);
  for (let k = 0; k < nx * ny; k++) {
    const c = Number.isNaN(values[k]) ? OUTSIDE_GRID : rampColor(SITE_RAMP, hi > lo ? (values[k] - lo) / (hi - lo) : 0.5);
    rgb[3 * k] = c[0];
    rgb[3 * k + 1] = c[1];
    rgb[3 * k + 2] = c[2];
  }
  const png = encodeRgbPng(nx, ny, rgb).toString('base64');
  const byWd = field.dims.includes('wd');
  return {
    svg: `<image class="site-field" data-field="${field.name}" data-min="${lo}" data-max="${hi}"${byWd ? ` data-wd="${wdDeg}"` : ''} x="${px(frame.left)}" y="${px(frame.top)}" width="${px(width)}" height="${px(height)}" opacity="0.85" preserveAspectRatio="none" href="data:image/png;base64,${png}"/>`,
    field: field.name,
    min: lo,
    max: hi,
    wdDeg: byWd ? wdDeg : null,
  };
}

/** The key row of the site raster: a small ramp, the field, its range and unit. */
export function siteKeyRow(id: string, r: SiteRaster): { defs: string; symbol: string; label: string } {
  const stops = SITE_RAMP.map((c, i) => `<stop offset="${i / (SITE_RAMP.length - 1)}" stop-color="${rgbHex(c)}"/>`).join('');
  const at = r.wdDeg !== null ? ` (wind from ${r.wdDeg}°)` : '';
  const label =
    r.field === 'ti'
      ? `ambient TI ${grouped(r.min * 100, 1)}–${grouped(r.max * 100, 1)} %${at}`
      : `speed-up ${r.min.toFixed(3)}–${r.max.toFixed(3)} × rose speed${at}`;
  return {
    defs: `<linearGradient id="${id}-sitefield" x1="0" y1="0" x2="1" y2="0">${stops}</linearGradient>`,
    symbol: `<rect x="0" y="-5" width="18" height="10" fill="url(#${id}-sitefield)" stroke="#888888" stroke-width="0.5"/>`,
    label,
  };
}
