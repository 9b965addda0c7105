/**
 * One worker file being read: the open HDF5 file, what was found so far (records, unusable and
 * rejected records, file-level problems), where its records are (the `group` field: a group
 * path, or the root), and the ShapeReader interface that the readers of each layout shape
 * (groupsShapeReader.ts, rowsShapeReader.ts) implement. A kept record passes the RecordGate and
 * goes to the spill file when merging; only its index stays in memory. No dataset is read before
 * its declared size was checked against the file's bytes (declaredSize.ts).
 */
import { hdf5Call, hdf5ErrorReason, type H5File } from '../io/hdf5/h5wasmRuntime.js';
import { declaredSizeProblem } from '../io/hdf5/declaredSize.js';
import { isGroup, type H5Dataset, type H5Group } from './h5Entities.js';
import { taskIdOf } from '../io/layoutRecord.js';
import { keyMatcher, type TaskKey } from './keyPattern.js';
import type { SpillWriter } from './spillStore.js';
import type { RecordGate } from './recordGate.js';
import { RecordProblem, RejectedRecord, digestOf, toLayoutRecord, type RawRecord } from './recordValues.js';
import type { FieldName, FoundRecord, LostRecord, ShardReadOptions, ShardShape } from './shardTypes.js';

/** A dataset whose declared size the file cannot hold: refused unread (a file-level problem for row datasets). */
export class ImplausibleSize extends RecordProblem {}

/** Where a file's records are: the group named by the `group` field, or the root. */
export interface RecordsLocation {
  /** As messages show it: `optimized_layouts`, `results/run_3`, or `/`. */
  path: string;
  group: H5Group;
  members: Set<string>;
  isRoot: boolean;
  /** The root member it lies under (recognized as the records' own), absent for the root. */
  rootMember?: string;
}

/** A reader for one way pipelines lay records out in a file. */
export interface ShapeReader {
  readonly shape: ShardShape;
  /**
   * Read every record of this shape into `shard` (records, lost, problems). Returns the root
   * members it recognized as its own (empty when the file does not hold this shape).
   */
  read(shard: ShardFile, rootMembers: Set<string>): Set<string>;
}

export class ShardFile {
  readonly records: FoundRecord[] = [];
  readonly lost: LostRecord[] = [];
  /** File-level reasons a shape could not be read (become the schema_mismatch detail). */
  readonly schemaProblems: string[] = [];
  /** HDF5 could not read the file's structure (a group's B-tree, a root member): unreadable. */
  readonly structureProblems: string[] = [];
  /** Objects that are neither records nor placeholders (for the detail). */
  readonly unrecognized: string[] = [];
  readonly shapesFound: ShardShape[] = [];
  hdf5Errors = false;
  private readonly matchKey: (key: string) => TaskKey | null;
  private location: RecordsLocation | null | undefined;

  constructor(
    readonly file: H5File,
    readonly options: ShardReadOptions,
    private readonly spill: SpillWriter | null,
    readonly gate: RecordGate,
    readonly fileBytes: number,
  ) {
    this.matchKey = keyMatcher(options.keyRegex);
  }

  /**
   * Throw ImplausibleSize when `dataset` declares more values than the file can hold (or, for a
   * row dataset, more rows than --max-rows); nothing of it is read. `name` is for the message.
   */
  checkDeclaredSize(dataset: H5Dataset, name: string, rowDataset: boolean): void {
    const metadata = this.call(() => dataset.metadata);
    const problem = declaredSizeProblem(
      { name, shape: metadata.shape ?? [], itemBytes: metadata.size },
      this.fileBytes,
      rowDataset ? this.options.maxRows : undefined,
    );
    if (problem) throw new ImplausibleSize(problem);
  }

  /**
   * The first `group` candidate that exists as a group (`/` is the root), or null when none does.
   * A candidate that exists but is not a group is a schema problem; HDF5 failing on the way is a
   * structure problem.
   */
  recordsLocation(rootMembers: Set<string>): RecordsLocation | null {
    if (this.location !== undefined) return this.location;
    this.location = null;
    for (const candidate of this.options.fields.group) {
      if (candidate === '/') {
        this.location = { path: '/', group: this.file, members: rootMembers, isRoot: true };
        break;
      }
      const parts = candidate.split('/');
      if (!rootMembers.has(parts[0])) continue;
      let group: H5Group = this.file;
      let members = rootMembers;
      let found = true;
      for (let i = 0; i < parts.length && found; i++) {
        const where = parts.slice(0, i + 1).join('/');
        if (!members.has(parts[i])) {
          found = false;
          break;
        }
        const entity = this.structure(where, () => group.get(parts[i])) ?? undefined;
        if (!isGroup(entity)) {
          if (entity) this.schemaProblems.push(`${where} is not a group`);
          found = false;
          break;
        }
        group = entity;
        const keys = this.structure(`group ${where}`, () => group.keys());
        if (!keys) {
          found = false;
          break;
        }
        members = new Set(keys);
      }
      if (found) {
        this.location = { path: candidate, group, members, isRoot: false, rootMember: parts[0] };
        break;
      }
      if (this.structureProblems.length > 0 || this.schemaProblems.length > 0) break;
    }
    return this.location;
  }

  /** Run HDF5 calls for one record or object; an HDF5 error becomes a RecordProblem. */
  call<T>(fn: () => T): T {
    try {
      return hdf5Call(fn);
    } catch (err) {
      if (err instanceof RecordProblem) throw err;
      this.hdf5Errors = true;
      throw new RecordProblem(`HDF5 cannot read it: ${hdf5ErrorReason(err)}`, true);
    }
  }

  /**
   * Run an HDF5 call on the file's structure (listing a group, opening a root member); an HDF5
   * error is recorded as a structure problem (`what`: reason) and gives undefined.
   */
  structure<T>(what: string, fn: () => T): T | undefined {
    try {
      return hdf5Call(fn);
    } catch (err) {
      this.hdf5Errors = true;
      this.structureProblems.push(`HDF5 cannot read ${what}: ${hdf5ErrorReason(err)}`);
      return undefined;
    }
  }

  /** First candidate name of `field` present in `group`'s members. */
  nameIn(members: Set<string>, field: FieldName): string | undefined {
    return this.options.fields[field].find((name) => members.has(name));
  }

  /** Check a record read from `where` and keep it, or report it rejected. */
  keep(raw: RawRecord, where: string): void {
    const record = toLayoutRecord(raw, this.options.aepOptional);
    const refusal = this.gate.refusal(record);
    if (refusal) throw new RejectedRecord(refusal);
    const found: FoundRecord = {
      farmId: record.farmId,
      farmType: record.farmType,
      seed: record.seed,
      aep: record.aep,
      nTurbines: record.nTurbines,
      digest: digestOf(record.nTurbines, record.aep, record.x, record.y),
      where,
    };
    if (this.spill) found.spill = { file: -1, ...this.spill.append(record) };
    this.records.push(found);
  }

  /** Report a record that cannot be used (`problem` decides whether it was rejected or unreadable). */
  loseRecord(where: string, problem: RecordProblem | string, key?: TaskKey | null): void {
    const reason = typeof problem === 'string' ? problem : problem.message;
    const rejected = problem instanceof RejectedRecord;
    this.lost.push({ where, reason, ...(key ? { taskId: taskIdOf(key.farmId, key.farmType, key.seed) } : {}), ...(rejected ? { rejected } : {}) });
  }

  parseKey(key: string): TaskKey | null {
    return this.matchKey(key);
  }
}
