/**
 * Write a plot or report atomically (temp file beside it, fsync, rename): a reader never sees a
 * half-written file, and a failure leaves any previous file in place. One-line RuntimeFailure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RuntimeFailure } from '../util/errors.js';

export function writeOutputFile(file: string, data: string | Uint8Array): void {
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = fs.openSync(tmp, 'w');
    try {
      if (typeof data === 'string') fs.writeSync(fd, data);
      else fs.writeSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
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
