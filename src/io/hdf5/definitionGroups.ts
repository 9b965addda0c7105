/**
 * Farm and type definitions stored as HDF5 groups (`/farms/<id>`, `/types/<id>`).
 *
 * Each definition is a plain JSON-able object. Its group gets:
 * - attribute `json`: the whole definition as a JSON string (the lossless copy; readers use it);
 * - for h5py browsing, every field mapped to HDF5 by value type:
 *     number  -> scalar attribute (int64 when an integer, else float64)
 *     string  -> string attribute;  boolean -> int8 attribute (0/1)
 *     number[] or number[][] (rectangular) -> float64 dataset of that shape
 *     string[] -> string array attribute
 *     object  -> subgroup, mapped the same way
 *   anything else (null, arrays of objects, ragged arrays) is only in `json`.
 * Names containing "/" get it replaced by "_" (HDF5 uses "/" as the path separator).
 */
import type { H5File } from './h5wasmRuntime.js';

type H5Group = ReturnType<H5File['create_group']>;

/** Definitions keyed by id, or a list of definitions each carrying an `id` field. */
export type DefinitionSet = Record<string, unknown> | ReadonlyArray<Record<string, unknown>>;

/** Normalize a DefinitionSet to [id, definition] pairs (list entries without `id` use their index). */
export function definitionEntries(set: DefinitionSet | undefined): Array<[string, unknown]> {
  if (!set) return [];
  if (Array.isArray(set)) {
    return set.map((def, index) => [String((def as { id?: unknown }).id ?? index), def]);
  }
  return Object.entries(set as Record<string, unknown>);
}

function hdf5Name(key: string): string {
  return key.replace(/\//g, '_');
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'number');
}

function isRectangularNumberMatrix(value: unknown): value is number[][] {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isNumberArray)) return false;
  const width = (value[0] as number[]).length;
  return width > 0 && value.every((row) => (row as number[]).length === width);
}

function writeFields(group: H5Group, definition: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(definition)) {
    if (key === '' || key === 'json') continue;
    const name = hdf5Name(key);
    if (typeof value === 'number') {
      group.create_attribute(name, value, null, Number.isSafeInteger(value) ? '<q' : '<d');
    } else if (typeof value === 'string') {
      group.create_attribute(name, value);
    } else if (typeof value === 'boolean') {
      group.create_attribute(name, value ? 1 : 0, null, '<b');
    } else if (isNumberArray(value)) {
      group.create_dataset({ name, data: Float64Array.from(value), shape: [value.length], dtype: '<d' });
    } else if (isRectangularNumberMatrix(value)) {
      const flat = Float64Array.from(value.flat());
      group.create_dataset({ name, data: flat, shape: [value.length, value[0].length], dtype: '<d' });
    } else if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
      group.create_attribute(name, value as string[]);
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      writeFields(group.create_group(name), value as Record<string, unknown>);
    }
  }
}

/** Create `<parent>/<id>` for every definition of the set. */
export function writeDefinitionGroups(parent: H5Group, set: DefinitionSet | undefined): void {
  for (const [id, definition] of definitionEntries(set)) {
    const group = parent.create_group(hdf5Name(id));
    group.create_attribute('json', JSON.stringify(definition ?? null));
    if (definition !== null && typeof definition === 'object' && !Array.isArray(definition)) {
      writeFields(group, definition as Record<string, unknown>);
    }
  }
}

/** Read the definitions back from their `json` attributes (id -> definition). */
export function readDefinitionGroups(parent: H5Group | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!parent) return out;
  for (const id of parent.keys()) {
    const child = parent.get(id) as H5Group | null;
    if (!child || !('attrs' in child)) continue;
    const json = child.attrs['json']?.value;
    if (typeof json === 'string') out[id] = JSON.parse(json);
  }
  return out;
}
