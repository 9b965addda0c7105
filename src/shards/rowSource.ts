/**
 * Where a record read from another pipeline's file came from, as the `/source` column of a merged
 * file and of the ledger says it: `adopted:<file>`, the file named as the user reached it (the
 * path they gave, joined with the file's place inside a folder they gave: `adopted:
 * layouts.h5_temp/worker_41002.h5`). A row of a file that already says it was adopted from a named
 * file (a `wflo shards merge` output, another campaign's layouts.h5) keeps that name, so the
 * worker file a row came from survives a merge and an adoption. The text is the file's own claim
 * (untrusted): only `adopted:<something>` is taken, made one printable ASCII line.
 */
import path from 'node:path';
import { printable } from '../util/printable.js';

export const ADOPTED_PREFIX = 'adopted:';

/** Printable ASCII on one line (control characters, separators and other characters become `?`). */
export function asciiLabel(text: string): string {
  // eslint-disable-next-line no-control-regex
  return printable(text).replace(/[^\x20-\x7e]/g, '?');
}

/** A file's `/source` value, when it names the file the row was adopted from; otherwise undefined. */
export function claimedSource(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\0+$/, '').trim();
  if (!text.startsWith(ADOPTED_PREFIX) || text.length === ADOPTED_PREFIX.length) return undefined;
  return asciiLabel(text);
}

/**
 * `file` as the user named it: among `inputs` (paths as given), the first that is the file itself
 * or a folder holding it, joined with the file's path inside that folder (normalized: `./a/` and
 * `a` give `a/worker_1.h5`). Absolute when no input names it.
 */
export function fileLabelOf(file: string, inputs: readonly string[]): string {
  const resolved = path.resolve(file);
  for (const input of inputs) {
    const base = path.resolve(input);
    if (base === resolved) return path.normalize(input);
    const inside = path.relative(base, resolved);
    if (inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside)) return path.join(input, inside);
  }
  return resolved;
}

/** The source a row read from `fileLabel` carries: its own claim when it has one, else `adopted:<fileLabel>`. */
export function rowSourceOf(claimed: string | undefined, fileLabel: string): string {
  return claimed ?? `${ADOPTED_PREFIX}${asciiLabel(fileLabel)}`;
}
