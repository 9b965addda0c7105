/** Layout arrays come in pairs: x[i], y[i] is turbine i. A mismatch is a programming error. */
export function assertSameLength(x: Float64Array, y: Float64Array): void {
  if (x.length !== y.length) {
    throw new RangeError(`x and y must have one entry per turbine, got ${x.length} and ${y.length}`);
  }
}
