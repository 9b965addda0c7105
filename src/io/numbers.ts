/**
 * Coercion of YAML values to numbers and arrays with errors that name the file and field.
 */
import { InputError } from '../util/errors.js';
import { describeText } from '../util/printable.js';

export function requireNumber(value: unknown, file: string, field: string, opts: { positive?: boolean; nonNegative?: boolean } = {}): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    throw new InputError(`${file}: ${field}: expected a finite number, got ${describe(value)}`);
  }
  if (opts.positive && !(n > 0)) throw new InputError(`${file}: ${field}: must be > 0, got ${n}`);
  if (opts.nonNegative && !(n >= 0)) throw new InputError(`${file}: ${field}: must be >= 0, got ${n}`);
  return n;
}

export function requireNumberArray(value: unknown, file: string, field: string): number[] {
  if (!Array.isArray(value)) throw new InputError(`${file}: ${field}: expected a list of numbers, got ${describe(value)}`);
  return value.map((v, i) => requireNumber(v, file, `${field}[${i}]`));
}

export function requireMatrix(value: unknown, file: string, field: string): number[][] {
  if (!Array.isArray(value)) throw new InputError(`${file}: ${field}: expected a list of lists, got ${describe(value)}`);
  return value.map((row, i) => requireNumberArray(row, file, `${field}[${i}]`));
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing (missing)';
  if (value === null) return 'null';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return describeText(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return typeof value === 'object' ? 'a mapping' : typeof value;
}
