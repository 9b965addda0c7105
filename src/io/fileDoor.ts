/**
 * Where a data file a case or campaign names may be (a site file, a bathymetry grid, a wind
 * time-series CSV, a turbine, wind or boundary YAML file, a turbine's power or Ct curve CSV, a
 * neighbours' layout file, an IEA37 layout's `$ref`), and what its refusals may quote. With
 * boundedRead.ts (regular files only, size capped before reading) it is the one door every such
 * file goes through; `namedFile` checks all of it at the field that names the file:
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
import { InputError } from '../util/errors.js';
import { requireRegularFile, UnreadableFile, type FileRole } from './boundedRead.js';

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

/**
 * A file named at a field, refused before a byte of it was read: `reason` names the file (its
 * path, and the real path behind a link) but not the field; the message puts the naming file and
 * the field in front (`case.yaml (turbine): …`), which a reader that knows the field's line
 * replaces by `case.yaml:3: turbine: …` (caseFile.ts, the campaign's `anchored`).
 */
export class NamedFileRefused extends InputError {
  constructor(
    readonly reason: string,
    namingFile: string,
    field: string,
  ) {
    super(`${namingFile} (${field}): ${reason}`);
  }
}

/**
 * The door of a file that `namingFile` names at `field` by the path `spec` (relative to
 * `baseDir`, the naming file's folder): the resolved path, once it is known to lie inside that
 * folder (unless `confine` is false: a path the user typed, or the operator allows more), to be a
 * regular file (not a FIFO, a device, a directory, also behind a symbolic link) and to be within
 * `maxBytes`. Refused otherwise with NamedFileRefused, unread. A missing file passes: its reader
 * says it is not found as it always did. The reader still reads it bounded (boundedRead.ts).
 */
export function namedFile(spec: string, baseDir: string, namingFile: string, field: string, role: FileRole, maxBytes: number, confine = true): string {
  const file = path.resolve(baseDir, spec);
  const outside = confine ? outsideFolderProblem(file, baseDir) : null;
  if (outside) throw new NamedFileRefused(outside, namingFile, field);
  if (!fs.existsSync(file)) return file;
  try {
    requireRegularFile(file, role, maxBytes);
  } catch (err) {
    if (err instanceof UnreadableFile) throw new NamedFileRefused(`${file}: ${err.reason}`, namingFile, field);
    throw err;
  }
  return file;
}
