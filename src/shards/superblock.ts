/**
 * Byte-level reading of an HDF5 file's start, without the HDF5 library: finds the format
 * signature and decodes the superblock to learn where the file must end.
 *
 * Format facts used (HDF5 File Format Specification, version 3.0, section II.A):
 * - The signature is the 8 bytes 89 48 44 46 0d 0a 1a 0a ("\x89HDF\r\n\x1a\n"). It sits at
 *   offset 0 or, when the file has a user block, at 512, 1024, 2048, ... (powers of two).
 * - Superblock versions 0 and 1: version byte at +8, size of offsets at +13, size of lengths at
 *   +14; the addresses (base, free-space info, end of file, driver info) start at +24 (v0) or
 *   +28 (v1, which adds the indexed-storage K and 2 reserved bytes).
 * - Versions 2 and 3: size of offsets at +9, size of lengths at +10, file consistency flags at
 *   +11; then base, superblock extension, end of file and root object header addresses, and a
 *   lookup3 checksum of all preceding superblock bytes.
 * - The end-of-file address is "the absolute address of the first byte past the end of all
 *   HDF5 data" (checked against files h5py writes with a 512-byte user block: it counts the
 *   user block), so the file must be at least that long or it was truncated.
 */
import { lookup3 } from './lookup3.js';

export const HDF5_SIGNATURE = Uint8Array.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the superblock says; addresses are absolute byte offsets (null when undefined). */
export interface SuperblockInfo {
  signatureOffset: number;
  version: number;
  sizeOfOffsets: number;
  sizeOfLengths: number;
  baseAddress: number;
  /** Absolute offset of the first byte past the HDF5 data (the stored end-of-file address). */
  endOfFile: number | null;
  /** Bytes the superblock itself occupies (from the signature). */
  superblockLength: number;
  /** Versions 2/3: whether the stored checksum matches; null for versions 0/1. */
  checksumOk: boolean | null;
  /** Versions 2/3: file consistency flags (bit 0: open for writing, bit 2: SWMR writing). */
  consistencyFlags: number;
}

export type SuperblockResult =
  | { kind: 'ok'; info: SuperblockInfo }
  | { kind: 'no_signature'; detail: string }
  | { kind: 'truncated'; detail: string; info?: SuperblockInfo }
  | { kind: 'corrupt'; detail: string; info?: SuperblockInfo };

/** Offsets where the signature may be: 0, 512, 1024, 2048, ... below `fileSize`. */
export function signatureOffsets(fileSize: number): number[] {
  const offsets = [0];
  for (let offset = 512; offset + HDF5_SIGNATURE.length <= fileSize; offset *= 2) offsets.push(offset);
  return offsets;
}

function matchesSignature(bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < HDF5_SIGNATURE.length; i++) if (bytes[at + i] !== HDF5_SIGNATURE[i]) return false;
  return true;
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export type ByteReader = (position: number, length: number) => Uint8Array;

function readAddress(bytes: Uint8Array, at: number, size: number): number | null {
  let value = 0n;
  let allOnes = true;
  for (let i = size - 1; i >= 0; i--) {
    const byte = bytes[at + i];
    if (byte !== 0xff) allOnes = false;
    value = (value << 8n) | BigInt(byte);
  }
  if (allOnes) return null;
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}

const VALID_SIZES = new Set([2, 4, 8, 16, 32]);

/** Decode the superblock that starts at `offset` (where the signature was found). */
function decodeSuperblock(read: ByteReader, offset: number, fileSize: number): SuperblockResult {
  const head = read(offset, 16);
  if (head.length < 9) {
    return { kind: 'truncated', detail: `file is ${fileSize} bytes: it ends inside the superblock at offset ${offset}` };
  }
  const version = head[8];
  if (version > 3) return { kind: 'corrupt', detail: `superblock version ${version} at offset ${offset} is unknown (expected 0-3)` };
  const sizeOfOffsets = version <= 1 ? head[13] : head[9];
  const sizeOfLengths = version <= 1 ? head[14] : head[10];
  if (head.length < 15 || sizeOfOffsets === undefined) {
    return { kind: 'truncated', detail: `file is ${fileSize} bytes: it ends inside the superblock at offset ${offset}` };
  }
  if (!VALID_SIZES.has(sizeOfOffsets) || !VALID_SIZES.has(sizeOfLengths)) {
    return {
      kind: 'corrupt',
      detail: `superblock at offset ${offset} declares size of offsets ${sizeOfOffsets} and lengths ${sizeOfLengths} (expected 2, 4, 8, 16 or 32)`,
    };
  }
  const addressesAt = version === 0 ? 24 : version === 1 ? 28 : 12;
  const addressCount = 4;
  // v0/1 end with the root group symbol table entry (link name offset + object header address +
  // cache type (4) + reserved (4) + scratch pad (16)); v2/3 end with the 4-byte checksum.
  const superblockLength = version <= 1 ? addressesAt + addressCount * sizeOfOffsets + 2 * sizeOfOffsets + 24 : addressesAt + addressCount * sizeOfOffsets + 4;
  const bytes = read(offset, superblockLength);
  if (bytes.length < superblockLength) {
    return { kind: 'truncated', detail: `file is ${fileSize} bytes: it ends inside the version ${version} superblock (needs ${offset + superblockLength})` };
  }
  const base = readAddress(bytes, addressesAt, sizeOfOffsets) ?? 0;
  const eofIndex = 2; // base, free-space/extension, end of file, driver info/root
  const storedEof = readAddress(bytes, addressesAt + eofIndex * sizeOfOffsets, sizeOfOffsets);
  let checksumOk: boolean | null = null;
  let consistencyFlags = 0;
  if (version >= 2) {
    consistencyFlags = bytes[11];
    const stored =
      (bytes[superblockLength - 4] | (bytes[superblockLength - 3] << 8) | (bytes[superblockLength - 2] << 16) | (bytes[superblockLength - 1] << 24)) >>> 0;
    checksumOk = lookup3(bytes.subarray(0, superblockLength - 4)) === stored;
  } else {
    consistencyFlags = (bytes[20] | (bytes[21] << 8) | (bytes[22] << 16) | (bytes[23] << 24)) >>> 0;
  }
  const info: SuperblockInfo = {
    signatureOffset: offset,
    version,
    sizeOfOffsets,
    sizeOfLengths,
    baseAddress: base,
    endOfFile: storedEof,
    superblockLength,
    checksumOk,
    consistencyFlags,
  };
  if (checksumOk === false) return { kind: 'corrupt', detail: `version ${version} superblock checksum mismatch at offset ${offset}`, info };
  if (info.endOfFile !== null && fileSize < info.endOfFile) {
    return {
      kind: 'truncated',
      detail: `file is ${fileSize} bytes but its superblock (v${version}) records end of file at ${info.endOfFile}; ${info.endOfFile - fileSize} bytes missing`,
      info,
    };
  }
  return { kind: 'ok', info };
}

/**
 * Find the signature and decode the superblock. A file shorter than 8 bytes whose bytes are a
 * prefix of the signature counts as truncated (it was cut inside the signature).
 */
export function readSuperblock(read: ByteReader, fileSize: number): SuperblockResult {
  const start = read(0, Math.min(fileSize, HDF5_SIGNATURE.length));
  if (fileSize < HDF5_SIGNATURE.length && start.length > 0 && start.every((b, i) => b === HDF5_SIGNATURE[i])) {
    return { kind: 'truncated', detail: `file is ${fileSize} bytes: it ends inside the HDF5 signature` };
  }
  const offsets = signatureOffsets(fileSize);
  for (const offset of offsets) {
    const probe = offset === 0 ? start : read(offset, HDF5_SIGNATURE.length);
    if (probe.length === HDF5_SIGNATURE.length && matchesSignature(probe, 0)) return decodeSuperblock(read, offset, fileSize);
  }
  const searched = offsets.length <= 4 ? offsets.join(', ') : `${offsets.slice(0, 3).join(', ')}, ..., ${offsets[offsets.length - 1]}`;
  return { kind: 'no_signature', detail: `HDF5 signature not found at offsets ${searched} (file is ${fileSize} bytes)` };
}

/**
 * A copy of a version 2/3 superblock (`bytes` from the signature, `superblockLength` long) with
 * the file consistency flags cleared and the checksum recomputed: what `h5clear -s` writes, so
 * that HDF5 opens a file whose writer died with it open for writing (bit 0) or SWMR writing
 * (bit 2). Version 0/1 superblocks have no such flags: returned unchanged.
 */
export function withConsistencyFlagsCleared(bytes: Uint8Array, version: number): Uint8Array {
  const patched = Uint8Array.from(bytes);
  if (version < 2) return patched;
  patched[11] = 0;
  const checksum = lookup3(patched.subarray(0, patched.length - 4));
  const at = patched.length - 4;
  patched[at] = checksum & 0xff;
  patched[at + 1] = (checksum >>> 8) & 0xff;
  patched[at + 2] = (checksum >>> 16) & 0xff;
  patched[at + 3] = (checksum >>> 24) & 0xff;
  return patched;
}
