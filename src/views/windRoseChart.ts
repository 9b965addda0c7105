/**
 * The wind rose as a Vega-Lite radial chart: one equal-angle sector per rose direction, centred
 * on it (0° = north at the top, clockwise, the direction the wind comes from), radius ∝ √frequency
 * so areas compare frequencies; the sector of a highlighted direction (the flow plot's) is darker.
 */
import type { WindResource } from '../physics/windResource.js';
import type { VegaLiteSpec } from './vegaSvg.js';

export function directionFrequencies(wind: WindResource): { direction: number; frequency: number }[] {
  const nd = wind.directionsDeg.length, ns = wind.speeds.length;
  const out: { direction: number; frequency: number }[] = [];
  for (let d = 0; d < nd; d++) {
    let f = 0;
    for (let s = 0; s < ns; s++) f += wind.probability[d * ns + s];
    out.push({ direction: wind.directionsDeg[d], frequency: f });
  }
  return out.sort((a, b) => a.direction - b.direction);
}

export function windRoseSpec(wind: WindResource, size: number, highlightDeg?: number): VegaLiteSpec {
  const rows = directionFrequencies(wind);
  const halfDeg = 180 / Math.max(1, rows.length);
  const nearest = highlightDeg === undefined ? -1
    : rows.reduce((best, r, i) => (Math.abs(((r.direction - highlightDeg + 540) % 360) - 180) < Math.abs(((rows[best].direction - highlightDeg + 540) % 360) - 180) ? i : best), 0);
  const values = rows.map((r, i) => ({
    ...r, from: r.direction - halfDeg, to: r.direction + halfDeg, highlight: i === nearest ? 'flow' : 'rose', percent: r.frequency * 100,
  }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: size,
    height: size,
    background: 'transparent',
    padding: 2,
    data: { values },
    mark: { type: 'arc', stroke: '#ffffff', strokeWidth: 0.6 },
    encoding: {
      // Angles in degrees from north, clockwise: Vega's arc angles start at 12 o'clock, clockwise.
      theta: { field: 'from', type: 'quantitative', stack: null, scale: { domain: [0, 360], range: [0, 2 * Math.PI], clamp: false } },
      theta2: { field: 'to' },
      radius: { field: 'frequency', type: 'quantitative', scale: { type: 'sqrt', zero: true, rangeMin: 0 } },
      color: {
        field: 'highlight', type: 'nominal', legend: null,
        scale: { domain: ['rose', 'flow'], range: ['#4f81b8', '#16325c'] },
      },
      tooltip: [
        { field: 'direction', type: 'quantitative', title: 'from (°)' },
        { field: 'percent', type: 'quantitative', title: 'frequency (%)', format: '.1f' },
      ],
    },
    view: { stroke: null },
    config: { font: 'Liberation Sans, DejaVu Sans, Arial, sans-serif' },
  } as VegaLiteSpec;
}
