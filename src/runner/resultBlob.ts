/**
 * How a result's arrays are stored in a ledger row: layouts (x, y, x_initial, y_initial) as
 * float64 blobs, a farm's turbine models (turbine_types) and a row's collection network
 * (cable_to, cable_type) as JSON lists of integers. Every reader
 * and writer of a ledger (ours or a shard's) goes through these.
 */

/** A float64 array as the blob stored (its bytes, not copied). */
export function blobOfFloats(a: Float64Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** A stored blob back as a float64 array (copied: SQLite's buffer may not be 8-byte aligned). */
export function floatsOfBlob(b: Buffer): Float64Array {
  const copy = new Float64Array(b.byteLength / 8);
  new Uint8Array(copy.buffer).set(b);
  return copy;
}

/** Turbine models as stored. */
export function textOfTurbineTypes(types: Int32Array): string {
  return JSON.stringify(Array.from(types));
}

/** Stored turbine models of a row this ledger wrote (a row that passed the gate). */
export function turbineTypesOfText(text: string): Int32Array {
  return Int32Array.from(JSON.parse(text) as number[]);
}

/** A list of integers (turbine models, a collection network) as stored. */
export const textOfInts = textOfTurbineTypes;
/** A stored list of integers of a row this ledger wrote. */
export const intsOfText = turbineTypesOfText;
