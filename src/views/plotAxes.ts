/**
 * Axes of the layout map: a frame around the drawn extent, outward ticks at "nice" positions
 * (1, 2, 2.5 or 5 × 10^k), tick labels and axis titles, in metres, or in kilometres when the
 * larger side spans 5 km or more. x is east, y north, one scale for both (the map is not
 * stretched), so distances read the same along either axis.
 */
import { escapeXml, px } from './svgMarkup.js';
import type { PlotStyle } from './plotStyle.js';

/** Tick positions covering [lo, hi], about `target` of them. */
export function niceTicks(lo: number, hi: number, target: number): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, target);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/** A tick label: grouped digits, a true minus sign, at most the decimals the step needs. */
export function tickLabel(v: number, step: number): string {
  // As many decimals as the step has (2.5 → 1, 0.25 → 2), at most 3.
  let decimals = 0;
  while (decimals < 3 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-9 * 10 ** decimals) decimals++;
  const s = Math.abs(v).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return v < 0 ? `\u2212${s}` : s;
}

export interface MapFrame {
  /** Screen rectangle of the map. */
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** Data (metres) at the frame's edges. */
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

export interface AxesParts {
  /** Light grid lines (drawn under the site). */
  grid: string;
  /** Frame, ticks, labels and titles (drawn over everything in the map). */
  axes: string;
}

/** Metres per axis unit: km (1000) when the site's larger side spans 5 km or more, else m (1). */
export function axisUnit(spanX: number, spanY: number): 1 | 1000 {
  return Math.max(spanX, spanY) >= 5000 ? 1000 : 1;
}

export function mapAxes(f: MapFrame, style: PlotStyle, options: { grid: boolean; compact: boolean; unit: 1 | 1000 }): AxesParts {
  const spanX = f.maxX - f.minX,
    spanY = f.maxY - f.minY;
  const unit = options.unit;
  const km = unit === 1000;
  const widthPx = f.right - f.left,
    heightPx = f.bottom - f.top;
  const xTicks = niceTicks(f.minX / unit, f.maxX / unit, Math.max(2, Math.min(8, Math.round(widthPx / 90))));
  const yTicks = niceTicks(f.minY / unit, f.maxY / unit, Math.max(2, Math.min(8, Math.round(heightPx / 70))));
  const sx = (v: number) => f.left + ((v * unit - f.minX) / spanX) * widthPx;
  const sy = (v: number) => f.bottom - ((v * unit - f.minY) / spanY) * heightPx;
  const stepOf = (t: number[]) => (t.length > 1 ? t[1] - t[0] : 1);
  const fs = options.compact ? style.font.tick - 1 : style.font.tick;
  const grid: string[] = [];
  const out: string[] = [`<g class="axes" fill="${style.ink}" font-size="${fs}">`];
  out.push(`<rect x="${px(f.left)}" y="${px(f.top)}" width="${px(widthPx)}" height="${px(heightPx)}" fill="none" stroke="${style.ink}" stroke-width="0.8"/>`);
  const tickLen = options.compact ? 3 : 4;
  for (const t of xTicks) {
    const x = sx(t);
    if (x < f.left - 0.01 || x > f.right + 0.01) continue;
    if (options.grid && style.grid) grid.push(`<line x1="${px(x)}" x2="${px(x)}" y1="${px(f.top)}" y2="${px(f.bottom)}"/>`);
    out.push(
      `<line x1="${px(x)}" x2="${px(x)}" y1="${px(f.bottom)}" y2="${px(f.bottom + tickLen)}" stroke="${style.ink}" stroke-width="0.8"/>` +
        `<text class="tick-x" x="${px(x)}" y="${px(f.bottom + tickLen + fs)}" text-anchor="middle">${tickLabel(t, stepOf(xTicks))}</text>`,
    );
  }
  for (const t of yTicks) {
    const y = sy(t);
    if (y < f.top - 0.01 || y > f.bottom + 0.01) continue;
    if (options.grid && style.grid) grid.push(`<line x1="${px(f.left)}" x2="${px(f.right)}" y1="${px(y)}" y2="${px(y)}"/>`);
    out.push(
      `<line x1="${px(f.left - tickLen)}" x2="${px(f.left)}" y1="${px(y)}" y2="${px(y)}" stroke="${style.ink}" stroke-width="0.8"/>` +
        `<text class="tick-y" x="${px(f.left - tickLen - 2)}" y="${px(y + fs * 0.35)}" text-anchor="end">${tickLabel(t, stepOf(yTicks))}</text>`,
    );
  }
  const unitLabel = km ? 'km' : 'm';
  const ls = options.compact ? style.font.label - 1 : style.font.label;
  out.push(
    `<text class="axis-title" x="${px((f.left + f.right) / 2)}" y="${px(f.bottom + tickLen + fs + ls + 4)}" font-size="${ls}" text-anchor="middle">${escapeXml(`x (${unitLabel}, east)`)}</text>`,
  );
  const yTitleX = f.left - tickLen - 6 - yLabelWidth(yTicks, stepOf(yTicks), fs) - 4;
  out.push(
    `<text class="axis-title" transform="translate(${px(yTitleX)},${px((f.top + f.bottom) / 2)}) rotate(-90)" font-size="${ls}" text-anchor="middle">${escapeXml(`y (${unitLabel}, north)`)}</text>`,
  );
  out.push('</g>');
  return {
    grid: grid.length > 0 ? `<g class="grid" stroke="${style.grid}" stroke-width="0.7">${grid.join('')}</g>` : '',
    axes: out.join(''),
  };
}

/** Width of the widest y tick label, estimated from its characters (no text measuring in Node). */
function yLabelWidth(ticks: number[], step: number, fontSize: number): number {
  return Math.max(...ticks.map((t) => tickLabel(t, step).length)) * fontSize * 0.58;
}

/** Room the axes need outside the frame: left (y labels + title) and bottom (x labels + title). */
export function axesMargins(style: PlotStyle, compact: boolean, yLabelChars = 6): { left: number; bottom: number } {
  const fs = compact ? style.font.tick - 1 : style.font.tick;
  const ls = compact ? style.font.label - 1 : style.font.label;
  return { left: (compact ? 3 : 4) + 6 + yLabelChars * fs * 0.58 + 4 + ls + 2, bottom: (compact ? 3 : 4) + fs + ls + 10 };
}
