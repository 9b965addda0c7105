/**
 * The files wflo writes in a folder of its own (a campaign's output folder: ledger, its WAL, the
 * run lock, audit log, layouts.h5) are never symbolic links: SQLite, appends and reads follow a
 * link, so a link planted there (dangling or not) would make wflo create, write or read a file
 * outside the folder. `symlinkAmong` names the first such entry (lstat: the link itself, not what
 * it points to); `refuseSymlinks` throws it as one InputError line (exit 2). The folder itself
 * may be a link: the user chose it.
 */
import fs from 'node:fs';
import { InputError } from '../util/errors.js';

/** The first of `files` that is a symbolic link, with where it points ('' when unreadable), or null. */
export function symlinkAmong(files: readonly string[]): { file: string; target: string } | null {
  for (const file of files) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(file);
    } catch {
      continue;
    } // absent: nothing to follow
    if (!st.isSymbolicLink()) continue;
    let target = '';
    try {
      target = fs.readlinkSync(file);
    } catch {
      /* gone meanwhile */
    }
    return { file, target };
  }
  return null;
}

/** The one line for a link at `file` pointing to `target`. */
export function symlinkMessage(file: string, target: string): string {
  return `${file} is a symbolic link${target ? ` (to ${JSON.stringify(target)})` : ''}: wflo does not follow links out of an output folder; remove it, or give another output folder`;
}

/** Throw an InputError naming the first of `files` that is a symbolic link. */
export function refuseSymlinks(files: readonly string[]): void {
  const found = symlinkAmong(files);
  if (found) throw new InputError(symlinkMessage(found.file, found.target));
}
