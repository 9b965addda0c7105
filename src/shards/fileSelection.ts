/**
 * Which files of a directory are shards: a shell-style pattern (`*`, `?`, `[abc]`) matched
 * against entry names (not recursive), hidden entries, the merge's quarantine/ folder and wflo's
 * own outputs excluded, sorted in natural order (worker_2 before worker_10) so "first" means the
 * same thing on every run. Every other matching entry is returned, also when it is not a regular
 * file (a directory, a symlink loop, a FIFO): the byte check reports it instead of skipping it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../util/errors.js';
import { globToRegExp } from '../util/glob.js';

export const DEFAULT_SHARD_PATTERN = '*.h5';

/** Where `merge --on-invalid quarantine` moves invalid files (beside them). */
export const QUARANTINE_FOLDER = 'quarantine';

/** Shell-style pattern -> anchored RegExp. */
export const patternToRegExp = (pattern: string): RegExp => globToRegExp(pattern, '--pattern');

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** Sorted absolute paths of the entries in `dir` matching `pattern`, minus `exclude`. */
export function listShardFiles(dir: string, pattern: string, exclude: string[] = []): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT' ? `${dir}: no such directory` : code === 'ENOTDIR' ? `${dir}: not a directory` : `${dir}: cannot list (${(err as Error).message})`,
    );
  }
  const regex = patternToRegExp(pattern);
  const excluded = new Set(exclude.map((p) => path.resolve(p)));
  const isQuarantine = (e: fs.Dirent): boolean => e.name === QUARANTINE_FOLDER && e.isDirectory();
  return entries
    .filter((e) => !e.name.startsWith('.') && regex.test(e.name) && !isQuarantine(e))
    .map((e) => path.resolve(dir, e.name))
    .filter((p) => !excluded.has(p))
    .sort((a, b) => naturalOrder.compare(path.basename(a), path.basename(b)) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Files from paths the user named: each folder listed with `pattern`, each other path taken as
 * given (a file, or a symlink loop or FIFO the byte check will report). Duplicates dropped,
 * folder order kept. A path that does not exist is an InputError.
 */
export function shardFilesOfPaths(targets: string[], pattern: string, exclude: string[] = []): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const excluded = new Set(exclude.map((p) => path.resolve(p)));
  for (const target of targets) {
    let isDirectory = false;
    try {
      isDirectory = fs.statSync(target).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      let exists = true;
      try {
        fs.lstatSync(target);
      } catch {
        exists = false;
      }
      if (!exists) throw new InputError(`${target}: no such file or directory`);
      if (code !== 'ELOOP' && code !== 'ENOENT' && code !== 'EACCES') throw new InputError(`${target}: ${(err as Error).message}`);
    }
    const files = isDirectory ? listShardFiles(target, pattern, exclude) : [path.resolve(target)];
    for (const file of files) {
      if (seen.has(file) || excluded.has(file)) continue;
      seen.add(file);
      out.push(file);
    }
  }
  return out;
}
