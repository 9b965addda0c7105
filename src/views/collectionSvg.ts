/**
 * The collection system and the sea floor on the layout plot (layoutSvg.ts): each cable a straight
 * line from a turbine to the next node toward its substation, coloured by cable type and thicker for
 * a type of larger capacity; each substation a dark square; the water depth as a raster under the
 * site (light shallow → dark deep) with its range in the key. Elements carry what tests read back:
 * `data-from`, `data-to` (turbine index, or `s<k>` for substation k), `data-cable` (type name),
 * `data-length` (m) on every cable; `data-x`, `data-y` on every substation; `data-min`, `data-max`
 * (m) on the depth raster. The key gives each cable type's length and cost (in the model's
 * currency) and says whether the network is the one stored with the layout or routed for the plot.
 */
import type { CollectionNetwork } from '../geometry/collection/collectionNetwork.js';
import type { CableType } from '../geometry/collection/cableCatalogue.js';
import type { WaterDepthField } from '../cost/economicModel.js';
import { rampColor, rgbHex, type Rgb } from './colorScale.js';
import { encodeRgbPng } from './pngEncode.js';
import { escapeXml, grouped, px } from './svgMarkup.js';
import { millionsText } from '../cost/currency.js';

/** What the plot draws of a collection system: the routed network, its catalogue and substations. */
export interface CollectionDrawing {
  network: CollectionNetwork;
  cables: readonly CableType[];
  substations: readonly (readonly [number, number])[];
  /** Where the network comes from: stored with the layout (its cost figures' network), or routed for the plot. */
  origin?: 'stored' | 'routed';
  /** Why a stored network was not drawn (it is not one of this layout). */
  note?: string;
  /** The currency of the cable costs (cost/currency.ts; default EUR, the DTU model's). */
  currency?: string;
}

/** Cable colours by type index (catalogue order), distinguishable in print and for most colour vision. */
const CABLE_COLOURS = ['#1f6fb4', '#e08214', '#2b9a4a', '#8e3fa5', '#c23b3b', '#4d4d4d'];
/** Sea floor: shallow (pale sand-blue) → deep (dark blue). */
export const DEPTH_RAMP: readonly Rgb[] = [
  [236, 244, 246],
  [178, 211, 228],
  [106, 160, 204],
  [48, 100, 160],
  [18, 48, 100],
];

export const cableColour = (t: number): string => CABLE_COLOURS[t % CABLE_COLOURS.length];
const cableWidth = (d: CollectionDrawing, t: number): number => {
  const caps = d.cables.map((c) => c.capacity);
  const lo = Math.min(...caps),
    hi = Math.max(...caps);
  return hi > lo ? 1.4 + (2.2 * (d.cables[t].capacity - lo)) / (hi - lo) : 2;
};

/** The cables and substations as one SVG group, in the map's coordinates X(x), Y(y). */
export function collectionLayerSvg(d: CollectionDrawing, x: Float64Array, y: Float64Array, X: (v: number) => number, Y: (v: number) => number): string {
  const n = x.length;
  const at = (node: number): readonly [number, number] => (node < n ? [x[node], y[node]] : d.substations[node - n]);
  // A white casing under each cable keeps it visible on the sea-floor raster and the flow field.
  const casing = d.network.edges.map((e) => {
    const [ax, ay] = at(e.from),
      [bx, by] = at(e.to);
    return `<line x1="${px(X(ax))}" y1="${px(Y(ay))}" x2="${px(X(bx))}" y2="${px(Y(by))}" stroke-width="${px(cableWidth(d, e.cable) + 1.6)}"/>`;
  });
  const lines = d.network.edges.map((e) => {
    const [ax, ay] = at(e.from),
      [bx, by] = at(e.to);
    const to = e.to < n ? String(e.to) : `s${e.to - n}`;
    const name = d.cables[e.cable].name;
    return (
      `<line class="cable" data-from="${e.from}" data-to="${to}" data-cable="${escapeXml(name)}" data-length="${e.length}" ` +
      `x1="${px(X(ax))}" y1="${px(Y(ay))}" x2="${px(X(bx))}" y2="${px(Y(by))}" stroke="${cableColour(e.cable)}" stroke-width="${px(cableWidth(d, e.cable))}">` +
      `<title>${escapeXml(name)}: turbine ${e.from} → ${e.to < n ? `turbine ${e.to}` : `substation ${e.to - n}`}, ${grouped(e.length)} m, carries ${e.load}</title></line>`
    );
  });
  const squares = d.substations.map(([sx, sy], k) => {
    const cx = X(sx),
      cy = Y(sy),
      r = 6;
    return (
      `<rect class="substation" data-substation="${k}" data-x="${sx}" data-y="${sy}" x="${px(cx - r)}" y="${px(cy - r)}" width="${2 * r}" height="${2 * r}">` +
      `<title>substation ${k}: (${sx.toFixed(1)}, ${sy.toFixed(1)}) m</title></rect>`
    );
  });
  return (
    `<g class="cable-casing" stroke="#ffffff" stroke-opacity="0.85" stroke-linecap="round">${casing.join('')}</g>` +
    `<g class="collection"${d.origin ? ` data-origin="${d.origin}"` : ''}${d.note ? ` data-note="${escapeXml(d.note)}"` : ''} stroke-linecap="round">${lines.join('')}</g>` +
    `<g class="substations" fill="#222831" stroke="#ffffff" stroke-width="1.5">${squares.join('')}</g>`
  );
}

/**
 * Key rows of the collection system: one per cable type in use (its total length and, unless
 * `compact`, its cost), the substation, and (unless compact: a thumbnail's key has no room; the
 * collection group's `data-origin` keeps it) whether the network is the stored one or routed here.
 */
export function collectionKeyRows(d: CollectionDrawing, compact = false): { symbol: string; label: string }[] {
  const cur = d.currency ?? 'EUR';
  const rows = d.cables.flatMap((c, t) =>
    d.network.lengthByCable[t] > 0
      ? [
          {
            symbol: `<line x1="0" x2="18" y1="0" y2="0" stroke="${cableColour(t)}" stroke-width="${px(cableWidth(d, t))}"/>`,
            label: compact
              ? `${c.name}: ${grouped(d.network.lengthByCable[t] / 1000, 2)} km`
              : `${c.name} (≤ ${c.capacity}): ${grouped(d.network.lengthByCable[t] / 1000, 2)} km, ${millionsText(d.network.costByCable[t], cur, 2)}`,
          },
        ]
      : [],
  );
  rows.push({ symbol: '<rect x="3" y="-6" width="12" height="12" fill="#222831"/>', label: 'substation' });
  if (d.origin && !compact) {
    rows.push({
      symbol: '',
      label:
        d.origin === 'stored' ? 'cables: the network stored with the layout' : d.note ? `cables routed here (${d.note})` : 'cables routed here (none stored)',
    });
  }
  return rows;
}

/**
 * The water depth over the map frame as an embedded PNG raster (nx × ny cells, light shallow →
 * dark deep), or null when the depth is the same everywhere (nothing to show).
 */
export function depthRasterSvg(
  depth: WaterDepthField,
  frame: { left: number; top: number; minX: number; maxX: number; minY: number; maxY: number },
  width: number,
  height: number,
  nx: number,
  ny: number,
): { svg: string; min: number; max: number } | null {
  const values = new Float64Array(nx * ny);
  let lo = Infinity,
    hi = -Infinity;
  for (let r = 0; r < ny; r++) {
    const wy = frame.maxY - ((r + 0.5) / ny) * (frame.maxY - frame.minY);
    for (let c = 0; c < nx; c++) {
      const wx = frame.minX + ((c + 0.5) / nx) * (frame.maxX - frame.minX);
      const v = depth.at(wx, wy, null);
      values[r * nx + c] = v;
      if (Number.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  if (!(hi > lo)) return null;
  const rgb = new Uint8Array(nx * ny * 3);
  for (let k = 0; k < nx * ny; k++) {
    const c = rampColor(DEPTH_RAMP, (values[k] - lo) / (hi - lo));
    rgb[3 * k] = c[0];
    rgb[3 * k + 1] = c[1];
    rgb[3 * k + 2] = c[2];
  }
  const png = encodeRgbPng(nx, ny, rgb).toString('base64');
  return {
    svg: `<image class="depth" data-min="${lo}" data-max="${hi}" x="${px(frame.left)}" y="${px(frame.top)}" width="${px(width)}" height="${px(height)}" opacity="0.8" preserveAspectRatio="none" href="data:image/png;base64,${png}"/>`,
    min: lo,
    max: hi,
  };
}

/** The key row of the depth raster: a small ramp and the range in metres. */
export function depthKeyRow(id: string, min: number, max: number): { defs: string; symbol: string; label: string } {
  const stops = DEPTH_RAMP.map((c, i) => `<stop offset="${i / (DEPTH_RAMP.length - 1)}" stop-color="${rgbHex(c)}"/>`).join('');
  return {
    defs: `<linearGradient id="${id}-depth" x1="0" y1="0" x2="1" y2="0">${stops}</linearGradient>`,
    symbol: `<rect x="0" y="-5" width="18" height="10" fill="url(#${id}-depth)" stroke="#888888" stroke-width="0.5"/>`,
    label: `water depth ${grouped(min, 1)}–${grouped(max, 1)} m`,
  };
}
