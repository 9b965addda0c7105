/** Small helpers for writing SVG/HTML text by hand: escaping and compact number formatting. */

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/** A coordinate with at most two decimals (SVG size matters in reports with many plots). */
export function px(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/** 1234567.8 → "1,234,568" (grouped, no decimals). */
export function grouped(v: number, digits = 0): string {
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function percent(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)} %`;
}
