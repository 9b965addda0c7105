/**
 * The layout plot, drawn by hand as SVG: the site (boundary, exclusion zones hatched) on a map
 * with axes in metres (or km) and one scale for x and y (plotAxes.ts); one dashed circle of
 * radius s/2 around every turbine (s = minimum spacing, so two circles overlap exactly when a
 * pair is too close), drawn dark on a light casing so it shows on any background; the turbines
 * coloured by their wake loss, optionally numbered (their index in the layout, as in the files);
 * a side panel with the wake-loss colour bar, a key and the wind rose with speed classes and a
 * radial scale in percent (windRoseSvg.ts). In the `screen` style a title gives AEP, gross AEP
 * and wake loss, and a flow direction adds the hub-height speed field of that direction
 * (flowField.ts) under the turbines as an embedded raster; the `paper` style (plotStyle.ts) has
 * neither.
 *
 * Farms of several turbine models mark each model with its own shape (circle, square, triangle,
 * diamond, …) sized by its rotor diameter, a spacing circle of its own model's spacing, and a key
 * row per model; fixed neighbouring turbines are grey crossed circles (never coloured: their loss is
 * not the farm's).
 *
 * Turbine markers carry their coordinates in metres (`data-x`, `data-y`), wake loss
 * (`data-wake-loss`) and model index (`data-model`) so tests and scripts can read the plot back.
 */
import type { Case } from '../case/case.js';
import type { Boundary, Point } from '../geometry/boundary.js';
import { InputError } from '../util/errors.js';
import { turbineYield, type TurbineYield } from './turbineYield.js';
import { flowField } from './flowField.js';
import { encodeRgbPng } from './pngEncode.js';
import { nonEmptyRange, rampColor, rgbHex, SPEED_RAMP, WAKE_LOSS_RAMP } from './colorScale.js';
import { escapeXml, grouped, percent, px } from './svgMarkup.js';
import { axesMargins, axisUnit, mapAxes, niceTicks, tickLabel } from './plotAxes.js';
import { PLOT_STYLES, type PlotStyle, type PlotStyleName } from './plotStyle.js';
import { roseData, roseLegendSvg, windRoseSvg } from './windRoseSvg.js';
import { directionsFlag } from '../io/directionsField.js';
import type { WaterDepthField } from '../cost/economicModel.js';
import { mostProbableDirection, siteFieldToDraw, siteKeyRow, siteRasterSvg, type SiteFieldChoice, type SiteRaster } from './siteFieldDrawing.js';
import type { NetworkSource } from './economicsDrawing.js';
import { collectionKeyRows, collectionLayerSvg, depthKeyRow, depthRasterSvg, type CollectionDrawing } from './collectionSvg.js';

export const PLOT_FONT = 'Liberation Sans, DejaVu Sans, Arial, Helvetica, sans-serif';

export interface LayoutPlotInput {
  /** First title line (case name, task id). */
  title: string;
  /** What the physics needs (turbine, wind, model; models and neighbours) and the site (boundary, minSpacing). */
  site: Pick<Case, 'turbine' | 'wind' | 'model' | 'boundary' | 'minSpacing' | 'turbines' | 'neighbours'>;
  x: Float64Array;
  y: Float64Array;
  /** Each turbine's model (farms of several models; default the site's assignment). */
  typeOf?: Int32Array;
  /** AEP the source records for this layout, MWh (compared with the recomputed one by the CLI). */
  recordedAepMwh?: number;
  /** The network the source stored with the layout (layouts.h5's cable_to, cable_type), drawn as stored (economicsDrawing.ts). */
  cableTo?: Int32Array;
  cableType?: Int32Array;
  /** Substations and cable catalogue of the stored network when the site has no economics (a result file records them). */
  network?: NetworkSource;
  /** The layout's economic figures as the source records them, one line ("LCOE 64.80 €/MWh · NPV −18.71 M€"), after the AEP in the title. */
  economicsLine?: string;
  /** The collection system to draw (cables by type, substations): collectionSvg.ts. */
  collection?: CollectionDrawing;
  /** The water depth to draw under the site (when it varies; screen and paper alike, not under a flow field). */
  depth?: WaterDepthField;
}

export interface LayoutPlotOptions {
  width: number;
  height: number;
  /** Draw the hub-height flow field for this direction (degrees, meteorological). Screen style only. */
  flowDirectionDeg?: number;
  /** Wake-loss colour range (fractions); default: this layout's min and max. Shared by compared plots. */
  lossRange?: [number, number];
  /** Right-hand panel with colour bars, key and rose (default: when width >= 420). */
  panel?: boolean;
  /** Prefix for ids (several plots inlined in one HTML page must not share ids). */
  idPrefix?: string;
  style?: PlotStyleName;
  /** Write each turbine's index (0-based, the order of the layout in its file) beside it. */
  numbers?: boolean;
  /** A site that is not uniform: which field to draw under the layout (default the speed-up, else the TI; `none`: no field). siteFieldDrawing.ts */
  siteField?: SiteFieldChoice;
  /** The wind direction a field by direction is drawn at (default: the rose's most probable). */
  siteWdDeg?: number;
}

export interface LayoutPlot {
  svg: string;
  yield: TurbineYield;
  lossRange: [number, number];
}

interface Extent {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

function siteExtent(boundary: Boundary | null, x: Float64Array, y: Float64Array, pad: number, extra?: { x: Float64Array; y: Float64Array }): Extent {
  const e: Extent = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  const add = (px: number, py: number) => {
    e.minX = Math.min(e.minX, px);
    e.maxX = Math.max(e.maxX, px);
    e.minY = Math.min(e.minY, py);
    e.maxY = Math.max(e.maxY, py);
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
  for (let i = 0; i < (extra?.x.length ?? 0); i++) add(extra!.x[i], extra!.y[i]);
  if (!Number.isFinite(e.minX)) {
    e.minX = -500;
    e.maxX = 500;
    e.minY = -500;
    e.maxY = 500;
  }
  return { minX: e.minX - pad, maxX: e.maxX + pad, minY: e.minY - pad, maxY: e.maxY + pad };
}

let plotCounter = 0;

/** Marker shapes by model index (the first model keeps the one-model plot's circle). */
const MODEL_SHAPES = ['circle', 'square', 'triangle', 'diamond', 'pentagon', 'hexagon'] as const;

/** An SVG marker of model shape k centred at (cx, cy) with radius r, with extra attributes. */
function markerSvg(k: number, cx: number, cy: number, r: number, attributes: string, inner = ''): string {
  const shape = MODEL_SHAPES[k % MODEL_SHAPES.length];
  if (shape === 'circle') return `<circle ${attributes} cx="${px(cx)}" cy="${px(cy)}" r="${px(r)}">${inner}</circle>`;
  if (shape === 'square')
    return `<rect ${attributes} x="${px(cx - r * 0.89)}" y="${px(cy - r * 0.89)}" width="${px(r * 1.78)}" height="${px(r * 1.78)}">${inner}</rect>`;
  const corners = shape === 'triangle' ? 3 : shape === 'diamond' ? 4 : shape === 'pentagon' ? 5 : 6;
  const size = shape === 'triangle' ? r * 1.3 : shape === 'diamond' ? r * 1.25 : r * 1.1;
  const points = Array.from({ length: corners }, (_, c) => {
    const a = -Math.PI / 2 + (2 * Math.PI * c) / corners;
    return `${px(cx + size * Math.cos(a))},${px(cy + size * Math.sin(a))}`;
  }).join(' ');
  return `<polygon ${attributes} points="${points}">${inner}</polygon>`;
}

export async function layoutSvg(input: LayoutPlotInput, options: LayoutPlotOptions): Promise<LayoutPlot> {
  const { width: W, height: H } = options;
  const style = PLOT_STYLES[options.style ?? 'screen'];
  if (options.flowDirectionDeg !== undefined && !style.flowAllowed)
    throw new InputError(`--flow: the ${style.name} style draws no flow field (use --style screen)`);
  const { site, x, y } = input;
  const id = options.idPrefix ?? `wp${++plotCounter}`;
  const n = x.length;
  const models = site.turbines ? site.turbines.types : [site.turbine];
  const typeOf = input.typeOf ?? site.turbines?.typeOf ?? null;
  const modelOf = (i: number): number => (typeOf ? typeOf[i] : 0);
  const neighbours = site.neighbours && site.neighbours.x.length > 0 ? site.neighbours : null;
  const yieldOf = turbineYield(site, x, y, typeOf ?? undefined);
  let lo = Infinity,
    hi = -Infinity;
  for (const l of yieldOf.lossByTurbine) {
    lo = Math.min(lo, l);
    hi = Math.max(hi, l);
  }
  const lossRange = options.lossRange ?? nonEmptyRange(n > 0 ? lo : 0, n > 0 ? hi : 0.01);
  const [l0, l1] = nonEmptyRange(lossRange[0], lossRange[1]);
  const lossColor = (l: number) => rgbHex(rampColor(WAKE_LOSS_RAMP, (l - l0) / (l1 - l0)));

  const showPanel = options.panel ?? W >= 420;
  const compact = W < 520 || H < 400;
  const titleH = style.title ? (compact ? 40 : 58) : 6;
  const panelW = showPanel ? Math.round(Math.min(style.name === 'paper' ? 190 : 230, Math.max(140, W * 0.26))) : 0;
  const D = Math.max(...models.map((m) => m.diameter));
  // Room around the site for the spacing circles (and the turbine numbers, drawn up and right).
  const fixedPoints =
    neighbours || input.collection
      ? {
          x: Float64Array.from([...(neighbours?.x ?? []), ...(input.collection?.substations ?? []).map((s) => s[0])]),
          y: Float64Array.from([...(neighbours?.y ?? []), ...(input.collection?.substations ?? []).map((s) => s[1])]),
        }
      : undefined;
  const ext = siteExtent(site.boundary, x, y, (site.minSpacing / 2 + 0.2 * D) * (options.numbers ? 1.7 : 1), fixedPoints);

  // The map: the room left of the panel minus the axes' margins; the extent grows in its short
  // direction so the frame fills that room at one scale for x and y.
  const unit = axisUnit(ext.maxX - ext.minX, ext.maxY - ext.minY);
  const midX = (ext.minX + ext.maxX) / 2,
    midY = (ext.minY + ext.maxY) / 2;
  // The y tick labels' width sets the left margin, and the margin the map's y extent: two passes.
  let yChars = 5;
  let room = { left: 0, right: 0, top: 0, bottom: 0 },
    roomW = 0,
    roomH = 0,
    scale = 1;
  for (let pass = 0; pass < 2; pass++) {
    const margins = axesMargins(style, compact, yChars);
    room = { left: 6 + margins.left, right: W - panelW - (showPanel ? 14 : 8), top: titleH + 6, bottom: H - margins.bottom - 4 };
    roomW = room.right - room.left;
    roomH = room.bottom - room.top;
    scale = Math.min(roomW / (ext.maxX - ext.minX), roomH / (ext.maxY - ext.minY));
    const yTicks = niceTicks((midY - roomH / 2 / scale) / unit, (midY + roomH / 2 / scale) / unit, 6);
    yChars = Math.max(...yTicks.map((t) => tickLabel(t, yTicks.length > 1 ? yTicks[1] - yTicks[0] : 1).length));
  }
  const frame = {
    left: room.left,
    right: room.right,
    top: room.top,
    bottom: room.bottom,
    minX: midX - roomW / 2 / scale,
    maxX: midX + roomW / 2 / scale,
    minY: midY - roomH / 2 / scale,
    maxY: midY + roomH / 2 / scale,
  };
  const X = (v: number) => frame.left + (v - frame.minX) * scale;
  const Y = (v: number) => frame.bottom - (v - frame.minY) * scale;
  const ring = (pts: readonly Point[]) => `M${pts.map(([vx, vy]) => `${px(X(vx))},${px(Y(vy))}`).join('L')}Z`;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${PLOT_FONT}" class="wflo-layout" data-style="${style.name}">`,
  );
  parts.push(
    `<defs>` +
      `<pattern id="${id}-hatch" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)"><rect width="7" height="7" fill="${style.zoneFill}"/><line x1="0" y1="0" x2="0" y2="7" stroke="${style.zoneStroke}" stroke-width="2"/></pattern>` +
      `<clipPath id="${id}-area"><rect x="${px(frame.left)}" y="${px(frame.top)}" width="${px(roomW)}" height="${px(roomH)}"/></clipPath>` +
      `</defs>`,
  );
  parts.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);

  if (style.title) {
    // Title: what, then the numbers a researcher looks for first.
    // Which measure the AEP is on when the rose's directions are treated (optimize/caseDirections.ts).
    const treatment = (input.site as Pick<Case, 'directions'>).directions?.treatment;
    const line2 = `AEP ${grouped(yieldOf.aepMwh)} MWh${treatment ? ` (directions ${directionsFlag(treatment)})` : ''} · gross ${grouped(yieldOf.grossAepMwh)} MWh · wake loss ${percent(yieldOf.wakeLoss)}${input.economicsLine ? ` · ${input.economicsLine}` : ''}`;
    const fleet =
      models.length === 1
        ? `${n} × ${site.turbine.name} (D ${grouped(D)} m)`
        : models
            .map((m, k) => [m, Array.from({ length: n }, (_, i) => modelOf(i)).filter((t) => t === k).length] as const)
            .filter(([, count]) => count > 0)
            .map(([m, count]) => `${count} × ${m.name}`)
            .join(' + ');
    const line3 = `${fleet}${neighbours ? ` · ${neighbours.x.length} neighbours` : ''} · capacity factor ${percent(yieldOf.capacityFactor)} · ${site.model.wake} wake${site.model.blockage ? ' + blockage' : ''}`;
    parts.push(
      `<text class="title" x="10" y="${compact ? 15 : 21}" font-size="${compact ? 12 : 17}" font-weight="bold" fill="${style.ink}">${escapeXml(input.title)}</text>`,
    );
    parts.push(`<text class="subtitle" x="10" y="${compact ? 29 : 39}" font-size="${compact ? 10 : 13}" fill="#2a3a4a">${escapeXml(line2)}</text>`);
    if (!compact) parts.push(`<text x="10" y="54" font-size="11" fill="${style.muted}">${escapeXml(line3)}</text>`);
  }

  const sitePath = (b: Boundary): string =>
    b.kind === 'circle'
      ? `<circle cx="${px(X(b.center[0]))}" cy="${px(Y(b.center[1]))}" r="${px(b.radius * scale)}"`
      : `<path fill-rule="evenodd" d="${(b.kind === 'polygon' ? [b.vertices] : b.polygons).map(ring).join('')}"`;

  // Flow field under everything else.
  let flowInfo: { u: number; min: number } | null = null;
  if (options.flowDirectionDeg !== undefined) {
    const cells = Math.max(60, Math.min(420, Math.round(roomW / 2)));
    const nx = cells,
      ny = Math.max(30, Math.round((cells * roomH) / roomW));
    const field = flowField(site, x, y, options.flowDirectionDeg, { minX: frame.minX, maxX: frame.maxX, minY: frame.minY, maxY: frame.maxY, nx, ny });
    const speedLo = Math.min(field.minSpeed, field.freeStreamSpeed * 0.999);
    const rgbByPixel = new Uint8Array(nx * ny * 3);
    for (let k = 0; k < nx * ny; k++) {
      const c = rampColor(SPEED_RAMP, (field.speedByCell[k] - speedLo) / (field.freeStreamSpeed - speedLo));
      rgbByPixel[3 * k] = c[0];
      rgbByPixel[3 * k + 1] = c[1];
      rgbByPixel[3 * k + 2] = c[2];
    }
    const png = encodeRgbPng(nx, ny, rgbByPixel).toString('base64');
    parts.push(
      `<image class="flow" x="${px(frame.left)}" y="${px(frame.top)}" width="${px(roomW)}" height="${px(roomH)}" preserveAspectRatio="none" href="data:image/png;base64,${png}"/>`,
    );
    flowInfo = { u: field.freeStreamSpeed, min: speedLo };
  }
  // The site's speed-up or TI field (not under a flow field: one raster at a time).
  let siteRaster: SiteRaster | null = null;
  const siteField = flowInfo ? null : siteFieldToDraw(site.model.site, options.siteField);
  if (siteField) {
    const cells = Math.max(40, Math.min(240, Math.round(roomW / 3)));
    siteRaster = siteRasterSvg(
      siteField,
      models[0].hubHeight,
      options.siteWdDeg ?? mostProbableDirection(site.wind),
      frame,
      roomW,
      roomH,
      cells,
      Math.max(20, Math.round((cells * roomH) / roomW)),
    );
    if (siteRaster) parts.push(siteRaster.svg);
  }
  // The sea floor under the site (not under a flow field or a site field: one raster at a time).
  let depthInfo: { min: number; max: number } | null = null;
  if (input.depth && !flowInfo && !siteRaster) {
    const cells = Math.max(40, Math.min(240, Math.round(roomW / 3)));
    const raster = depthRasterSvg(input.depth, frame, roomW, roomH, cells, Math.max(20, Math.round((cells * roomH) / roomW)));
    if (raster) {
      parts.push(raster.svg);
      depthInfo = { min: raster.min, max: raster.max };
    }
  }
  const axes = mapAxes(frame, style, { grid: !flowInfo && !depthInfo && !siteRaster, compact, unit });

  parts.push(`<g clip-path="url(#${id}-area)">`);
  if (!flowInfo) parts.push(axes.grid);
  if (site.boundary) {
    parts.push(
      `${sitePath(site.boundary)} class="boundary" fill="${flowInfo || depthInfo || siteRaster || style.siteFill === 'none' ? 'none' : style.siteFill}" fill-opacity="${style.name === 'screen' ? 0.85 : 1}" stroke="${style.siteStroke}" stroke-width="1.6"/>`,
    );
    for (const zone of site.boundary.exclusions ?? []) {
      parts.push(
        `<path class="exclusion" d="${ring(zone.vertices)}" fill="url(#${id}-hatch)" fill-opacity="${flowInfo ? 0.6 : 1}" stroke="${style.zoneStroke}" stroke-width="1.2"><title>${escapeXml(zone.name)}</title></path>`,
      );
    }
  }
  // Each turbine's spacing circle is half its own model's spacing (a pair keeps the larger one).
  const spacingOf = (i: number): number => (site.turbines ? site.turbines.minSpacingByType[modelOf(i)] : site.minSpacing);
  const markerR = Math.max(3, Math.min(compact ? 6 : 9, (D / 2) * scale));
  const markerROf = (k: number): number => (models.length === 1 ? markerR : Math.max(3, markerR * Math.sqrt(models[k].diameter / D)));
  const circles: string[] = [];
  const markers: string[] = [];
  const numbers: string[] = [];
  const numberSize = compact ? style.font.number - 1 : style.font.number;
  for (let i = 0; i < n; i++) {
    const sx = px(X(x[i])),
      sy = px(Y(y[i]));
    circles.push(`<circle cx="${sx}" cy="${sy}" r="${px((spacingOf(i) / 2) * scale)}"/>`);
    const loss = yieldOf.lossByTurbine[i];
    const k = modelOf(i);
    markers.push(
      markerSvg(
        k,
        X(x[i]),
        Y(y[i]),
        markerROf(k),
        `class="turbine" data-turbine="${i}" data-x="${x[i]}" data-y="${y[i]}" data-wake-loss="${loss}" data-model="${k}" fill="${lossColor(loss)}"`,
        `<title>turbine ${i}${models.length > 1 ? ` (${escapeXml(models[k].name)})` : ''}: (${x[i].toFixed(1)}, ${y[i].toFixed(1)}) m, ${grouped(yieldOf.netByTurbine[i])} MWh, wake loss ${percent(loss)}</title>`,
      ),
    );
    if (options.numbers) {
      numbers.push(`<text class="turbine-number" x="${px(X(x[i]) + markerR * 0.8 + 1)}" y="${px(Y(y[i]) - markerR * 0.8 - 1)}">${i}</text>`);
    }
  }
  // Spacing circles: dark dashes on a light casing in the screen style (visible on the tinted
  // site and on the flow field alike); thin grey dashes on paper.
  if (style.name === 'screen') {
    parts.push(
      `<g class="spacing" fill="none"><g stroke="#ffffff" stroke-opacity="0.9" stroke-width="2.2">${circles.join('')}</g>` +
        `<g stroke="#1b2733" stroke-opacity="0.8" stroke-width="0.9" stroke-dasharray="3 2.5">${circles.join('')}</g></g>`,
    );
  } else {
    parts.push(`<g class="spacing" fill="none" stroke="#555555" stroke-width="0.6" stroke-dasharray="2.5 2">${circles.join('')}</g>`);
  }
  if (neighbours) {
    const nr = Math.max(3, markerR * 0.8);
    const marks = Array.from(neighbours.x, (nx, j) => {
      const cx = X(nx),
        cy = Y(neighbours.y[j]),
        d = nr * 0.7;
      return (
        `<g class="neighbour" data-x="${nx}" data-y="${neighbours.y[j]}" data-model="${escapeXml(neighbours.types[neighbours.typeOf[j]].name)}">` +
        `<circle cx="${px(cx)}" cy="${px(cy)}" r="${px(nr)}"/><path d="M${px(cx - d)},${px(cy - d)}L${px(cx + d)},${px(cy + d)}M${px(cx - d)},${px(cy + d)}L${px(cx + d)},${px(cy - d)}"/>` +
        `<title>neighbour ${j} (${escapeXml(neighbours.types[neighbours.typeOf[j]].name)}, fixed): (${nx.toFixed(1)}, ${neighbours.y[j].toFixed(1)}) m</title></g>`
      );
    });
    parts.push(`<g class="neighbours" fill="#d9d9d9" stroke="#5a5a5a" stroke-width="1">${marks.join('')}</g>`);
  }
  if (input.collection) parts.push(collectionLayerSvg(input.collection, x, y, X, Y));
  parts.push(`<g class="turbines" stroke="${style.ink}" stroke-width="${style.name === 'paper' ? 0.7 : 1.1}">${markers.join('')}</g>`);
  if (numbers.length > 0) {
    parts.push(
      `<g class="turbine-numbers" font-size="${numberSize}" font-weight="bold" fill="${style.ink}" stroke="#ffffff" stroke-width="2.4" stroke-linejoin="round" paint-order="stroke">${numbers.join('')}</g>`,
    );
  }
  parts.push(`</g>`);
  parts.push(axes.axes);

  // North arrow (top left inside the map).
  const nx0 = frame.left + 14,
    ny0 = frame.top + 8;
  parts.push(
    `<g class="north" fill="${style.ink}"><path d="M${px(nx0)},${px(ny0)} l5,14 l-5,-3.5 l-5,3.5 Z"/><text x="${px(nx0)}" y="${px(ny0 + 25)}" font-size="${style.font.tick}" text-anchor="middle">N</text></g>`,
  );
  if (options.flowDirectionDeg !== undefined && flowInfo) {
    // Wind arrow: the wind comes FROM the direction, so it blows towards direction + 180°.
    const toward = ((options.flowDirectionDeg + 180) * Math.PI) / 180;
    const ax = frame.right - 34,
      ay = frame.top + 30,
      len = 22;
    const dx = Math.sin(toward) * len,
      dy = -Math.cos(toward) * len;
    const hx = ax + dx,
      hy = ay + dy,
      ux = dx / len,
      uy = dy / len;
    const head = `M${px(hx + ux * 4)},${px(hy + uy * 4)}L${px(hx - ux * 7 - uy * 5)},${px(hy - uy * 7 + ux * 5)}L${px(hx - ux * 7 + uy * 5)},${px(hy - uy * 7 - ux * 5)}Z`;
    parts.push(
      `<g class="wind-arrow" stroke="#16325c" fill="#16325c"><line x1="${px(ax - dx)}" y1="${px(ay - dy)}" x2="${px(hx - ux * 4)}" y2="${px(hy - uy * 4)}" stroke-width="2.4"/>` +
        `<path d="${head}" stroke="none"/><text x="${px(frame.right - 6)}" y="${ay + 40}" font-size="10.5" text-anchor="end" stroke="#ffffff" stroke-width="2.5" paint-order="stroke">wind from ${options.flowDirectionDeg}°, ${flowInfo.u.toFixed(1)} m/s</text></g>`,
    );
  }

  if (showPanel) {
    parts.push(
      panelSvg({
        id,
        x0: W - panelW - 4,
        y0: style.title ? titleH : 8,
        w: panelW,
        h: H - (style.title ? titleH : 8) - 8,
        l0,
        l1,
        flowInfo,
        site,
        style,
        compact,
        highlight: options.flowDirectionDeg,
        hasExclusions: (site.boundary?.exclusions?.length ?? 0) > 0,
        modelKeys: models.length > 1 ? models.map((m, k) => ({ shape: k, label: `${m.name} (D ${grouped(m.diameter)} m)` })) : [],
        hasNeighbours: neighbours !== null,
        extraKeys: [
          ...(input.collection ? collectionKeyRows(input.collection, compact).map((r) => ({ ...r, defs: '' })) : []),
          ...(depthInfo ? [depthKeyRow(id, depthInfo.min, depthInfo.max)] : []),
          ...(siteRaster ? [siteKeyRow(id, siteRaster)] : []),
        ],
      }),
    );
  }
  parts.push('</svg>');
  return { svg: parts.join(''), yield: yieldOf, lossRange: [l0, l1] };
}

function panelSvg(p: {
  id: string;
  x0: number;
  y0: number;
  w: number;
  h: number;
  l0: number;
  l1: number;
  style: PlotStyle;
  compact: boolean;
  flowInfo: { u: number; min: number } | null;
  site: LayoutPlotInput['site'];
  highlight?: number;
  hasExclusions: boolean;
  modelKeys: { shape: number; label: string }[];
  hasNeighbours: boolean;
  /** Further key rows (cables, substation, water depth), each with the defs its symbol needs. */
  extraKeys: { defs: string; symbol: string; label: string }[];
}): string {
  const s = p.style;
  const out: string[] = [`<g class="panel" font-size="${s.font.panel}" fill="${s.ink}">`];
  const barW = 12,
    barX = p.x0 + 8;
  const gradient = (gid: string, ramp: typeof WAKE_LOSS_RAMP) =>
    `<linearGradient id="${gid}" x1="0" y1="1" x2="0" y2="0">${ramp.map((c, i) => `<stop offset="${i / (ramp.length - 1)}" stop-color="${rgbHex(c)}"/>`).join('')}</linearGradient>`;
  const bar = (top: number, height: number, title: string, gid: string, lo: number, hi: number, unit: number) => {
    out.push(`<text x="${p.x0 + 4}" y="${px(top - 6)}" font-weight="bold" font-size="${s.font.panelTitle}">${escapeXml(title)}</text>`);
    out.push(
      `<rect class="colorbar" x="${barX}" y="${px(top)}" width="${barW}" height="${px(height)}" fill="url(#${gid})" stroke="${s.muted}" stroke-width="0.6"/>`,
    );
    // At least three ticks inside the range (a narrow range gets a finer step).
    let ticks: number[] = [];
    for (let target = Math.max(3, Math.round(height / 28)); target <= 12; target++) {
      ticks = niceTicks(lo * unit, hi * unit, target).filter((t) => t / unit >= lo - 1e-12 && t / unit <= hi + 1e-12);
      if (ticks.length >= 3) break;
    }
    const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
    for (const t of ticks) {
      const ty = top + height - ((t / unit - lo) / (hi - lo)) * height;
      out.push(
        `<line x1="${barX + barW}" x2="${barX + barW + 4}" y1="${px(ty)}" y2="${px(ty)}" stroke="${s.ink}"/><text x="${barX + barW + 7}" y="${px(ty + 3.5)}" font-size="${s.font.tick}">${tickLabel(t, step)}</text>`,
      );
    }
  };
  const defs: string[] = [gradient(`${p.id}-loss`, WAKE_LOSS_RAMP), ...p.extraKeys.map((k) => k.defs).filter((d) => d !== '')];
  if (p.flowInfo) defs.push(gradient(`${p.id}-speed`, SPEED_RAMP));
  out.push(`<defs>${defs.join('')}</defs>`);

  // Bottom up: rose legend, rose, its title, key; the colour bars take the rest at the top.
  const legendRows = Math.ceil(roseData(p.site.wind).classes.length / (p.w >= 170 ? 2 : 1));
  const legendH = legendRows * 13;
  const roseR = Math.max(30, Math.min((p.w - 36) / 2, p.h * (p.compact ? 0.2 : 0.22)));
  const legendTop = p.y0 + p.h - legendH + 4;
  const roseCy = legendTop - 14 - roseR - s.font.tick;
  const roseTitleY = roseCy - roseR - s.font.tick - 8;
  const keyRows = (p.hasExclusions ? 3 : 2) + p.modelKeys.length + (p.hasNeighbours ? 1 : 0) + p.extraKeys.length;
  const keyTop = roseTitleY - 18 - 16 * keyRows;
  const barsTop = p.y0 + 18,
    barsRoom = keyTop - 18 - barsTop;
  const oneBarH = p.flowInfo ? Math.max(36, barsRoom / 2 - 24) : Math.max(40, Math.min(200, barsRoom));
  bar(barsTop, oneBarH, 'Wake loss per turbine (%)', `${p.id}-loss`, p.l0, p.l1, 100);
  if (p.flowInfo) bar(barsTop + oneBarH + 30, oneBarH, 'Hub-height speed (m/s)', `${p.id}-speed`, p.flowInfo.min, p.flowInfo.u, 1);

  const keys: string[] = [];
  let ky = keyTop;
  const keyRow = (symbol: string, label: string) => {
    keys.push(`<g transform="translate(${p.x0 + 8},${px(ky)})">${symbol}<text x="24" y="4">${escapeXml(label)}</text></g>`);
    ky += 16;
  };
  keyRow(`<line x1="0" x2="18" y1="0" y2="0" stroke="${s.siteStroke}" stroke-width="1.6"/>`, 'site boundary');
  keyRow(
    s.name === 'screen'
      ? '<circle cx="9" cy="0" r="6" fill="none" stroke="#1b2733" stroke-width="0.9" stroke-dasharray="3 2.5"/>'
      : '<circle cx="9" cy="0" r="6" fill="none" stroke="#555555" stroke-width="0.6" stroke-dasharray="2.5 2"/>',
    '½ minimum spacing',
  );
  if (p.hasExclusions) keyRow(`<rect x="0" y="-5" width="18" height="10" fill="url(#${p.id}-hatch)" stroke="${s.zoneStroke}"/>`, 'exclusion zone');
  for (const m of p.modelKeys) keyRow(markerSvg(m.shape, 9, 0, 5, `class="model-key" fill="#ffffff" stroke="${s.ink}"`), m.label);
  if (p.hasNeighbours)
    keyRow('<g fill="#d9d9d9" stroke="#5a5a5a"><circle cx="9" cy="0" r="5"/><path d="M5.5,-3.5L12.5,3.5M5.5,3.5L12.5,-3.5"/></g>', 'neighbour (fixed)');
  for (const k of p.extraKeys) keyRow(k.symbol, k.label);
  out.push(`<g class="key">${keys.join('')}</g>`);

  out.push(
    `<text x="${p.x0 + 4}" y="${px(roseTitleY)}" font-weight="bold" font-size="${s.font.panelTitle}">${p.site.wind.series ? `Wind rose (${grouped(p.site.wind.series.speeds.length)} samples, %)` : 'Wind rose (frequency, %)'}</text>`,
  );
  out.push(windRoseSvg(p.site.wind, { cx: p.x0 + p.w / 2, cy: roseCy, radius: roseR, style: s, highlightDeg: p.highlight }));
  const columns = p.w >= 170 ? 2 : 1;
  out.push(roseLegendSvg(p.site.wind, p.x0 + 8, legendTop, 13, columns, (p.w - 12) / columns, s).svg);
  out.push('</g>');
  return out.join('');
}
