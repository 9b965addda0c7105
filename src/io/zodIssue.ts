/**
 * zod issues as one user-facing line, and the strict-mapping helper every input schema uses:
 * `strict(shape)` is a zod strictObject whose unknown-key error names the nearest known key
 * (`unknown field 'centre'; did you mean 'center'?`). zodToInputError picks the issue to report
 * (an unknown key before the "missing" it causes; inside a union, the branch that got furthest)
 * and locates it with sourceMap.ts: `file:line: field.path: message`.
 */
import { z, type ZodError } from 'zod';
import type { InputError } from '../util/errors.js';
import { unknownKeyMessage } from './didYouMean.js';
import { errorAt, type FieldPath } from './sourceMap.js';
import { describe } from './numbers.js';

/** A mapping that allows exactly the keys of `shape`; unknown keys get a did-you-mean message. */
export function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? unknownKeyMessage(String(iss.keys[0]), known) : undefined),
  });
}

type Issue = z.core.$ZodIssue;

/** Flatten unions: the issue of the branch that got furthest (longest path), unknown keys first. */
function pickIssue(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): { issue: Issue; path: PropertyKey[] } {
  const candidates: { issue: Issue; path: PropertyKey[] }[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors.map((branch) => pickIssue(branch, path));
      // A branch that failed only on the type of the whole value says least.
      branches.sort((a, b) => score(b) - score(a));
      candidates.push(branches[0]);
    } else {
      candidates.push({ issue, path });
    }
  }
  candidates.sort((a, b) => score(b) - score(a));
  return candidates[0];

  function score(c: { issue: Issue; path: PropertyKey[] }): number {
    const wrongWholeType = c.issue.code === 'invalid_type' && c.path.length === prefix.length ? -1000 : 0;
    return c.path.length * 10 + (c.issue.code === 'unrecognized_keys' ? 10_000 : 0) + wrongWholeType;
  }
}

function valueAt(root: unknown, path: FieldPath): unknown {
  let v = root;
  for (const part of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[part];
  }
  return v;
}

/** The message for one issue, given the offending value. */
function messageOf(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.message;
    case 'invalid_type':
      if (value === undefined) return `missing (expected ${issue.expected})`;
      if (issue.expected === 'int') return `expected an integer, got ${describe(value)}`;
      if (/^Invalid input/.test(issue.message)) return `expected ${issue.expected}, got ${describe(value)}`;
      return `${issue.message}, got ${describe(value)}`;
    case 'invalid_value':
      return `expected one of: ${issue.values.map(String).join(', ')}; got ${describe(value)}`;
    case 'too_small':
    case 'too_big': {
      if (Array.isArray(value) || typeof value === 'string' || !/^(Too|Invalid)/.test(issue.message)) {
        return Array.isArray(value) || typeof value === 'string' || value === undefined ? issue.message : `${issue.message}, got ${describe(value)}`;
      }
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      return `must be ${issue.code === 'too_small' ? '>' : '<'}${issue.inclusive ? '=' : ''} ${String(bound)}, got ${describe(value)}`;
    }
    case 'invalid_union':
      return `${issue.message === 'Invalid input' ? 'not one of the accepted forms' : issue.message}, got ${describe(value)}`;
    default:
      return value !== undefined && !/got /.test(issue.message) ? `${issue.message}, got ${describe(value)}` : issue.message;
  }
}

/**
 * The one line for a failed parse of `root` (the raw parsed document, so the line can be found).
 * `basePath` prefixes the path when `root` sits inside a larger document that is not registered.
 */
export function zodToInputError(err: ZodError, file: string, root?: unknown): InputError {
  const { issue, path: rawPath } = pickIssue(err.issues);
  const path = rawPath.filter((p): p is string | number => typeof p !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    return errorAt(root, [...path, String(issue.keys[0])], issue.message, file, true);
  }
  const value = valueAt(root, path);
  // A document that is one string is a text file given as YAML: described, never quoted back.
  if (path.length === 0 && typeof value === 'string' && issue.code === 'invalid_type') {
    return errorAt(
      root,
      path,
      `expected ${issue.expected === 'object' ? 'a mapping' : issue.expected}, got the file's whole text (${value.length} characters), not YAML data`,
      file,
    );
  }
  return errorAt(root, path, messageOf(issue, value), file);
}
