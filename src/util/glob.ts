/**
 * Shell-style globs for one path component (`*`, `?`, `[abc]`, `[!abc]`; never matching `/`):
 * the shard doctor's `--pattern` and `wflo collect --from`.
 */
import { InputError } from './errors.js';

/** Anchored RegExp for `pattern`; an unclosed `[` is an InputError naming `what` (e.g. `--pattern`). */
export function globToRegExp(pattern: string, what = 'pattern'): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) throw new InputError(`${what} "${pattern}": unclosed "["`);
      const body = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
      source += `[${body.startsWith('!') ? '^' + body.slice(1) : body}]`;
      i = close;
    } else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
