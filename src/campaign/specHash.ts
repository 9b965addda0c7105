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

/**
 * The farm's part of a spec hash: site, wind, wake model and, for command tasks, the farm's
 * `params` (absent params leave the hash as it always was).
 */
export function farmSpecHash(f: { boundary: unknown; wind: unknown; model: unknown; params?: unknown }): string {
  return hashValue({ boundary: f.boundary, wind: f.wind, model: f.model, params: f.params });
}

/** The farm type's part: the turbine's numbers (not its name), count, spacing and `params`. */
export function farmTypeSpecHash(t: { turbine: { name?: unknown }; nTurbines: number; minSpacingM: number; params?: unknown }): string {
  const { name: _name, ...turbineNumbers } = t.turbine;
  return hashValue({ turbine: turbineNumbers, nTurbines: t.nTurbines, minSpacingM: t.minSpacingM, params: t.params });
}

/**
 * Settings of a `method: command` optimizer that say how the program is run and checked, not
 * what it computes: they stay out of the spec hash (switching `mode` or `aep`, or moving the
 * campaign folder, reruns nothing). `run`, `params` and the content of every input file are in.
 */
export const COMMAND_SETTINGS_OUTSIDE_HASH: readonly string[] = ['mode', 'aep', 'aep_tolerance', 'inputs', 'workdir'];

/** The optimizer's part of a spec hash (the one recipe for the coordinator and for queue workers). */
export function optimizerSpecHash(settings: { method: string; [k: string]: unknown }): string {
  if (settings.method !== 'command') return hashValue(settings);
  const hashed = Object.fromEntries(Object.entries(settings).filter(([k]) => !COMMAND_SETTINGS_OUTSIDE_HASH.includes(k)));
  return hashValue(hashed);
}
