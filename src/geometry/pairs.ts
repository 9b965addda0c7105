/**
 * Turbine pairs in the order every spacing function uses: (0,1), (0,2), …, (0,n−1), (1,2), …,
 * (n−2,n−1), i.e. row by row of the strict upper triangle. A per-pair array (multipliers,
 * shifts) has pairCount(n) entries and pair (i, j), i < j, is at pairIndex(i, j, n).
 */

export function pairCount(turbineCount: number): number {
  return (turbineCount * (turbineCount - 1)) / 2;
}

/** Index of pair (i, j), 0 <= i < j < n. */
export function pairIndex(i: number, j: number, turbineCount: number): number {
  return i * turbineCount - (i * (i + 1)) / 2 + (j - i - 1);
}
