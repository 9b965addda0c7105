/** Types of the part of d3-dsv (ISC, no bundled types) that io/timeSeriesCsv.ts uses. */
declare module 'd3-dsv' {
  /** RFC 4180 rows of comma-separated text (quoted fields may hold commas, quotes and newlines). */
  export function csvParseRows(text: string): string[][];
}
