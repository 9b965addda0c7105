/**
 * Files whose writer died with them open (HDF5 1.10+ files, superblock v2/v3, written with
 * libver='latest' or SWMR): the superblock still says "open for writing" and HDF5 refuses to
 * open them. The records flushed before the crash are intact, so the shard doctor reads a
 * temporary copy with the flags cleared, as `h5clear -s` does; the input is never touched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { withConsistencyFlagsCleared, type SuperblockInfo } from './superblock.js';

/** Bit 0: open for writing; bit 2: open for SWMR writing (HDF5 file format spec, II.A). */
const OPEN_FOR_WRITE_FLAGS = 0x5;

/** Whether the superblock says the file is still open for writing (only v2/v3 record it). */
export function leftOpenForWrite(info: SuperblockInfo | undefined): boolean {
  return !!info && info.version >= 2 && (info.consistencyFlags & OPEN_FOR_WRITE_FLAGS) !== 0;
}

/** Copy `file` into `folder` with the consistency flags cleared; returns the copy's path. */
export function clearedCopy(file: string, info: SuperblockInfo, folder: string, index: number): string {
  const copy = path.join(folder, `recover-${index}-${path.basename(file)}`);
  fs.copyFileSync(file, copy);
  const fd = fs.openSync(copy, 'r+');
  try {
    const superblock = Buffer.alloc(info.superblockLength);
    const got = fs.readSync(fd, superblock, 0, superblock.length, info.signatureOffset);
    if (got !== superblock.length) throw new Error(`copy of ${file} is shorter than its superblock`);
    const patched = withConsistencyFlagsCleared(superblock, info.version);
    fs.writeSync(fd, patched, 0, patched.length, info.signatureOffset);
  } finally {
    fs.closeSync(fd);
  }
  return copy;
}
