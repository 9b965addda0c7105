/**
 * The first, library-free look at a worker file: size, HDF5 signature and superblock. Decides
 * `empty`, `no_signature`, `truncated` and the corrupt-superblock kind of `unreadable` without
 * ever handing the file to HDF5; everything else goes on to the probe (shardReader.ts).
 */
import fs from 'node:fs';
import { readSuperblock, type SuperblockInfo } from './superblock.js';
import type { ShardClass } from './shardTypes.js';

export interface ByteCheck {
  bytes: number;
  /** Modification time when checked (a merge leaves files that changed since in place). */
  mtimeMs: number;
  /** Set when the bytes alone decide the class. */
  class?: Extract<ShardClass, 'empty' | 'no_signature' | 'truncated' | 'unreadable'>;
  detail: string;
  superblock?: SuperblockInfo;
  /** Bytes past the superblock's end-of-file address: data written after the last flush is not reachable. */
  trailingBytes: number;
}

export function checkBytes(filePath: string): ByteCheck {
  let fd: number;
  let bytes: number;
  let mtimeMs: number;
  try {
    fd = fs.openSync(filePath, 'r');
    const stat = fs.fstatSync(fd);
    bytes = stat.size;
    mtimeMs = stat.mtimeMs;
  } catch (err) {
    return { bytes: 0, mtimeMs: 0, class: 'unreadable', detail: `cannot read the file: ${(err as Error).message}`, trailingBytes: 0 };
  }
  try {
    if (bytes === 0) return { bytes, mtimeMs, class: 'empty', detail: 'file is 0 bytes', trailingBytes: 0 };
    const read = (position: number, length: number): Uint8Array => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, bytes - position)));
      let got = 0;
      while (got < buffer.length) {
        const n = fs.readSync(fd, buffer, got, buffer.length - got, position + got);
        if (n === 0) break;
        got += n;
      }
      return buffer.subarray(0, got);
    };
    const result = readSuperblock(read, bytes);
    switch (result.kind) {
      case 'no_signature':
        return { bytes, mtimeMs, class: 'no_signature', detail: result.detail, trailingBytes: 0 };
      case 'truncated':
        return { bytes, mtimeMs, class: 'truncated', detail: result.detail, superblock: result.info, trailingBytes: 0 };
      case 'corrupt':
        return { bytes, mtimeMs, class: 'unreadable', detail: result.detail, superblock: result.info, trailingBytes: 0 };
      default: {
        const info = result.info;
        const trailingBytes = info.endOfFile !== null ? bytes - info.endOfFile : 0;
        const flags = info.version >= 2 && (info.consistencyFlags & 0x5) !== 0 ? '; superblock marks the file as still open for writing' : '';
        return { bytes, mtimeMs, detail: `superblock v${info.version} at offset ${info.signatureOffset}${flags}`, superblock: info, trailingBytes };
      }
    }
  } catch (err) {
    return { bytes: 0, mtimeMs, class: 'unreadable', detail: `cannot read the file: ${(err as Error).message}`, trailingBytes: 0 };
  } finally {
    fs.closeSync(fd);
  }
}
