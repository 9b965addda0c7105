/**
 * The shard doctor's vocabulary: the classes a worker file can fall in, the options that say
 * how to read foreign files, and the per-file and per-record results the scan produces.
 */

/** Classes, in the order a file is tested for them. */
export const SHARD_CLASSES = ['empty', 'no_signature', 'truncated', 'unreadable', 'placeholder_only', 'schema_mismatch', 'valid'] as const;
export type ShardClass = (typeof SHARD_CLASSES)[number];

/** Classes whose files cannot contribute records and signal a problem (placeholder_only holds nothing, harmlessly). */
export const INVALID_CLASSES: ReadonlySet<ShardClass> = new Set(['empty', 'no_signature', 'truncated', 'unreadable', 'schema_mismatch']);

/** What a merge does with invalid files: stop, leave them, or move them to DIR/quarantine/. */
export const INVALID_POLICIES = ['abort', 'skip', 'quarantine'] as const;
export type InvalidPolicy = (typeof INVALID_POLICIES)[number];

/** The two layouts pipelines write. */
export type ShardShape = 'groups' | 'rows';

/**
 * Canonical field -> candidate names in the file (first one present wins).
 * `group`: the group holding one entry per record (groups shape).
 * `placeholder`: objects that hold no records (e.g. `init`).
 */
export interface FieldNames {
  group: string[];
  farm_id: string[];
  farm_type: string[];
  seed: string[];
  key: string[];
  aep: string[];
  aep_initial: string[];
  layout: string[];
  initial_layout: string[];
  x: string[];
  y: string[];
  n_turbines: string[];
  iterations: string[];
  evaluations: string[];
  wall_s: string[];
  attempts: string[];
  placeholder: string[];
}

export const DEFAULT_FIELD_NAMES: FieldNames = {
  group: ['optimized_layouts'],
  farm_id: ['farm_id'],
  farm_type: ['farm_type'],
  seed: ['seed'],
  key: ['task_id', 'key'],
  aep: ['aep', 'AEP'],
  aep_initial: ['aep_initial', 'initial_aep'],
  layout: ['layout', 'optimized_layout'],
  initial_layout: ['initial_layout'],
  x: ['x'],
  y: ['y'],
  n_turbines: ['n_turbines'],
  iterations: ['iterations'],
  evaluations: ['evaluations'],
  wall_s: ['wall_s'],
  attempts: ['attempts'],
  placeholder: ['init'],
};

export type FieldName = keyof FieldNames;

/** How to read shard files (all plain data: sent to the probe child process). */
export interface ShardReadOptions {
  /** Which shapes to look for; both when auto-detecting. */
  shapes: ShardShape[];
  /** Regex source with named groups farm, type, seed (see keyPattern.ts). */
  keyRegex: string;
  /** The pattern as the user wrote it, for messages. */
  keyPatternText: string;
  fields: FieldNames;
}

/** Where a record's payload was spilled by the probe child (merge only). */
export interface SpillLocation {
  /** Index of the spill file (one per probe child instance). */
  file: number;
  /** Byte offset and length of the record's Float64 payload. */
  offset: number;
  length: number;
}

/** One record found in a shard (its payload stays in the spill file). */
export interface FoundRecord {
  farmId: number;
  farmType: number;
  seed: number;
  aep: number;
  nTurbines: number;
  /** sha256 (hex, 16 chars) of n_turbines, aep and the layout: equal digests = identical values. */
  digest: string;
  /** Where it is in its file: `optimized_layouts/<key>` or `row <i>`. */
  where: string;
  spill?: SpillLocation;
}

/** A record the file mentions but that could not be used. */
export interface LostRecord {
  where: string;
  /** Task id when the key could be read. */
  taskId?: string;
  reason: string;
}

/** What the probe child reports for one file it opened with HDF5. */
export interface ProbeResult {
  class: 'valid' | 'placeholder_only' | 'schema_mismatch' | 'unreadable';
  shapes: ShardShape[];
  detail: string;
  records: FoundRecord[];
  lost: LostRecord[];
  /** True when HDF5 reported an error: the child should be replaced (h5wasm issue #46). */
  hdf5Errors: boolean;
}

/** The scan's verdict on one file. */
export interface ShardFileReport {
  path: string;
  bytes: number;
  /** Modification time when the file was checked. */
  mtimeMs: number;
  class: ShardClass;
  /** Usable records in the file. */
  records: number;
  detail: string;
  shapes: ShardShape[];
  lost: LostRecord[];
}
