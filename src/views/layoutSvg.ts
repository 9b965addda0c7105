/**
 * The layout plot, drawn by hand as SVG: the site (boundary, exclusion zones hatched), one
 * dashed circle of radius s/2 around every turbine (s = minimum spacing, so two circles overlap
 * exactly when a pair is too close), the turbines coloured by their wake loss with a colour bar,
 * the wind rose as an inset (Vega-Lite), a north arrow and a scale bar, and a title with AEP,
 * gross AEP and wake loss. With a flow direction, the hub-height speed field of that direction
 * (flowField.ts) is drawn under the turbines as an embedded raster.
 *
 * Turbine markers carry their coordinates in metres (`data-x`, `data-y`) and wake loss
 * (`data-wake-loss`) so tests and scripts can read the plot back.
 */
import type { Case } from '../optimize/case.js';
import type { Boundary, Point } from '../geometry/boundary.js';
import { turbineYield, type TurbineYield } from './turbineYield.js';
import { flowField } from './flowField.js';
import { encodeRgbPng } from './pngEncode.js';
import { nonEmptyRange, rampColor, rgbHex, SPEED_RAMP, WAKE_LOSS_RAMP } from './colorScale.js';
import { escapeXml, grouped, percent, px } from './svgMarkup.js';
import { nestSvg, vegaLiteToSvg } from './vegaSvg.js';
import { windRoseSpec } from './windRoseChart.js';

export const PLOT_FONT = 'Liberation Sans, DejaVu Sans, Arial, Helvetica, sans-serif';

export interface LayoutPlotInput {
  /** First title line (case name, task id). */
  title: string;
  /** What the physics needs (turbine, wind, model) and the site (boundary, minSpacing). */
  site: Pick<Case, 'turbine' | 'wind' | 'model' | 'boundary' | 'minSpacing'>;
  x: Float64Array;
  y: Float64Array;
  /** AEP the source records for this layout, MWh (compared with the recomputed one by the CLI). */
  recordedAepMwh?: number;
}

export interface LayoutPlotOptions {
  width: number;
  height: number;
  /** Draw the hub-height flow field for this direction (degrees, meteorological). */
  flowDirectionDeg?: number;
  /** Wake-loss colour range (fractions); default: this layout's min and max. Shared by --compare panels. */
  lossRange?: [number, number];
  /** Right-hand panel with colour bars and the rose (default: when width >= 420). */
  panel?: boolean;
  /** Prefix for ids (several plots inlined in one HTML page must not share ids). */
  idPrefix?: string;
}

export interface LayoutPlot {
  svg: string;
  yield: TurbineYield;
  lossRange: [number, number];
}

interface Extent { minX: number; maxX: number; minY: number; maxY: number }

function siteExtent(boundary: Boundary | null, x: Float64Array, y: Float64Array, pad: number): Extent {
  const e: Extent = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  const add = (px: number, py: number) => {
    e.minX = Math.min(e.minX, px); e.maxX = Math.max(e.maxX, px); e.minY = Math.min(e.minY, py); e.maxY = Math.max(e.maxY, py);
  };
  if (boundary?.kind === 'circle') {
    add(boundary.center[0] - boundary.radius, boundary.center[1] - boundary.radius);
    add(boundary.center[0] + boundary.radius, boundary.center[1] + boundary.radius);
  } else if (boundary?.kind === 'polygon') {
    for (const [vx, vy] of boundary.vertices) add(vx, vy);
  } else if (boundary?.kind === 'multipolygon') {
    for (const poly of boundary.polygons) for (const [vx, vy] of poly) add(vx, vy);
  }
  for (let i = 0; i < x.length; i++) add(x[i], y[i]);
  if (!Number.isFinite(e.minX)) { e.minX = -500; e.maxX = 500; e.minY = -500; e.maxY = 500; }
  return { minX: e.minX - pad, maxX: e.maxX + pad, minY: e.minY - pad, maxY: e.maxY + pad };
}

/** A "nice" length (1, 2 or 5 × 10^k) near `target`. */
function niceLength(target: number): number {
  const p = Math.pow(10, Math.floor(Math.log10(target)));
  const m = target / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

let plotCounter = 0;

/** Rendered roses by rose content and highlighted direction (a report draws many plots of few roses). */
const roseCache = new Map<string, Promise<string>>();

function roseSvg(wind: Case['wind'], highlight: number | undefined): Promise<string> {
  const key = `${Array.from(wind.directionsDeg).join(',')}|${Array.from(wind.probability).join(',')}|${wind.speeds.length}|${highlight}`;
  let svg = roseCache.get(key);
  if (!svg) {
    if (roseCache.size > 200) roseCache.clear();
    svg = vegaLiteToSvg(windRoseSpec(wind, 200, highlight));
    roseCache.set(key, svg);
  }
  return svg;
}

export async function layoutSvg(input: LayoutPlotInput, options: LayoutPlotOptions): Promise<LayoutPlot> {
  const { width: W, height: H } = options;
  const { site, x, y } = input;
  const id = options.idPrefix ?? `wp${++plotCounter}`;
  const n = x.length;
  const yieldOf = turbineYield(site, x, y);
  let lo = Infinity, hi = -Infinity;
  for (const l of yieldOf.lossByTurbine) { lo = Math.min(lo, l); hi = Math.max(hi, l); }
  const lossRange = options.lossRange ?? nonEmptyRange(n > 0 ? lo : 0, n > 0 ? hi : 0.01);
  const [l0, l1] = nonEmptyRange(lossRange[0], lossRange[1]);
  const lossColor = (l: number) => rgbHex(rampColor(WAKE_LOSS_RAMP, (l - l0) / (l1 - l0)));

  const showPanel = options.panel ?? W >= 420;
  const compact = W < 420 || H < 320;
  const titleH = compact ? 40 : 58;
  const panelW = showPanel ? Math.round(Math.min(230, Math.max(140, W * 0.25))) : 0;
  const area = { x: 10, y: titleH, w: W - panelW - 20, h: H - titleH - (compact ? 22 : 30) };
  const D = site.turbine.diameter;
  const ext = siteExtent(site.boundary, x, y, site.minSpacing / 2 + 0.2 * D);
  const scale = Math.min(area.w / (ext.maxX - ext.minX), area.h / (ext.maxY - ext.minY));
  const midX = (ext.minX + ext.maxX) / 2, midY = (ext.minY + ext.maxY) / 2;
  const cx = area.x + area.w / 2, cy = area.y + area.h / 2;
  const X = (v: number) => cx + (v - midX) * scale;
  const Y = (v: number) => cy - (v - midY) * scale;
  const ring = (pts: readonly Point[]) => `M${pts.map(([vx, vy]) => `${px(X(vx))},${px(Y(vy))}`).join('L')}Z`;

  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${PLOT_FONT}" class="wflo-layout">`);
  parts.push(`<defs>`
    + `<pattern id="${id}-hatch" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)"><rect width="7" height="7" fill="#f6dede"/><line x1="0" y1="0" x2="0" y2="7" stroke="#c0504d" stroke-width="2"/></pattern>`
    + `<clipPath id="${id}-area"><rect x="${px(area.x)}" y="${px(area.y)}" width="${px(area.w)}" height="${px(area.h)}"/></clipPath>`
    + `</defs>`);
  parts.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);

  // Title: what, then the numbers a researcher looks for first.
  const line2 = `AEP ${grouped(yieldOf.aepMwh)} MWh · gross ${grouped(yieldOf.grossAepMwh)} MWh · wake loss ${percent(yieldOf.wakeLoss)}`;
  const line3 = `${n} × ${site.turbine.name} (D ${grouped(D)} m) · capacity factor ${percent(yieldOf.capacityFactor)} · ${site.model.wake} wake`;
  const titleSize = compact ? 12 : 17;
  parts.push(`<text class="title" x="${area.x + 4}" y="${compact ? 15 : 21}" font-size="${titleSize}" font-weight="bold" fill="#1b2733">${escapeXml(input.title)}</text>`);
  parts.push(`<text class="subtitle" x="${area.x + 4}" y="${compact ? 29 : 39}" font-size="${compact ? 10 : 13}" fill="#2a3a4a">${escapeXml(line2)}</text>`);
  if (!compact) parts.push(`<text x="${area.x + 4}" y="54" font-size="11" fill="#5a6b7b">${escapeXml(line3)}</text>`);

  const sitePath = (b: Boundary): string => b.kind === 'circle'
    ? `<circle cx="${px(X(b.center[0]))}" cy="${px(Y(b.center[1]))}" r="${px(b.radius * scale)}"`
    : `<path fill-rule="evenodd" d="${(b.kind === 'polygon' ? [b.vertices] : b.polygons).map(ring).join('')}"`;

  // Flow field under everything else.
  let flowInfo: { u: number; min: number } | null = null;
  if (options.flowDirectionDeg !== undefined) {
    const cells = Math.max(60, Math.min(420, Math.round(area.w / 2)));
    const nx = cells, ny = Math.max(30, Math.round((cells * area.h) / area.w));
    const grid = {
      minX: midX - area.w / 2 / scale, maxX: midX + area.w / 2 / scale,
      minY: midY - area.h / 2 / scale, maxY: midY + area.h / 2 / scale, nx, ny,
    };
    const field = flowField(site, x, y, options.flowDirectionDeg, grid);
    const speedLo = Math.min(field.minSpeed, field.freeStreamSpeed * 0.999);
    const rgbByPixel = new Uint8Array(nx * ny * 3);
    for (let k = 0; k < nx * ny; k++) {
      const c = rampColor(SPEED_RAMP, (field.speedByCell[k] - speedLo) / (field.freeStreamSpeed - speedLo));
      rgbByPixel[3 * k] = c[0]; rgbByPixel[3 * k + 1] = c[1]; rgbByPixel[3 * k + 2] = c[2];
    }
    const png = encodeRgbPng(nx, ny, rgbByPixel).toString('base64');
    parts.push(`<image class="flow" x="${px(area.x)}" y="${px(area.y)}" width="${px(area.w)}" height="${px(area.h)}" preserveAspectRatio="none" href="data:image/png;base64,${png}"/>`);
    flowInfo = { u: field.freeStreamSpeed, min: speedLo };
  }

  parts.push(`<g clip-path="url(#${id}-area)">`);
  if (site.boundary) {
    parts.push(`${sitePath(site.boundary)} class="boundary" fill="${flowInfo ? 'none' : '#eaf3e4'}" stroke="#2f6b3a" stroke-width="1.6"/>`);
    for (const zone of site.boundary.exclusions ?? []) {
      parts.push(`<path class="exclusion" d="${ring(zone.vertices)}" fill="url(#${id}-hatch)" fill-opacity="${flowInfo ? 0.6 : 1}" stroke="#c0504d" stroke-width="1.2"><title>${escapeXml(zone.name)}</title></path>`);
    }
  }
  const spacingR = (site.minSpacing / 2) * scale;
  const markerR = Math.max(3, Math.min(compact ? 6 : 9, (D / 2) * scale));
  const circles: string[] = [];
  const markers: string[] = [];
  for (let i = 0; i < n; i++) {
    const sx = px(X(x[i])), sy = px(Y(y[i]));
    circles.push(`<circle cx="${sx}" cy="${sy}" r="${px(spacingR)}"/>`);
    const loss = yieldOf.lossByTurbine[i];
    markers.push(`<circle class="turbine" data-turbine="${i}" data-x="${x[i]}" data-y="${y[i]}" data-wake-loss="${loss}" cx="${sx}" cy="${sy}" r="${px(markerR)}" fill="${lossColor(loss)}">`
      + `<title>turbine ${i}: (${x[i].toFixed(1)}, ${y[i].toFixed(1)}) m, ${grouped(yieldOf.netByTurbine[i])} MWh, wake loss ${percent(loss)}</title></circle>`);
  }
  parts.push(`<g class="spacing" fill="none" stroke="${flowInfo ? '#ffffff' : '#6f8195'}" stroke-opacity="0.75" stroke-width="0.9" stroke-dasharray="3 3">${circles.join('')}</g>`);
  parts.push(`<g class="turbines" stroke="#1b2733" stroke-width="1.1">${markers.join('')}</g>`);
  parts.push(`</g>`);

  // North arrow (top left of the plot area) and scale bar (bottom left).
  const nx0 = area.x + 16, ny0 = area.y + 8;
  parts.push(`<g class="north" fill="#1b2733"><path d="M${nx0},${ny0} l6,16 l-6,-4 l-6,4 Z"/><text x="${nx0}" y="${ny0 + 28}" font-size="10" text-anchor="middle">N</text></g>`);
  const barM = niceLength((area.w / scale) / 5);
  const barPx = barM * scale;
  const by = H - (compact ? 8 : 12);
  parts.push(`<g class="scalebar" stroke="#1b2733" stroke-width="1.4"><path d="M${area.x + 6},${by - 4} v4 h${px(barPx)} v-4" fill="none"/>`
    + `<text x="${px(area.x + 10 + barPx)}" y="${by}" font-size="10" stroke="none" fill="#1b2733">${barM >= 1000 ? `${barM / 1000} km` : `${barM} m`}</text></g>`);
  if (options.flowDirectionDeg !== undefined && flowInfo) {
    // Wind arrow: the wind comes FROM the direction, so it blows towards direction + 180°.
    const toward = ((options.flowDirectionDeg + 180) * Math.PI) / 180;
    const ax = area.x + area.w - 34, ay = area.y + 30, len = 22;
    const dx = Math.sin(toward) * len, dy = -Math.cos(toward) * len;
    // Arrowhead at the downwind end.
    const hx = ax + dx, hy = ay + dy, ux = dx / len, uy = dy / len;
    const head = `M${px(hx + ux * 4)},${px(hy + uy * 4)}L${px(hx - ux * 7 - uy * 5)},${px(hy - uy * 7 + ux * 5)}L${px(hx - ux * 7 + uy * 5)},${px(hy - uy * 7 - ux * 5)}Z`;
    parts.push(`<g class="wind-arrow" stroke="#16325c" fill="#16325c"><line x1="${px(ax - dx)}" y1="${px(ay - dy)}" x2="${px(hx - ux * 4)}" y2="${px(hy - uy * 4)}" stroke-width="2.4"/>`
      + `<path d="${head}" stroke="none"/><text x="${px(area.x + area.w - 6)}" y="${ay + 40}" font-size="10.5" text-anchor="end" stroke="none">wind from ${options.flowDirectionDeg}°, ${flowInfo.u.toFixed(1)} m/s</text></g>`);
  }

  if (showPanel) parts.push(await panelSvg({ id, x0: W - panelW - 4, y0: titleH, w: panelW, h: H - titleH - 8, l0, l1, flowInfo, site, highlight: options.flowDirectionDeg, hasExclusions: (site.boundary?.exclusions?.length ?? 0) > 0 }));
  parts.push('</svg>');
  return { svg: parts.join(''), yield: yieldOf, lossRange: [l0, l1] };
}

async function panelSvg(p: {
  id: string; x0: number; y0: number; w: number; h: number; l0: number; l1: number;
  flowInfo: { u: number; min: number } | null; site: LayoutPlotInput['site']; highlight?: number; hasExclusions: boolean;
}): Promise<string> {
  const out: string[] = [`<g class="panel" font-size="11" fill="#1b2733">`];
  const barW = 14, barX = p.x0 + 8;
  const gradient = (gid: string, ramp: typeof WAKE_LOSS_RAMP, reverse: boolean) =>
    `<linearGradient id="${gid}" x1="0" y1="1" x2="0" y2="0">${ramp.map((c, i) => `<stop offset="${(reverse ? ramp.length - 1 - i : i) / (ramp.length - 1)}" stop-color="${rgbHex(c)}"/>`).join('')}</linearGradient>`;
  const bar = (top: number, height: number, title: string, gid: string, ticks: { v: number; label: string }[], vlo: number, vhi: number) => {
    out.push(`<text x="${p.x0 + 4}" y="${top - 6}" font-weight="bold">${escapeXml(title)}</text>`);
    out.push(`<rect class="colorbar" x="${barX}" y="${top}" width="${barW}" height="${height}" fill="url(#${gid})" stroke="#8795a3" stroke-width="0.6"/>`);
    for (const t of ticks) {
      const ty = top + height - ((t.v - vlo) / (vhi - vlo)) * height;
      out.push(`<line x1="${barX + barW}" x2="${barX + barW + 4}" y1="${px(ty)}" y2="${px(ty)}" stroke="#1b2733"/><text x="${barX + barW + 7}" y="${px(ty + 3.5)}" font-size="10">${t.label}</text>`);
    }
  };
  const defs: string[] = [gradient(`${p.id}-loss`, WAKE_LOSS_RAMP, false)];
  if (p.flowInfo) defs.push(gradient(`${p.id}-speed`, SPEED_RAMP, false));
  out.push(`<defs>${defs.join('')}</defs>`);
  const roseSize = Math.min(p.w - 30, Math.max(90, p.h * 0.38));
  const barsH = p.h - roseSize - 36 - 70;
  const oneBarH = p.flowInfo ? Math.max(50, barsH / 2 - 34) : Math.max(60, Math.min(200, barsH - 30));
  const fiveTicks = (a: number, b: number, fmt: (v: number) => string) => Array.from({ length: 5 }, (_, i) => {
    const v = a + ((b - a) * i) / 4;
    return { v, label: fmt(v) };
  });
  bar(p.y0 + 16, oneBarH, 'Wake loss per turbine', `${p.id}-loss`, fiveTicks(p.l0, p.l1, (v) => `${(v * 100).toFixed(1)} %`), p.l0, p.l1);
  if (p.flowInfo) {
    const top = p.y0 + 16 + oneBarH + 34;
    bar(top, oneBarH, 'Hub-height speed (m/s)', `${p.id}-speed`, fiveTicks(p.flowInfo.min, p.flowInfo.u, (v) => v.toFixed(1)), p.flowInfo.min, p.flowInfo.u);
  }
  const roseTop = p.y0 + p.h - roseSize - 8;
  // Key to the site drawing, above the rose.
  const keys: string[] = [];
  let ky = roseTop - 14 - 22 - 16 * (p.hasExclusions ? 3 : 2);
  const keyRow = (symbol: string, label: string) => {
    keys.push(`<g transform="translate(${p.x0 + 8},${px(ky)})">${symbol}<text x="26" y="4" font-size="10.5">${escapeXml(label)}</text></g>`);
    ky += 16;
  };
  keyRow('<line x1="0" x2="18" y1="0" y2="0" stroke="#2f6b3a" stroke-width="1.6"/>', 'site boundary');
  keyRow('<circle cx="9" cy="0" r="6" fill="none" stroke="#6f8195" stroke-dasharray="3 3"/>', '½ minimum spacing');
  if (p.hasExclusions) keyRow(`<rect x="0" y="-5" width="18" height="10" fill="url(#${p.id}-hatch)" stroke="#c0504d"/>`, 'exclusion zone');
  out.push(`<g class="key">${keys.join('')}</g>`);
  out.push(`<text x="${p.x0 + 4}" y="${roseTop - 14}" font-weight="bold">Wind rose (frequency)</text>`);
  const rose = await roseSvg(p.site.wind, p.highlight);
  // Compass ring at the rose's full radius (Vega: radius range = half the 200 px plot, plus 2 px padding).
  const rcx = p.x0 + p.w / 2, rcy = roseTop + roseSize / 2, ringR = (100 / 204) * roseSize;
  const compass = [['N', 0, -1], ['E', 1, 0], ['S', 0, 1], ['W', -1, 0]] as const;
  out.push(`<g class="windrose"><circle cx="${px(rcx)}" cy="${px(rcy)}" r="${px(ringR)}" fill="#f7f9fb" stroke="#c7d0d9" stroke-width="0.8"/>`
    + `<circle cx="${px(rcx)}" cy="${px(rcy)}" r="${px(ringR / 2)}" fill="none" stroke="#dde3e9" stroke-width="0.6"/>`
    + nestSvg(rose, p.x0 + (p.w - roseSize) / 2, roseTop, roseSize, roseSize)
    + compass.map(([label, ux, uy]) => `<text x="${px(rcx + ux * (ringR + 7))}" y="${px(rcy + uy * (ringR + 7) + 3.5)}" font-size="9.5" text-anchor="middle" fill="#5a6b7b">${label}</text>`).join('')
    + '</g>');
  out.push('</g>');
  return out.join('');
}
