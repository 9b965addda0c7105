/**
 * Turbines ordered by vertical strips, for pair loops that only care about pairs closer than a
 * reach r (the spacing penalty). Strips are at least r wide, so two turbines closer than r lie
 * in the same strip or in neighbouring strips, and in the strip order the turbines of strips a
 * and a + 1 are contiguous: for the turbine at order position u in strip a, the candidates are
 * positions u+1 … stripStart[a+2]−1. A counting sort (O(n + strips), no comparisons) builds it.
 *
 * The arrays are module scratch reused between calls (grown when needed), so the hot loop does
 * not allocate; the result is only valid until the next call.
 */

export interface StripOrder {
  /** Turbine indices, strip by strip (within a strip by turbine index). */
  order: Uint32Array;
  /** Turbines of strip a are order[stripStart[a]] … order[stripStart[a+1] − 1]; length stripCount + 1. */
  stripStart: Int32Array;
  stripCount: number;
}

/** Widen strips by this fraction so that rounding at a strip edge cannot hide a pair closer than r. */
const STRIP_WIDTH_MARGIN = 1e-9;

let order = new Uint32Array(0);
let stripByTurbine = new Int32Array(0);
let stripStart = new Int32Array(0);

/**
 * Strip order for reach r. When strips would not help (fewer than 3, non-finite x, r <= 0) it is
 * one strip in index order, i.e. the plain loop over all pairs.
 */
export function orderByStrips(x: Float64Array, reach: number): StripOrder {
  const count = x.length;
  if (order.length < count) {
    order = new Uint32Array(count);
    stripByTurbine = new Int32Array(count);
  }
  let minX = Infinity,
    maxX = -Infinity;
  for (let i = 0; i < count; i++) {
    const xi = x[i]!;
    if (xi < minX) minX = xi;
    if (xi > maxX) maxX = xi;
  }
  const span = maxX - minX;
  // At most n strips: more would be empty and cost time without removing pairs.
  const width = Math.max(reach * (1 + STRIP_WIDTH_MARGIN), span / count);
  const stripCount = Number.isFinite(span) && reach > 0 ? Math.min(count, Math.floor(span / width) + 1) : 1;
  if (stripCount < 3) {
    for (let i = 0; i < count; i++) order[i] = i;
    if (stripStart.length < 2) stripStart = new Int32Array(2);
    stripStart[0] = 0;
    stripStart[1] = count;
    return { order, stripStart, stripCount: 1 };
  }
  if (stripStart.length < stripCount + 1) stripStart = new Int32Array(stripCount + 1);
  stripStart.fill(0, 0, stripCount + 1);
  for (let i = 0; i < count; i++) {
    const strip = Math.min(stripCount - 1, Math.floor((x[i]! - minX) / width));
    stripByTurbine[i] = strip;
    stripStart[strip + 1]!++;
  }
  for (let a = 0; a < stripCount; a++) stripStart[a + 1]! += stripStart[a]!;
  // Place turbines using the starts as cursors, then shift them back to starts.
  for (let i = 0; i < count; i++) order[stripStart[stripByTurbine[i]!]!++] = i;
  for (let a = stripCount; a > 0; a--) stripStart[a] = stripStart[a - 1]!;
  stripStart[0] = 0;
  return { order, stripStart, stripCount };
}
