/**
 * Bob Jenkins' lookup3 `hashlittle` (public domain algorithm, 2006), which HDF5 uses to
 * checksum version 2/3 superblocks and other metadata (H5_checksum_lookup3 with initval 0).
 * Byte-wise formulation so it works on any Uint8Array slice; all arithmetic is 32-bit.
 */

function rot(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** lookup3 hashlittle over `bytes` with `initval` (HDF5 uses 0). */
export function lookup3(bytes: Uint8Array, initval = 0): number {
  let length = bytes.length;
  let a = (0xdeadbeef + length + initval) >>> 0;
  let b = a;
  let c = a;
  let k = 0;
  const word = (i: number): number => (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0;
  while (length > 12) {
    a = (a + word(k)) >>> 0;
    b = (b + word(k + 4)) >>> 0;
    c = (c + word(k + 8)) >>> 0;
    // mix(a, b, c)
    a = (a - c) >>> 0;
    a = (a ^ rot(c, 4)) >>> 0;
    c = (c + b) >>> 0;
    b = (b - a) >>> 0;
    b = (b ^ rot(a, 6)) >>> 0;
    a = (a + c) >>> 0;
    c = (c - b) >>> 0;
    c = (c ^ rot(b, 8)) >>> 0;
    b = (b + a) >>> 0;
    a = (a - c) >>> 0;
    a = (a ^ rot(c, 16)) >>> 0;
    c = (c + b) >>> 0;
    b = (b - a) >>> 0;
    b = (b ^ rot(a, 19)) >>> 0;
    a = (a + c) >>> 0;
    c = (c - b) >>> 0;
    c = (c ^ rot(b, 4)) >>> 0;
    b = (b + a) >>> 0;
    length -= 12;
    k += 12;
  }
  if (length === 0) return c;
  // Last block: add the remaining 1..12 bytes (the C switch falls through from the top).
  const at = (i: number): number => (i < length ? bytes[k + i] : 0);
  c = (c + (at(8) | (at(9) << 8) | (at(10) << 16) | (at(11) << 24))) >>> 0;
  b = (b + (at(4) | (at(5) << 8) | (at(6) << 16) | (at(7) << 24))) >>> 0;
  a = (a + (at(0) | (at(1) << 8) | (at(2) << 16) | (at(3) << 24))) >>> 0;
  // final(a, b, c)
  c = (c ^ b) >>> 0;
  c = (c - rot(b, 14)) >>> 0;
  a = (a ^ c) >>> 0;
  a = (a - rot(c, 11)) >>> 0;
  b = (b ^ a) >>> 0;
  b = (b - rot(a, 25)) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rot(b, 16)) >>> 0;
  a = (a ^ c) >>> 0;
  a = (a - rot(c, 4)) >>> 0;
  b = (b ^ a) >>> 0;
  b = (b - rot(a, 14)) >>> 0;
  c = (c ^ b) >>> 0;
  c = (c - rot(b, 24)) >>> 0;
  return c;
}
