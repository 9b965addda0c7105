/**
 * The shard doctor's vocabulary, shared by every file of src/shards/ (which therefore import
 * each other only downwards): the classes a worker file can fall in, the options that say how
 * to read and check foreign files, the per-file and per-record results of a scan, duplicates,
 * and the check and merge reports that the text and audit writers format.
 */

/**
 * Classes, in the order a file is tested for them. `unreadable` covers anything that cannot be
 * opened or listed (permissions, a directory or FIFO or symlink loop named like a shard, a
 * damaged superblock, object header or group B-tree); `rejected`: every record was read but
 * refused (limits, or verification against --expect).
 */
export const SHARD_CLASSES = ['empty', 'no_signature', 'truncated', 'unreadable', 'placeholder_only', 'schema_mismatch', 'rejected', 'valid'] as const;
export type ShardClass = (typeof SHARD_CLASSES)[number];

/** Classes whose files cannot contribute records and signal a problem (placeholder_only holds nothing, harmlessly). */
export const INVALID_CLASSES: ReadonlySet<ShardClass> = new Set(['empty', 'no_signature', 'truncated', 'unreadable', 'schema_mismatch', 'rejected']);

/** What a merge does with invalid files: stop, leave them, or move them to DIR/quarantine/. */
export const INVALID_POLICIES = ['abort', 'skip', 'quarantine'] as const;
export type InvalidPolicy = (typeof INVALID_POLICIES)[number];

/** The two layouts pipelines write. */
export type ShardShape = 'groups' | 'rows';

/**
 * Canonical field -> candidate names in the file (first one present wins).
 * `group`: where the records are: a group path (`optimized_layouts`, `results/run_3`, or `/` for
 * the root) holding one entry per record (groups shape) or the row datasets (rows shape). When no
 * candidate exists, records are looked for at the root (row datasets, or members named like
 * --key-pattern).
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
  /** The AEP a producer reported beside wflo's (a wflo layouts file's `aep_reported`). */
  aep_reported: string[];
  /** Rows shape: where each row came from, as a wflo layouts file says (only `adopted:<file>` is kept: rowSource.ts). */
  source: string[];
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
  aep_reported: ['aep_reported'],
  source: ['source'],
  placeholder: ['init'],
};

export type FieldName = keyof FieldNames;

/** Default `--max-turbines`: a record with more turbines is rejected (it would pad every row of the output). */
export const DEFAULT_MAX_TURBINES = 10_000;

/**
 * Coordinates beyond this many metres from the origin cannot be a site (projected coordinates:
 * UTM northings stay below 1e7 m; the Earth's circumference is 4e7 m): random bytes, not a layout.
 */
export const MAX_COORDINATE_M = 1e9;

/** `--expect CAMPAIGN.yaml`: check every record with campaign/verifyRecord.ts (in the probe child). */
export interface RecordVerification {
  /** Absolute path of the campaign file (the probe child loads it once). */
  campaignFile: string;
  /** Relative AEP tolerance (`--aep-tolerance`). */
  aepTolerance: number;
  /** Metres a layout may stray outside the site or below the spacing (`--tolerance-m`; absent: the optimizer's own 1e-6). */
  toleranceM?: number;
}

/** How to read shard files (all plain data: sent to the probe child process). */
export interface ShardReadOptions {
  /** Which shapes to look for; both when auto-detecting. */
  shapes: ShardShape[];
  /** Regex source with named groups farm, type, seed (see keyPattern.ts). */
  keyRegex: string;
  /** The pattern as the user wrote it, for messages. */
  keyPatternText: string;
  fields: FieldNames;
  /** Records with more turbines are rejected (default DEFAULT_MAX_TURBINES). */
  maxTurbines?: number;
  /** Row datasets declaring more rows are refused unread (default DEFAULT_MAX_ROWS, declaredSize.ts). */
  maxRows?: number;
  /** Verify every record against a campaign (absent: only the limits above). */
  verify?: RecordVerification;
  /**
   * A record without an AEP (or with NaN) is usable, its AEP NaN: set for `wflo run --adopt
   * --aep recompute`, which stores wflo's AEP. Never for check and merge (a merged row needs one).
   */
  aepOptional?: boolean;
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
  /**
   * True when the record was read but refused: over the limits (non-finite or absurd
   * coordinates, more than --max-turbines) or failing verification against --expect. Such
   * records count as invalid input for --on-invalid; unreadable ones stay `lost`.
   */
  rejected?: boolean;
}

/** What the probe child reports for one file it opened with HDF5. */
export interface ProbeResult {
  class: 'valid' | 'placeholder_only' | 'schema_mismatch' | 'rejected' | 'unreadable';
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
  /** The writer stopped with the file open for writing: read from a copy with the flags cleared. */
  recovered?: boolean;
}

/** Per-class file counts (every class present, 0 when no file has it). */
export function countClasses(files: ShardFileReport[]): Record<ShardClass, number> {
  const counts = Object.fromEntries(SHARD_CLASSES.map((c) => [c, 0])) as Record<ShardClass, number>;
  for (const f of files) counts[f.class]++;
  return counts;
}

/** A found record and the file it came from (index into the scan's files). */
export interface IndexedRecord extends FoundRecord {
  fileIndex: number;
}

export const CONFLICT_RULES = ['error', 'first', 'best-aep'] as const;
export type ConflictRule = (typeof CONFLICT_RULES)[number];

export interface DuplicateOccurrence {
  path: string;
  where: string;
  aep: number;
  digest: string;
}

export interface DuplicateGroup {
  taskId: string;
  /** True when every occurrence has the same values. */
  identical: boolean;
  occurrences: DuplicateOccurrence[];
  /** Index into occurrences of the record kept (absent when rule is error and values conflict). */
  chosen?: number;
}

/** `wflo shards check`'s findings. */
export interface CheckReport {
  files: ShardFileReport[];
  duplicates: DuplicateGroup[];
  counts: Record<ShardClass, number>;
  /** Usable records over all files (duplicates counted each time). */
  records: number;
  /** Distinct tasks among them. */
  tasks: number;
  lostRecords: number;
  /** Records read but refused (limits or --expect verification); included in lostRecords. */
  rejectedRecords: number;
  conflicts: number;
  /** Whether the folder has problems (shardProblems.ts, the definition merge shares): exit 3. */
  problems: boolean;
  /** The problems counted in words (`2 invalid files, 1 conflicting duplicate`), empty when none. */
  problemSummary: string;
}

export type FileAction = 'merged' | 'kept' | 'skipped' | 'quarantined' | 'deleted' | 'none';

/** One input of a merge, as the audit records it. */
export interface MergeAuditFile extends ShardFileReport {
  /** Records of this file written to the output. */
  taken: number;
  /** Records dropped because an identical copy was taken from another place. */
  identicalDuplicates: number;
  /** Records dropped because a conflicting copy won under --on-conflict. */
  conflictsLost: number;
  action: FileAction;
  movedTo?: string;
}

export interface MergeOptions {
  /** The paths the user named (folders and files), for the audit and the default campaign name. */
  inputs: string[];
  /** The files selected from them. */
  files: string[];
  output: string;
  read: ShardReadOptions;
  onInvalid: InvalidPolicy;
  /** Abort when more invalid files than this (default: no limit for skip/quarantine). */
  maxInvalid?: number;
  onConflict: ConflictRule;
  cleanup: boolean;
  /** Replace an existing output file (and audit files that are not a merge's). */
  force: boolean;
  /** Stamped into the output's campaign_name (default: the campaign's name, else the input folder's name). */
  campaignName?: string;
  /** Expected tasks (from `--expect`), for n_expected and complete. */
  expectedTaskIds?: Set<string>;
  jobs?: number;
  timeoutMs?: number;
  onFile?: (done: number, total: number, report: ShardFileReport) => void;
  /** Called once the scan is done, before writing (progress messages). */
  onWriting?: (rows: number) => void;
}

export interface MergeReport {
  outcome: 'merged' | 'aborted' | 'failed';
  reason?: string;
  output: string;
  rows: number;
  bytes: number;
  files: MergeAuditFile[];
  duplicates: DuplicateGroup[];
  conflicts: DuplicateGroup[];
  invalid: number;
  lostRecords: number;
  /** Records read but refused (limits or --expect verification); included in lostRecords. */
  rejectedRecords: number;
  /**
   * Whether the merge found or left problems (shardProblems.ts, the definition check shares:
   * invalid files, unusable or rejected records, conflicting duplicates): exit 3.
   */
  problems: boolean;
  /** The problems counted in words, empty when none. */
  problemSummary: string;
  quarantined: string[];
  deleted: string[];
  auditPath: string;
  summaryPath: string;
  seconds: number;
  probeProcesses: number;
  /** Peak RSS (KiB) of each probe child (Linux). */
  probePeakRssKb: number[];
  /** CPU seconds used by the probe children (Linux). */
  probeCpuSeconds: number;
}
