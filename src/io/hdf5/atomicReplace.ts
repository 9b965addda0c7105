/**
 * File-system steps of an atomic replace: a temp name in the target's folder (so the final
 * rename cannot cross file systems), fsync of the file and of the folder, rename into place,
 * and removal of temp files left by writers that were killed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isProcessAlive } from './writerLock.js';

const TEMP_MARK = '.tmp-';

/** `<dir>/.<base>.tmp-<pid>-<random>`: hidden, same folder, names its writer's pid. */
export function tempPathFor(targetPath: string): string {
  const dir = path.dirname(targetPath);
  const base = path.basename(targetPath);
  return path.join(dir, `.${base}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** Remove temp files of `targetPath` whose writer process is gone. Returns the removed paths. */
export function removeStaleTemps(targetPath: string): string[] {
  const dir = path.dirname(targetPath);
  const prefix = `.${path.basename(targetPath)}${TEMP_MARK}`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid === process.pid || isProcessAlive(pid)) continue;
    const full = path.join(dir, name);
    // Best effort: a folder that refuses removals (EPERM) fails the write itself, with its own errno.
    try {
      fs.unlinkSync(full);
    } catch {
      continue;
    }
    removed.push(full);
  }
  return removed;
}

/** fsync a file's data and metadata to disk. */
export function fsyncFile(filePath: string): void {
  const fd = fs.openSync(filePath, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** fsync a folder so a rename inside it survives a power cut (no-op where folders cannot be fsynced). */
export function fsyncDir(dirPath: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dirPath, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Rename the verified temp file over the target and make the rename durable. */
export function commitTemp(tempPath: string, targetPath: string): void {
  fs.renameSync(tempPath, targetPath);
  fsyncDir(path.dirname(targetPath));
}

/** Best-effort removal of a temp file on an error path. */
export function discardTemp(tempPath: string): void {
  try {
    fs.rmSync(tempPath, { force: true });
  } catch {
    /* the original error is the one worth reporting */
  }
}
