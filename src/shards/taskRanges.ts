/**
 * Integer ranges as users type them: `0-9`, `3`, `0-4,7,10-12`. Used by
 * `wflo shards missing --farms 0-9 --types 0-4 --seeds 0-59`.
 */
import { InputError } from '../util/errors.js';

/** Parse a range list; InputError names the flag and the bad part. Sorted, unique. */
export function parseRanges(text: string, flag: string): number[] {
  const values = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) throw new InputError(`${flag} "${text}": "${part}" is not an integer or a range like 0-9`);
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) throw new InputError(`${flag} "${text}": numbers must stay below 2^53`);
    if (hi < lo) throw new InputError(`${flag} "${text}": range ${part} ends before it starts`);
    if (hi - lo > 10_000_000) throw new InputError(`${flag} "${text}": range ${part} is too large`);
    for (let v = lo; v <= hi; v++) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}
