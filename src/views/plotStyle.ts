/**
 * The two looks of the layout plot: `screen` (the default: title with the farm's numbers, tinted
 * site, the flow field on request) and `paper` (for a journal figure: white, no title (the caption
 * says it), no flow field, black site outline, grey hatching, font sizes that read at print size,
 * and an SVG whose width and height are in millimetres: one user unit = 0.25 mm, so the default
 * 640 × 480 is a 160 mm × 120 mm page-wide figure; PNG at 300 dpi).
 */
export type PlotStyleName = 'screen' | 'paper';
export const PLOT_STYLE_NAMES: readonly PlotStyleName[] = ['screen', 'paper'];

export interface PlotStyle {
  name: PlotStyleName;
  /** Default figure size, user units (px on screen, quarter millimetres on paper). */
  width: number;
  height: number;
  title: boolean;
  flowAllowed: boolean;
  /** Millimetres per user unit in the SVG's width/height (0: plain pixels). */
  mmPerUnit: number;
  /** PNG resolution (dots per inch of the SVG's physical size) when mmPerUnit > 0. */
  pngDpi: number;
  font: { tick: number; label: number; panelTitle: number; panel: number; number: number };
  ink: string;
  muted: string;
  siteFill: string;
  siteStroke: string;
  zoneFill: string;
  zoneStroke: string;
  grid: string | null;
}

export const PLOT_STYLES: Record<PlotStyleName, PlotStyle> = {
  screen: {
    name: 'screen',
    width: 900,
    height: 720,
    title: true,
    flowAllowed: true,
    mmPerUnit: 0,
    pngDpi: 96,
    font: { tick: 10, label: 11, panelTitle: 11, panel: 10.5, number: 9 },
    ink: '#1b2733',
    muted: '#5a6b7b',
    siteFill: '#eaf3e4',
    siteStroke: '#2f6b3a',
    zoneFill: '#f6dede',
    zoneStroke: '#c0504d',
    grid: '#e3e8ed',
  },
  paper: {
    name: 'paper',
    width: 640,
    height: 480,
    title: false,
    flowAllowed: false,
    mmPerUnit: 0.25,
    pngDpi: 300,
    font: { tick: 11, label: 12, panelTitle: 11.5, panel: 11, number: 10 },
    ink: '#000000',
    muted: '#444444',
    siteFill: 'none',
    siteStroke: '#000000',
    zoneFill: '#e6e6e6',
    zoneStroke: '#555555',
    grid: '#e8e8e8',
  },
};

/** The figure's outermost `<svg>` with its size in millimetres (paper style), else unchanged. */
export function withPhysicalSize(svg: string, style: PlotStyle, width: number, height: number): string {
  if (!(style.mmPerUnit > 0)) return svg;
  const mm = (v: number) => `${Math.round(v * style.mmPerUnit * 100) / 100}mm`;
  return svg.replace(/^<svg ([^>]*?)width="[\d.]+" height="[\d.]+"/, `<svg $1width="${mm(width)}" height="${mm(height)}"`);
}
