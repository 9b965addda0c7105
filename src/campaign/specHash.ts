/**
 * Content hashes of what determines a task's result. A task's spec hash covers its farm
 * (boundary, wind, wake model), its farm type (turbine numbers, count, spacing), the optimizer
 * settings, the seed and ENGINE_VERSION, and nothing else (no ids, labels, file paths or run
 * settings), so editing one farm in the campaign makes exactly that farm's tasks stale, and
 * moving a wind file or renaming a turbine does not.
 */
import crypto from 'node:crypto';
import { ENGINE_VERSION } from '../version.js';

/** JSON with sorted keys; typed arrays as plain arrays; undefined fields dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (ArrayBuffer.isView(value)) return canonicalJson(Array.from(value as unknown as ArrayLike<number>));
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new Error(`cannot hash a value of type ${typeof value}`);
}

/** Hex SHA-256 of `text`, cut to 32 characters (128 bits: collisions are not a concern here). */
export function hashText(text: string): string {
  // crypto.hash (one call, no Hash object) is several times faster than createHash at 10^6 tasks.
  return crypto.hash('sha256', text, 'hex').slice(0, 32);
}

export const hashValue = (value: unknown): string => hashText(canonicalJson(value));

/** The spec hash of one task from its parts' hashes. */
export function taskSpecHash(farmHash: string, typeHash: string, optimizerHash: string, seed: number): string {
  return hashText(`${ENGINE_VERSION}|${farmHash}|${typeHash}|${optimizerHash}|${seed}`);
}
