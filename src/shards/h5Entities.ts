/**
 * Small helpers over h5wasm objects for the shard readers: what an entity is, numbers out of
 * HDF5 values (scalars, 1-element arrays, bigints), attribute names fetched once per object, and
 * a one-phrase description of a root member for messages.
 */
import { hdf5Call, type H5File } from '../io/hdf5/h5wasmRuntime.js';

export type H5Group = ReturnType<H5File['create_group']>;
export type H5Dataset = ReturnType<H5File['create_dataset']>;
export type Entity = ReturnType<H5Group['get']>;

export function isDataset(e: Entity | undefined): e is H5Dataset {
  return !!e && (e as { type?: string }).type === 'Dataset';
}

export function isGroup(e: Entity | undefined): e is H5Group {
  return !!e && (e as { type?: string }).type === 'Group';
}

/** A number from an HDF5 value: scalar, bigint or 1-element array; undefined otherwise. */
export function scalarOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if ((ArrayBuffer.isView(value) || Array.isArray(value)) && (value as ArrayLike<unknown>).length === 1) {
    return scalarOf((value as ArrayLike<unknown>)[0]);
  }
  return undefined;
}

export function toFloat64(value: unknown): Float64Array | undefined {
  if (value instanceof Float64Array) return value;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Float64Array.from(value as unknown as ArrayLike<number | bigint>, Number);
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'number' || typeof v === 'bigint')) return Float64Array.from(value, Number);
  return undefined;
}

/** A shape as h5py prints it: `(16, 2)`, `(4,)`, `()`. */
export function shapeText(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

/** Attribute names per object, fetched once (each h5wasm call costs ~0.1 ms). */
const attributeNames = new WeakMap<object, Set<string>>();

export function attrNamesOf(owner: H5Group | H5Dataset): Set<string> {
  let names = attributeNames.get(owner);
  if (!names) {
    names = new Set(Object.keys(owner.attrs));
    attributeNames.set(owner, names);
  }
  return names;
}

/** Describe a root member for details: `init (dataset (1,))`, `results (group, 3 members)`. */
export function describeMember(file: H5File, name: string): string {
  try {
    const entity = hdf5Call(() => file.get(name));
    if (isDataset(entity)) return `${name} (dataset ${JSON.stringify(entity.shape ?? [])})`;
    if (isGroup(entity)) return `${name} (group, ${hdf5Call(() => entity.keys()).length} members)`;
    return `${name} (${(entity as { type?: string } | null)?.type ?? 'broken link'})`;
  } catch {
    return `${name} (unreadable)`;
  }
}
