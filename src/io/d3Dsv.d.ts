/** Types of the part of d3-dsv (ISC, no bundled types) that io/timeSeriesCsv.ts uses. */
declare module 'd3-dsv' {
  /**
   * RFC 4180 rows of comma-separated text (quoted fields may hold commas, quotes and newlines).
   * With `row`, each row is passed to it as it is split (with its index); rows it maps to null
   * or undefined are dropped from the result.
   */
  export function csvParseRows(text: string): string[][];
  export function csvParseRows<T>(text: string, row: (cells: string[], index: number) => T | null | undefined): T[];
}
