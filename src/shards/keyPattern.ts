/**
 * `--key-pattern`: how a record's key (a group member name or a key string) encodes
 * (farm, type, seed). Either a template with `{farm}`, `{type}` and `{seed}` placeholders
 * (default `farm_{farm}_type_{type}_seed_{seed}`), or a regular expression with the named groups
 * `farm`, `type` and `seed` (recognized by `(?<`). Matched against the whole key.
 */
import { InputError } from '../util/errors.js';

export const DEFAULT_KEY_PATTERN = 'farm_{farm}_type_{type}_seed_{seed}';

const PLACEHOLDERS = ['farm', 'type', 'seed'] as const;

/** Turn the user's pattern into regex source (anchored). InputError when it cannot work. */
export function keyPatternToRegex(pattern: string): string {
  let source: string;
  if (pattern.includes('(?<')) {
    source = pattern;
  } else {
    for (const name of PLACEHOLDERS) {
      if (!pattern.includes(`{${name}}`)) throw new InputError(`--key-pattern "${pattern}": missing the {${name}} placeholder`);
    }
    source = pattern
      .split(/(\{farm\}|\{type\}|\{seed\})/)
      .map((part) => {
        const m = /^\{(farm|type|seed)\}$/.exec(part);
        return m ? `(?<${m[1]}>-?\\d+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
  }
  const anchored = `^(?:${source})$`;
  try {
    new RegExp(anchored); // compile once here so a bad pattern is a usage error, not a crash later
  } catch (err) {
    throw new InputError(`--key-pattern "${pattern}": not a valid regular expression (${(err as Error).message})`);
  }
  for (const name of PLACEHOLDERS) {
    if (!anchored.includes(`(?<${name}>`)) throw new InputError(`--key-pattern "${pattern}": needs a named group (?<${name}>...)`);
  }
  return anchored;
}

export interface TaskKey {
  farmId: number;
  farmType: number;
  seed: number;
}

/** A matcher for compiled regex source; null when the key does not match or a number is not an integer. */
export function keyMatcher(regexSource: string): (key: string) => TaskKey | null {
  const regex = new RegExp(regexSource);
  return (key: string) => {
    const m = regex.exec(key);
    if (!m?.groups) return null;
    const farmId = Number(m.groups.farm);
    const farmType = Number(m.groups.type);
    const seed = Number(m.groups.seed);
    if (![farmId, farmType, seed].every(Number.isSafeInteger)) return null;
    return { farmId, farmType, seed };
  };
}
