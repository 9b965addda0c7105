/**
 * Which files of a directory are shards: a shell-style pattern (`*`, `?`, `[abc]`) matched
 * against file names (not recursive), hidden files and wflo's own outputs excluded, sorted in
 * natural order (worker_2 before worker_10) so "first" means the same thing on every run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../util/errors.js';

export const DEFAULT_SHARD_PATTERN = '*.h5';

/** Shell-style pattern -> anchored RegExp. */
export function patternToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close === -1) throw new InputError(`--pattern "${pattern}": unclosed "["`);
      const body = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
      source += `[${body.startsWith('!') ? '^' + body.slice(1) : body}]`;
      i = close;
    } else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** Sorted absolute paths of the regular files in `dir` matching `pattern`, minus `exclude`. */
export function listShardFiles(dir: string, pattern: string, exclude: string[] = []): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `${dir}: no such directory` : code === 'ENOTDIR' ? `${dir}: not a directory` : `${dir}: cannot list (${(err as Error).message})`);
  }
  const regex = patternToRegExp(pattern);
  const excluded = new Set(exclude.map((p) => path.resolve(p)));
  const isFile = (e: fs.Dirent): boolean => {
    if (e.isFile()) return true;
    if (!e.isSymbolicLink()) return false;
    try {
      return fs.statSync(path.join(dir, e.name)).isFile(); // follow links to shard files
    } catch {
      return false;
    }
  };
  return entries
    .filter((e) => !e.name.startsWith('.') && regex.test(e.name) && isFile(e))
    .map((e) => path.resolve(dir, e.name))
    .filter((p) => !excluded.has(p))
    .sort((a, b) => naturalOrder.compare(path.basename(a), path.basename(b)) || (a < b ? -1 : a > b ? 1 : 0));
}
