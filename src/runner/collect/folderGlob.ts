/**
 * The shard folders `wflo collect --from` names: each argument is a folder or a pattern with
 * `*`, `?` or `[…]` in any path component (quoted, so the shell leaves it to us; an unquoted
 * pattern the shell already expanded arrives as several folders, which is the same thing).
 * Matches are folders only, in natural order (shard-2 before shard-10), without duplicates. A
 * plain folder that does not exist and a pattern that matches nothing are returned as problems.
 */
import fs from 'node:fs';
import path from 'node:path';
import { globToRegExp } from '../../util/glob.js';

const WILDCARD = /[*?[]/;

export const naturalCompare = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Expand one pattern to existing paths (folders and files alike; the caller sorts them out). */
function expand(pattern: string): string[] {
  const abs = path.resolve(pattern);
  const parts = abs.split(path.sep).filter((p) => p !== '');
  let current: string[] = [path.sep];
  for (const part of parts) {
    const next: string[] = [];
    if (!WILDCARD.test(part)) {
      for (const base of current) next.push(path.join(base, part));
    } else {
      const re = globToRegExp(part, '--from');
      for (const base of current) {
        let names: string[];
        try {
          names = fs.readdirSync(base);
        } catch {
          continue;
        }
        for (const n of names) if (re.test(n) && !(n.startsWith('.') && !part.startsWith('.'))) next.push(path.join(base, n));
      }
    }
    current = next;
  }
  return current.filter((p) => fs.existsSync(p));
}

export interface FolderSelection {
  folders: string[];
  /** One line each: a plain folder that is missing, or a pattern that matched nothing. */
  problems: { source: string; message: string }[];
}

export function selectFolders(sources: readonly string[]): FolderSelection {
  const seen = new Set<string>();
  const folders: string[] = [];
  const problems: FolderSelection['problems'] = [];
  for (const source of sources) {
    const wild = WILDCARD.test(source);
    const matches = expand(source);
    if (!wild && matches.length === 0) {
      problems.push({ source, message: 'folder not found' });
      continue;
    }
    if (!wild && !isDir(matches[0])) {
      problems.push({ source, message: 'not a folder' });
      continue;
    }
    const dirs = matches.filter(isDir).sort(naturalCompare);
    if (dirs.length === 0) {
      problems.push({ source, message: 'no folder matches this pattern' });
      continue;
    }
    for (const d of dirs) {
      if (!seen.has(d)) {
        seen.add(d);
        folders.push(d);
      }
    }
  }
  return { folders, problems };
}
