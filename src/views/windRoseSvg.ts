/**
 * The wind rose, drawn by hand as SVG: one wedge per rose direction, centred on it (0° = north at
 * the top, clockwise, the direction the wind comes from), stacked outwards by speed class (light
 * = slow, dark = fast), radius proportional to frequency, with rings labelled in percent (the
 * radial scale), N/E/S/W, and a legend of the speed classes. A rose with one speed (IEA37 cs1)
 * has one class. The direction of a flow plot is outlined. A time series is drawn from its binned
 * summary (physics/windSeries.ts: 1° × 0.5 m/s bins weighted by the samples' weights), so its
 * wedges are 10° sectors like any fine rose.
 */
import type { WindResource } from '../physics/windResource.js';
import { niceTicks } from './plotAxes.js';
import { rampColor, rgbHex, type Rgb } from './colorScale.js';
import { escapeXml, px } from './svgMarkup.js';
import type { PlotStyle } from './plotStyle.js';

/** Sequential light → dark blue for speed classes (readable in grey print too). */
export const ROSE_RAMP: readonly Rgb[] = [
  [222, 235, 247],
  [158, 202, 225],
  [66, 146, 198],
  [8, 81, 156],
  [8, 38, 84],
];

export interface SpeedClass {
  lo: number;
  hi: number;
  label: string;
}

/** Speed classes of a rose: one per speed for up to 5 speeds, else equal steps of 1, 2, 2.5, 3, 4, 5, 10 m/s (at most 6 classes). */
export function speedClasses(speeds: Float64Array): SpeedClass[] {
  const sorted = Array.from(speeds).sort((a, b) => a - b);
  const fmt = (v: number) => String(Math.round(v * 100) / 100);
  if (sorted.length <= 5) return sorted.map((s) => ({ lo: s, hi: s, label: `${fmt(s)} m/s` }));
  const max = sorted[sorted.length - 1];
  const step = [1, 2, 2.5, 3, 4, 5, 10, 20].find((s) => Math.ceil((max + 1e-9) / s) <= 6) ?? 50;
  const n = Math.ceil((max + 1e-9) / step);
  return Array.from({ length: n }, (_, k) => ({
    lo: k * step,
    hi: (k + 1) * step,
    label: k === n - 1 ? `≥ ${fmt(k * step)} m/s` : `${fmt(k * step)}–${fmt((k + 1) * step)} m/s`,
  }));
}

function classOf(classes: SpeedClass[], speed: number): number {
  if (classes[0].lo === classes[0].hi) return classes.findIndex((c) => c.lo === speed);
  const k = classes.findIndex((c) => speed >= c.lo && speed < c.hi);
  return k >= 0 ? k : classes.length - 1;
}

export interface RoseData {
  directions: number[];
  /** frequency[d][k]: probability of direction d in speed class k. */
  frequency: number[][];
  classes: SpeedClass[];
}

/** Most wedges drawn: a finer rose (cs4's 360 directions) is shown in 10° sectors, their frequencies summed. */
export const MAX_ROSE_SECTORS = 36;

export function roseData(wind: WindResource): RoseData {
  const nd = wind.directionsDeg.length,
    ns = wind.speeds.length;
  const classes = speedClasses(wind.speeds);
  const sectors = nd > MAX_ROSE_SECTORS ? MAX_ROSE_SECTORS : 0;
  const width = 360 / MAX_ROSE_SECTORS;
  const byKey = new Map<number, number[]>();
  for (let d = 0; d < nd; d++) {
    const dir = wind.directionsDeg[d];
    // Sector centred on a multiple of 10°: [c − 5°, c + 5°).
    const key = sectors ? Math.floor((((dir % 360) + 360 + width / 2) % 360) / width) * width : dir;
    let f = byKey.get(key);
    if (!f) {
      f = new Array<number>(classes.length).fill(0);
      byKey.set(key, f);
    }
    for (let s = 0; s < ns; s++) f[classOf(classes, wind.speeds[s])] += wind.probability[d * ns + s];
  }
  const rows = [...byKey.entries()].sort((a, b) => a[0] - b[0]);
  return { directions: rows.map((r) => r[0]), frequency: rows.map((r) => r[1]), classes };
}

function wedge(cx: number, cy: number, r0: number, r1: number, a0: number, a1: number): string {
  // Bearings in degrees clockwise from north; screen y grows downwards.
  const pt = (r: number, a: number) => `${px(cx + r * Math.sin((a * Math.PI) / 180))},${px(cy - r * Math.cos((a * Math.PI) / 180))}`;
  const large = a1 - a0 > 180 ? 1 : 0;
  if (r0 <= 0) return `M${px(cx)},${px(cy)}L${pt(r1, a0)}A${px(r1)},${px(r1)} 0 ${large} 1 ${pt(r1, a1)}Z`;
  return `M${pt(r0, a0)}L${pt(r1, a0)}A${px(r1)},${px(r1)} 0 ${large} 1 ${pt(r1, a1)}L${pt(r0, a1)}A${px(r0)},${px(r0)} 0 ${large} 0 ${pt(r0, a0)}Z`;
}

export interface RoseOptions {
  /** Centre and radius of the rose (the outermost ring), user units. */
  cx: number;
  cy: number;
  radius: number;
  style: PlotStyle;
  /** Outline the wedge of the direction nearest to this one (the flow plot's). */
  highlightDeg?: number;
}

/** The rose (wedges, rings with % labels, compass letters). */
export function windRoseSvg(wind: WindResource, o: RoseOptions): string {
  const data = roseData(wind);
  const nd = data.directions.length;
  const totals = data.frequency.map((f) => f.reduce((a, b) => a + b, 0));
  const maxTotal = Math.max(...totals, 1e-12);
  // At least two labelled rings inside the largest wedge's reach.
  let rings: number[] = [];
  for (let target = 3; target <= 8 && rings.length < 2; target++) rings = niceTicks(0, maxTotal * 100, target).filter((v) => v > 0);
  const outer = Math.max(rings[rings.length - 1] ?? maxTotal * 100, maxTotal * 100);
  const r = (fraction: number) => ((fraction * 100) / outer) * o.radius;
  const half = 180 / Math.max(1, nd);
  const gap = nd <= 36 ? half * 0.12 : 0;
  const colours = data.classes.map((_, k) => rgbHex(rampColor(ROSE_RAMP, data.classes.length === 1 ? 0.62 : k / (data.classes.length - 1))));
  const s = o.style;
  const samples = wind.series ? ` data-samples="${wind.series.speeds.length}"` : '';
  const out: string[] = [`<g class="windrose" data-directions="${nd}" data-speed-classes="${data.classes.length}"${samples}>`];
  out.push(
    `<circle cx="${px(o.cx)}" cy="${px(o.cy)}" r="${px(o.radius)}" fill="${s.name === 'paper' ? 'none' : '#f7f9fb'}" stroke="${s.muted}" stroke-width="0.6"/>`,
  );
  const wedges: string[] = [];
  data.directions.forEach((dir, d) => {
    let acc = 0;
    data.frequency[d].forEach((f, k) => {
      if (!(f > 0)) return;
      wedges.push(`<path d="${wedge(o.cx, o.cy, r(acc), r(acc + f), dir - half + gap, dir + half - gap)}" fill="${colours[k]}"/>`);
      acc += f;
    });
  });
  out.push(`<g class="wedges" stroke="${s.name === 'paper' ? '#ffffff' : '#ffffff'}" stroke-width="${nd <= 36 ? 0.4 : 0}">${wedges.join('')}</g>`);
  if (o.highlightDeg !== undefined) {
    let best = 0;
    data.directions.forEach((dir, d) => {
      const gapTo = (a: number) => Math.abs(((a - o.highlightDeg! + 540) % 360) - 180);
      if (gapTo(dir) < gapTo(data.directions[best])) best = d;
    });
    const dir = data.directions[best];
    out.push(
      `<path class="highlight" d="${wedge(o.cx, o.cy, 0, Math.max(r(totals[best]), o.radius * 0.15), dir - half, dir + half)}" fill="none" stroke="${s.ink}" stroke-width="1.6"/>`,
    );
  }
  // Rings and their labels (along the bearing between the two quietest quadrant diagonals).
  const labelBearing = [45, 135, 225, 315].reduce((b, a) => (sectorTotal(data, a) < sectorTotal(data, b) ? a : b), 135);
  const rs = s.font.tick - 1.5;
  for (const v of rings) {
    const rr = (v / outer) * o.radius;
    out.push(
      `<circle class="ring" cx="${px(o.cx)}" cy="${px(o.cy)}" r="${px(rr)}" fill="none" stroke="${s.muted}" stroke-width="0.5" stroke-dasharray="2 2"/>`,
    );
    const lx = o.cx + rr * Math.sin((labelBearing * Math.PI) / 180),
      ly = o.cy - rr * Math.cos((labelBearing * Math.PI) / 180);
    out.push(
      `<text class="ring-label" x="${px(lx)}" y="${px(ly + rs * 0.35)}" font-size="${rs}" text-anchor="middle" fill="${s.ink}" stroke="#ffffff" stroke-width="2.2" paint-order="stroke">${formatPercent(v)} %</text>`,
    );
  }
  const fs = s.font.tick;
  for (const [label, ux, uy] of [
    ['N', 0, -1],
    ['E', 1, 0],
    ['S', 0, 1],
    ['W', -1, 0],
  ] as const) {
    out.push(
      `<text x="${px(o.cx + ux * (o.radius + fs * 0.8))}" y="${px(o.cy + uy * (o.radius + fs * 0.8) + fs * 0.35)}" font-size="${fs}" text-anchor="middle" fill="${s.muted}">${label}</text>`,
    );
  }
  out.push('</g>');
  return out.join('');
}

/** Legend of the speed classes (colour swatch + label per class), `rowHeight` apart. */
export function roseLegendSvg(
  wind: WindResource,
  x: number,
  y: number,
  rowHeight: number,
  columns: number,
  columnWidth: number,
  style: PlotStyle,
): { svg: string; height: number } {
  const classes = speedClasses(wind.speeds);
  const colours = classes.map((_, k) => rgbHex(rampColor(ROSE_RAMP, classes.length === 1 ? 0.62 : k / (classes.length - 1))));
  const rows = Math.ceil(classes.length / columns);
  const items = classes.map((c, k) => {
    const cx = x + Math.floor(k / rows) * columnWidth,
      cy = y + (k % rows) * rowHeight;
    return `<rect x="${px(cx)}" y="${px(cy - 7)}" width="10" height="9" fill="${colours[k]}" stroke="${style.muted}" stroke-width="0.4"/><text x="${px(cx + 14)}" y="${px(cy + 1)}">${escapeXml(c.label)}</text>`;
  });
  return { svg: `<g class="rose-legend" font-size="${style.font.tick - 0.5}" fill="${style.ink}">${items.join('')}</g>`, height: rows * rowHeight };
}

function sectorTotal(data: RoseData, bearing: number): number {
  let t = 0;
  data.directions.forEach((dir, d) => {
    if (Math.abs(((dir - bearing + 540) % 360) - 180) <= 45) t += data.frequency[d].reduce((a, b) => a + b, 0);
  });
  return t;
}

function formatPercent(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}
