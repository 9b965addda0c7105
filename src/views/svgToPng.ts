/**
 * PNG from an SVG string with resvg (a Rust SVG renderer, no browser), at the SVG's own size or
 * scaled to a requested width. Text uses the system's fonts (Liberation Sans or DejaVu Sans on
 * Debian).
 */
import { Resvg } from '@resvg/resvg-js';

export function svgToPng(svg: string, width?: number): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: width ? { mode: 'width', value: width } : { mode: 'original' },
    background: '#ffffff',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'Liberation Sans' },
  });
  return resvg.render().asPng();
}
