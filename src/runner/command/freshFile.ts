/**
 * Writing the runner's own files (task.json, command.sh, the logs, exit_code) into an attempt
 * folder, which the user's program may write too. Each file is created new (O_CREAT | O_EXCL):
 * whatever stands at that name (a file, a symbolic link to ~/.bashrc, a hard link to another
 * file) is removed first, never written through. A program that plants a link between the
 * removal and the creation makes the creation fail (EEXIST); nothing outside the folder is touched.
 */
import fs from 'node:fs';

const CREATE_NEW = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** Open `file` for writing as a new file (see above); throws on failure. */
export function openFresh(file: string, mode = 0o644): number {
  try {
    return fs.openSync(file, CREATE_NEW, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // rm of a link removes the link; of a folder, the folder (it is in the runner's place).
  fs.rmSync(file, { recursive: true, force: true });
  return fs.openSync(file, CREATE_NEW, mode);
}

/** Write `content` to `file` as a new file (see above); throws on failure. */
export function writeFresh(file: string, content: string | Uint8Array, mode = 0o644): void {
  const fd = openFresh(file, mode);
  try {
    fs.writeFileSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}
