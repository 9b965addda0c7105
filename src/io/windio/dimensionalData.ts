/**
 * windIO's `multi_dimensional_data`: a quantity given as one number, or as `{data, dims}` where
 * `dims` names the axis of each nesting level of `data` (`dims: [wind_direction, wind_speed]`:
 * `data[d][s]`). Read into a flat Float64Array over the axes the caller wants, in the caller's
 * order, broadcasting the axes the data does not depend on.
 *
 * Strict by design (the whole point of `dims` is that the axis order is never guessed): an array
 * without `dims`, a bare list, an axis name the quantity cannot depend on, a repeated axis and a
 * shape that does not match the coordinate lengths are each one InputError line at the node.
 */
import type { WindioNode } from './windioTree.js';

export interface Axis {
  name: string;
  length: number;
}

/** Axes windIO defines that a site-wide quantity cannot depend on (griddedResource.ts reads the ones over position). */
const UNSUPPORTED_AXES: Readonly<Record<string, string>> = {
  wind_turbine: 'per-turbine resources are not supported (wflo uses one site-wide wind resource)',
  x: 'only weibull_a, weibull_k, sector_probability and turbulence_intensity may vary with position (a per-point site)',
  y: 'only weibull_a, weibull_k, sector_probability and turbulence_intensity may vary with position (a per-point site)',
  height: 'only weibull_a, weibull_k, sector_probability and turbulence_intensity may vary with height (over x and y)',
};

export interface DimensionalValues {
  /** Flat, row-major over the requested axes (the first axis varies slowest). */
  values: Float64Array;
  /** The axes the data actually depends on, in the file's order. */
  dims: string[];
}

/**
 * Read `node` (a number or `{data, dims}`) over `axes`; the result has Π axes[i].length entries,
 * layout `values[((i0 · n1) + i1) · n2 + i2 …]` for axes [a0, a1, a2 …].
 */
export function readDimensional(node: WindioNode, axes: readonly Axis[]): DimensionalValues {
  const size = axes.reduce((p, a) => p * a.length, 1);
  const names = axes.map((a) => a.name);
  if (node.isScalar) {
    return { values: new Float64Array(size).fill(node.number('a number or {data, dims}')), dims: [] };
  }
  if (node.isSeq) {
    node.fail(`a bare list has no axis order: give {data: [...], dims: [${names.join(', ')}]} (dims in the order data nests)`);
  }
  if (!node.isMap) node.fail('expected a number or {data, dims}');
  const data = node.get('data');
  const dimsNode = node.get('dims');
  if (!data.exists) data.fail('missing (windIO data are given as {data, dims})');
  if (data.isScalar) {
    if (dimsNode.exists && dimsNode.length > 0) dimsNode.fail(`data is a single number but dims lists ${dimsNode.length} axes`);
    return { values: new Float64Array(size).fill(data.number()), dims: [] };
  }
  if (!data.isSeq) data.fail('expected a number or a (nested) list of numbers');
  if (!dimsNode.exists) {
    dimsNode.fail(`missing: data is an array, so dims must give its axis order (from: ${names.join(', ')})`);
  }
  if (!dimsNode.isSeq) dimsNode.fail('expected a list of axis names');
  const dims: string[] = [];
  dimsNode.items().forEach((item) => {
    const name = item.scalar;
    if (typeof name !== 'string') item.fail(`expected an axis name (${names.join(', ')}), got ${String(name)}`);
    const n = name as string;
    if (!names.includes(n)) {
      if (UNSUPPORTED_AXES[n]) item.fail(`'${n}': ${UNSUPPORTED_AXES[n]}`);
      item.fail(`'${n}' is not an axis this quantity can depend on (allowed: ${names.join(', ')})`);
    }
    if (dims.includes(n)) item.fail(`axis '${n}' is listed twice`);
    dims.push(n);
  });
  if (dims.length === 0) dimsNode.fail('dims is empty but data is an array');
  const shape = dims.map((d) => axes[names.indexOf(d)].length);
  const inFileOrder = new Float64Array(shape.reduce((p, n) => p * n, 1));
  let next = 0;
  const shapeText = `dims [${dims.join(', ')}] need shape ${shape.join(' × ')}`;
  const walk = (n: WindioNode, level: number): void => {
    if (level === dims.length) {
      if (!n.isScalar) n.fail(`${shapeText}, but data nests deeper than ${dims.length} level${dims.length === 1 ? '' : 's'} here`);
      inFileOrder[next++] = n.number();
      return;
    }
    if (!n.isSeq) n.fail(`${shapeText}, but found ${n.isScalar ? 'a number' : 'a mapping'} at nesting level ${level + 1} (${dims[level]})`);
    if (n.length !== shape[level]) {
      n.fail(`${shapeText}, but this ${dims[level]} level has ${n.length} value${n.length === 1 ? '' : 's'} (dims/shape mismatch)`);
    }
    for (const item of n.items()) walk(item, level + 1);
  };
  walk(data, 0);

  // Transpose / broadcast: for each output index, the input offset is Σ idx[axis(d)] · stride_in(d).
  const inStrideByAxis = new Array<number>(axes.length).fill(0);
  let stride = 1;
  for (let k = dims.length - 1; k >= 0; k--) {
    inStrideByAxis[names.indexOf(dims[k])] = stride;
    stride *= shape[k];
  }
  const values = new Float64Array(size);
  const idx = new Array<number>(axes.length).fill(0);
  for (let out = 0; out < size; out++) {
    let at = 0;
    for (let a = 0; a < axes.length; a++) at += idx[a] * inStrideByAxis[a];
    values[out] = inFileOrder[at];
    for (let a = axes.length - 1; a >= 0; a--) {
      if (++idx[a] < axes[a].length) break;
      idx[a] = 0;
    }
  }
  return { values, dims };
}

/**
 * A coordinate (`wind_direction: [...]`, `wind_speed: 9.8`): a bare list or a single number,
 * or `{data, dims}` with one axis.
 */
export function readCoordinate(node: WindioNode, what: string): Float64Array {
  if (node.isScalar) return Float64Array.of(node.number(what));
  if (node.isSeq) {
    const v = node.numbers(what);
    if (v.length === 0) node.fail(`expected ${what}, got an empty list`);
    return v;
  }
  if (node.isMap && node.get('data').exists) {
    const data = node.get('data');
    if (data.isScalar) return Float64Array.of(data.number(what));
    const dims = node.get('dims');
    if (dims.exists && dims.length > 1) dims.fail(`a coordinate has one axis, got dims with ${dims.length} entries`);
    return data.numbers(what);
  }
  return node.fail(`expected ${what}`);
}
