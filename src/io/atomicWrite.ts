/**
 * Write a small text file atomically: temp file in the same folder, fsync, rename, fsync the
 * folder. A reader sees the old file or the new one, never a partial one; on failure the temp file
 * is removed and the error says which file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RuntimeFailure } from '../util/errors.js';

export function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = fs.openSync(tmp, 'w');
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    try {
      const dfd = fs.openSync(dir, 'r');
      try {
        fs.fsyncSync(dfd);
      } finally {
        fs.closeSync(dfd);
      }
    } catch {
      /* some file systems cannot fsync a directory; the rename is still atomic */
    }
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* nothing to clean */
    }
    const e = err as NodeJS.ErrnoException;
    throw new RuntimeFailure(`${file}: cannot write (${e.code ?? e.message})`);
  }
}
