/**
 * One worker file being read: the open HDF5 file, what was found so far (records, unusable and
 * rejected records, file-level problems), and the ShapeReader interface that the readers of each
 * layout shape (groupsShapeReader.ts, rowsShapeReader.ts) implement. A kept record passes the
 * RecordGate and goes to the spill file when merging; only its index stays in memory.
 */
import { hdf5Call, hdf5ErrorReason, type H5File } from '../io/hdf5/h5wasmRuntime.js';
import { taskIdOf } from '../io/layoutRecord.js';
import { keyMatcher, type TaskKey } from './keyPattern.js';
import type { SpillWriter } from './spillStore.js';
import type { RecordGate } from './recordGate.js';
import { RecordProblem, RejectedRecord, digestOf, toLayoutRecord, type RawRecord } from './recordValues.js';
import type { FieldName, FoundRecord, LostRecord, ShardReadOptions, ShardShape } from './shardTypes.js';

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

  constructor(readonly file: H5File, readonly options: ShardReadOptions, private readonly spill: SpillWriter | null, readonly gate: RecordGate) {
    this.matchKey = keyMatcher(options.keyRegex);
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
    const record = toLayoutRecord(raw);
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
