/**
 * Where a data file a case or campaign names may be (a site file, a bathymetry grid, a wind
 * time-series CSV), and what its refusals may quote. With boundedRead.ts (regular files only, size
 * capped before reading) it is the one door every such file goes through:
 *
 * - Confined: the path, symbolic links followed, must lie inside the folder of the file that
 *   names it (subfolders included), as a windIO `!include` must lie inside its plant folder. A
 *   path leaving it (`bathymetry: ../../../../etc/passwd`, or a `site.wrg` that is a symbolic link
 *   to /etc/passwd) is refused unread, unless the operator allows it with
 *   `--allow-include-outside` (WFLO_ALLOW_INCLUDE_OUTSIDE=1, inherited by child processes).
 * - Not quoted before recognised: a reader quotes a cell or a token of a file only once the file
 *   has shown itself to be of its format (a CSV header naming one of the format's columns, a
 *   `.wrg` header of five numbers); before that it says what it expected, without the content.
 *   A file that is not of the format named (/etc/passwd as `depth.csv`) prints none of its bytes.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ALLOW_OUTSIDE_ENV = 'WFLO_ALLOW_INCLUDE_OUTSIDE';
export const ALLOW_OUTSIDE_OPTION = '--allow-include-outside';

export const filesMayLeaveFolder = (): boolean => process.env[ALLOW_OUTSIDE_ENV] === '1';

/** Whether the real path `real` lies inside `folder` (itself a real path). */
export function isInside(real: string, folder: string): boolean {
  const rel = path.relative(folder, real);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** The real path of `p`, or `p` resolved when it does not exist (yet). */
function realOrResolved(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Why the data file `file` (resolved) may not be read when named from a file in `baseDir`, or null
 * when it may: outside that folder, symbolic links followed, and not allowed by the operator.
 * The message has no file name in front (the caller names the field that gave the path).
 */
export function outsideFolderProblem(file: string, baseDir: string): string | null {
  if (filesMayLeaveFolder()) return null;
  const folder = realOrResolved(baseDir);
  const real = realOrResolved(file);
  if (isInside(real, folder)) return null;
  const shown = real === path.resolve(file) ? real : `${path.resolve(file)} (${real})`;
  return `${shown} is outside the folder ${folder} of the file naming it; refused unread (${ALLOW_OUTSIDE_OPTION} allows it)`;
}
