/**
 * Reading a request's header fields for the engine session's handlers: each field checked on its
 * own, with the one-line message the CLI gives for the same value where the CLI has the option
 * (`--seed: expected a whole number >= 0, got '-1'`), else `kind.field: what is wrong`.
 */
import { InputError } from '../util/errors.js';
import { oneLineMessage } from '../util/printable.js';

/** A value as the CLI would have seen it typed (for messages). */
export const shown = (v: unknown): string => oneLineMessage(typeof v === 'string' ? v.slice(0, 40) : (JSON.stringify(v)?.slice(0, 40) ?? String(v)));

/** A finite number (required unless `fallback` is given). */
export function finiteField(kind: string, name: string, v: unknown, fallback?: number): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new InputError(`${kind}.${name}: expected a finite number, got ${shown(v)}`);
  return v;
}

/** A whole number from min to max; `flag`: the CLI option's name for the message. */
export function wholeField(label: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new InputError(`${label}: expected a whole number ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}, got '${shown(v)}'`);
  }
  return v;
}

/** A string field (optional: undefined stays undefined). */
export function stringField(label: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > 4096) throw new InputError(`${label}: expected a string, got ${shown(v)}`);
  return v;
}

/** The x or y array of a request: present, one value per turbine, every value finite. */
export function coordinates(kind: string, name: string, arrays: Map<string, Float64Array>, n: number): Float64Array {
  const a = arrays.get(name);
  if (!a) throw new InputError(`${kind}: array ${name} missing`);
  if (a.length !== n) throw new InputError(`${kind}.${name}: ${a.length} values, the farm has ${n} turbines`);
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) throw new InputError(`${kind}.${name}[${i}]: expected a finite number, got ${a[i]}`);
  return a;
}
