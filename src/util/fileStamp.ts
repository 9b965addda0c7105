/**
 * A file's stamp: device, inode, size, and modification and change times in nanoseconds, as one
 * string. Two equal stamps of a path mean the same file, untouched in between: writing it, renaming
 * another file over it, copying it or even restoring its mtime changes the change time (ctime).
 * Lets a reader skip opening a file it already knows (recovery and the exporter's own last file).
 */
import fs from 'node:fs';

/** The stamp of `file`, or null when it cannot be stat'ed. */
export function fileStamp(file: string): string | null {
  try {
    const s = fs.statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return null;
  }
}
