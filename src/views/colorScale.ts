/**
 * Colour scales of the hand-drawn plots: piecewise-linear ramps between a few anchor colours.
 * - wake loss: pale yellow (little loss) → orange → dark red (most loss), sequential;
 * - wind speed: deep blue (slowest, inside wakes) → light blue → near-white (free stream).
 */
export type Rgb = readonly [number, number, number];

export const WAKE_LOSS_RAMP: readonly Rgb[] = [
  [255, 245, 190],
  [253, 190, 90],
  [240, 110, 50],
  [200, 40, 40],
  [110, 10, 40],
];
export const SPEED_RAMP: readonly Rgb[] = [
  [20, 40, 110],
  [40, 100, 180],
  [110, 170, 220],
  [200, 228, 245],
  [246, 250, 252],
];

/** Colour at t in [0, 1] (clamped) along a ramp. */
export function rampColor(ramp: readonly Rgb[], t: number): Rgb {
  const clamped = Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
  const pos = clamped * (ramp.length - 1);
  const i = Math.min(ramp.length - 2, Math.floor(pos));
  const f = pos - i;
  const a = ramp[i],
    b = ramp[i + 1];
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * f)) as unknown as Rgb;
}

export function rgbHex(c: Rgb): string {
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A value range that is never empty (so a layout with equal losses still maps to one colour). */
export function nonEmptyRange(lo: number, hi: number): [number, number] {
  if (!(hi > lo)) return [lo, lo + Math.max(1e-6, Math.abs(lo) * 1e-3)];
  return [lo, hi];
}
