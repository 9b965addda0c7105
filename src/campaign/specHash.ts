/**
 * Content hashes of what determines a task's result. A task's spec hash covers its farm
 * (boundary, wind, wake model, direction treatment), its farm type (turbine numbers, count, spacing), the optimizer
 * settings, the seed and ENGINE_VERSION, and nothing else (no ids, labels, file paths or run
 * settings), so editing one farm in the campaign makes exactly that farm's tasks stale, and
 * moving a wind file or renaming a turbine does not.
 */
import crypto from 'node:crypto';
import { ENGINE_VERSION } from '../version.js';
import { siteDocument } from '../io/siteFields.js';
import type { Site } from '../physics/site/site.js';

/**
 * Writes the canonical JSON of `value` (sorted keys; typed arrays as plain arrays; undefined
 * fields dropped; non-finite numbers as strings) to `out` piece by piece, so a long time series
 * never becomes one string or an array of strings per sample.
 */
function writeCanonical(value: unknown, out: (piece: string) => void): void {
  if (value === null || value === undefined) {
    out('null');
    return;
  }
  if (typeof value === 'number') {
    out(Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value)));
    return;
  }
  if (typeof value === 'string' || typeof value === 'boolean') {
    out(JSON.stringify(value));
    return;
  }
  if (ArrayBuffer.isView(value)) {
    const items = value as unknown as ArrayLike<number | bigint>;
    // The hot loop of a long series: numbers written into a local piece, handed over in batches.
    // (JSON.stringify of a finite number is its String.)
    let piece = '[';
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      if (i > 0) piece += ',';
      if (typeof x === 'number' && Number.isFinite(x)) piece += String(x);
      else {
        out(piece);
        piece = '';
        writeCanonical(x, out);
      }
      if (piece.length >= 65536) {
        out(piece);
        piece = '';
      }
    }
    out(`${piece}]`);
    return;
  }
  if (Array.isArray(value)) {
    out('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out(',');
      if (i in value) writeCanonical(value[i], out); // a hole writes nothing, as Array.prototype.join
    }
    out(']');
    return;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out('{');
    entries.forEach(([k, v], i) => {
      out(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
      writeCanonical(v, out);
    });
    out('}');
    return;
  }
  throw new Error(`cannot hash a value of type ${typeof value}`);
}

/** JSON with sorted keys; typed arrays as plain arrays; undefined fields dropped. */
export function canonicalJson(value: unknown): string {
  let text = '';
  writeCanonical(value, (piece) => {
    text += piece;
  });
  return text;
}

/** Hex SHA-256 of `text`, cut to 32 characters (128 bits: collisions are not a concern here). */
export function hashText(text: string): string {
  // crypto.hash (one call, no Hash object) is several times faster than createHash at 10^6 tasks.
  return crypto.hash('sha256', text, 'hex').slice(0, 32);
}

/** Canonical JSON is fed to the hash in pieces of about this many characters once it gets long. */
const HASH_PIECE = 1 << 20;

/** hashText(canonicalJson(value)), without building the whole text when it is long (a 10⁶-sample wind). */
export function hashValue(value: unknown): string {
  let pending = '';
  let hash: crypto.Hash | null = null;
  writeCanonical(value, (piece) => {
    pending += piece;
    if (pending.length >= HASH_PIECE) {
      hash ??= crypto.createHash('sha256');
      hash.update(pending);
      pending = '';
    }
  });
  if (hash === null) return hashText(pending);
  return (hash as crypto.Hash).update(pending).digest('hex').slice(0, 32);
}

/** The spec hash of one task from its parts' hashes. */
export function taskSpecHash(farmHash: string, typeHash: string, optimizerHash: string, seed: number): string {
  return hashText(`${ENGINE_VERSION}|${farmHash}|${typeHash}|${optimizerHash}|${seed}`);
}

/**
 * The farm's part of a spec hash: site, wind, wake model and, for command tasks, the farm's
 * `params` (absent params leave the hash as it always was).
 */
export function farmSpecHash(f: {
  boundary: unknown;
  wind: unknown;
  model: object;
  params?: unknown;
  neighbours?: { x: unknown; y: unknown; types: { name?: unknown }[]; typeOf: unknown };
  directions?: { kind: string };
  economics?: { depth: object };
}): string {
  // Neighbours: positions, each one's model and the models' numbers (not their names); absent ones leave the hash as it was.
  const neighbours = f.neighbours
    ? { x: f.neighbours.x, y: f.neighbours.y, typeOf: f.neighbours.typeOf, types: f.neighbours.types.map(withoutName) }
    : undefined;
  // A direction treatment other than the bins as listed; bins (or none) leave the hash as it was.
  const directions = f.directions && f.directions.kind !== 'bins' ? f.directions : undefined;
  // Economics: its numbers and the depth grid, not the bathymetry file's path; absent leaves the hash as it was.
  const economics = f.economics
    ? { ...f.economics, depth: 'file' in f.economics.depth ? { grid: (f.economics.depth as unknown as { grid: unknown }).grid } : f.economics.depth }
    : undefined;
  return hashValue({ boundary: f.boundary, wind: f.wind, model: modelHashed(f.model), params: f.params, neighbours, directions, economics });
}

/**
 * The farm model as hashed: a site that is not uniform by its fields' grids and values, shear and
 * `outside` (the inline block it reads back to: io/siteFields.ts siteDocument), never by where it
 * was read from (`source`: a file's path); without a site the model as it is (hashes unchanged).
 */
function modelHashed(model: object): unknown {
  const site = (model as { site?: Site }).site;
  return site ? { ...model, site: siteDocument(site) } : model;
}

const withoutName = (t: { name?: unknown }): unknown => {
  const { name: _name, ...numbers } = t;
  return numbers;
};

/** What the farm type's part of a spec hash reads (the shape of campaign.ts FarmTypeSpec, as plain data). */
export interface FarmTypeHashInput {
  turbine: { name?: unknown };
  nTurbines: number;
  minSpacingM: number;
  params?: unknown;
  models?: { turbines: { name?: unknown }[]; minSpacingByType: unknown; counts: unknown };
  objective?: string;
}

/**
 * The farm type's part of a spec hash, field by field: how each field enters it (undefined: it
 * leaves the hash as it was). This table is the one list of what a farm type's hash covers: the
 * hash reads these fields and no other, and the queue payload (runner/executors/bullmq/
 * jobPayload.ts) carries a farm type by a codec per key of this same table, so a field added here
 * that the payload does not carry fails to compile (and test/runner/payloadFields.test.ts fails).
 */
export const FARM_TYPE_HASHED: { readonly [K in keyof FarmTypeHashInput]-?: (value: FarmTypeHashInput[K]) => unknown } = {
  // The turbine's numbers, not its name.
  turbine: (t) => withoutName(t),
  nTurbines: (n) => n,
  minSpacingM: (m) => m,
  params: (p) => p,
  // Several models: their numbers, spacings and counts (null: chosen); one model leaves the hash as it was.
  models: (m) => (m ? { turbines: m.turbines.map(withoutName), minSpacingByType: m.minSpacingByType, counts: m.counts } : undefined),
  // A cost objective changes the results; aep (the default, written or not) leaves the hash as it was.
  objective: (o) => (o !== undefined && o !== 'aep' ? o : undefined),
};

export type FarmTypeHashedField = keyof FarmTypeHashInput;
/** The fields of FARM_TYPE_HASHED, in its order. */
export const FARM_TYPE_HASHED_FIELDS = Object.keys(FARM_TYPE_HASHED) as FarmTypeHashedField[];

/** The farm type's part: the turbine's numbers (not its name), count, spacing, models, `params` and objective (FARM_TYPE_HASHED). */
export function farmTypeSpecHash(t: FarmTypeHashInput): string {
  const hashed: Record<string, unknown> = {};
  for (const k of FARM_TYPE_HASHED_FIELDS) hashed[k] = (FARM_TYPE_HASHED[k] as (v: unknown) => unknown)(t[k]);
  return hashValue(hashed);
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

/**
 * What an adopted row stands on: the farm (site, wind, wake model, neighbours), the farm type
 * (turbines, count, spacing) and the seed of its task: what the gate verified it against. The
 * optimizer (its settings, a program's files, `params`) and ENGINE_VERSION are left out: they
 * did not produce the row. While a task's adopted identity stays, its adopted row stays done
 * when the spec hash changes (runner/ledger.ts carries it to the new spec); `wflo run
 * --recompute-adopted` is the way to compute such rows again.
 */
export function adoptedIdentity(
  farm: {
    boundary: unknown;
    wind: unknown;
    model: object;
    neighbours?: { x: ArrayLike<unknown>; y: unknown; types: { name?: unknown }[]; typeOf: unknown };
    directions?: { kind: string };
  },
  type: {
    turbine: { name?: unknown };
    nTurbines: number;
    minSpacingM: number;
    models?: { turbines: { name?: unknown }[]; minSpacingByType: unknown; counts: unknown };
  },
  seed: number,
): string {
  const neighbours = farm.neighbours && farm.neighbours.x.length > 0 ? farm.neighbours : undefined;
  const farmPart = farmSpecHash({
    boundary: farm.boundary,
    wind: farm.wind,
    model: farm.model,
    neighbours: neighbours as Parameters<typeof farmSpecHash>[0]['neighbours'],
    directions: farm.directions,
  });
  const typePart = farmTypeSpecHash({ turbine: type.turbine, nTurbines: type.nTurbines, minSpacingM: type.minSpacingM, models: type.models });
  return hashText(`adopted|${farmPart}|${typePart}|${seed}`);
}
