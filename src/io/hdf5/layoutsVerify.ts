/**
 * Verification of a layouts file: structure (attributes, datasets, dtypes, shapes) and content
 * (rows sorted and unique by (farm_id, farm_type, seed), task ids consistent, finite AEP,
 * layouts finite up to n_turbines and NaN after). Reads in slices. The writer calls it on its
 * temp file with the digests of what it wrote, so a file is only renamed into place once every
 * column reads back bit-identical.
 */
import { hdf5Call, hdf5ErrorReason } from './h5wasmRuntime.js';
import { LayoutsFileReader, rowsPerSliceFor, type LayoutsFileInfo } from './layoutsReader.js';
import { compareRecords, taskIdOf } from '../layoutRecord.js';
import { ColumnDigests, type RowSlice } from './rowSlice.js';

export interface LayoutsVerifyExpectations {
  rows?: number;
  maxTurbines?: number;
  campaignHash?: string;
  /** sha256 per column of what the writer wrote (ColumnDigests.finish()). */
  digests?: Record<string, string>;
}

export interface LayoutsVerifyReport {
  ok: boolean;
  path: string;
  rows: number;
  /** One line each; empty when ok. At most 20 row-level problems are listed. */
  problems: string[];
  info?: LayoutsFileInfo;
}

const MAX_ROW_PROBLEMS = 20;

function checkRows(
  slice: RowSlice,
  firstRow: number,
  tmax: number,
  previousKey: { farmId: number; farmType: number; seed: number } | undefined,
  problems: string[],
) {
  let previous = previousKey;
  for (let row = 0; row < slice.length && problems.length < MAX_ROW_PROBLEMS; row++) {
    const key = { farmId: slice.farmId[row], farmType: slice.farmType[row], seed: Number(slice.seed[row]) };
    const where = `row ${firstRow + row}`;
    if (previous && compareRecords(previous, key) >= 0) {
      problems.push(`${where}: not sorted/unique by (farm_id, farm_type, seed)`);
    }
    previous = key;
    const expectedId = taskIdOf(key.farmId, key.farmType, key.seed);
    if (slice.taskId[row] !== expectedId) problems.push(`${where}: task_id is "${slice.taskId[row]}", expected "${expectedId}"`);
    const n = slice.nTurbines[row];
    if (n < 0 || n > tmax) {
      problems.push(`${where}: n_turbines ${n} outside [0, ${tmax}]`);
      continue;
    }
    if (!Number.isFinite(slice.aep[row])) problems.push(`${where}: aep is ${slice.aep[row]}`);
    const base = row * tmax * 2;
    for (let i = 0; i < tmax * 2; i++) {
      const v = slice.layout[base + i];
      const inside = i < n * 2;
      if (inside ? !Number.isFinite(v) : !Number.isNaN(v)) {
        problems.push(`${where}: layout[${Math.floor(i / 2)}] is ${v}, expected ${inside ? 'a finite position' : 'NaN padding'}`);
        break;
      }
    }
  }
  return previous;
}

/** Verify a layouts file; never throws for a bad file (problems are in the report). */
export async function verifyLayoutsFile(path: string, expect: LayoutsVerifyExpectations = {}): Promise<LayoutsVerifyReport> {
  let reader: LayoutsFileReader;
  try {
    reader = await LayoutsFileReader.open(path);
  } catch (err) {
    return { ok: false, path, rows: 0, problems: [(err as Error).message] };
  }
  const problems: string[] = [];
  const { info } = reader;
  try {
    if (expect.rows !== undefined && info.rows !== expect.rows) problems.push(`holds ${info.rows} rows, expected ${expect.rows}`);
    if (expect.maxTurbines !== undefined && info.maxTurbines !== expect.maxTurbines)
      problems.push(`max_turbines is ${info.maxTurbines}, expected ${expect.maxTurbines}`);
    if (expect.campaignHash !== undefined && info.campaignHash !== expect.campaignHash)
      problems.push(`campaign_hash is "${info.campaignHash}", expected "${expect.campaignHash}"`);
    if (info.complete && info.nExpected >= 0 && info.nDone !== info.nExpected)
      problems.push(`complete is 1 but n_done ${info.nDone} != n_expected ${info.nExpected}`);
    const digests = new ColumnDigests(info.columns);
    let previous: { farmId: number; farmType: number; seed: number } | undefined;
    const rowsPerSlice = rowsPerSliceFor(info.maxTurbines);
    for (let start = 0; start < info.rows; start += rowsPerSlice) {
      const slice = reader.readSlice(start, Math.min(info.rows, start + rowsPerSlice));
      for (const spec of info.columns) digests.update(spec, slice.column(spec));
      previous = checkRows(slice, start, info.maxTurbines, previous, problems);
    }
    if (expect.digests) {
      const actual = digests.finish();
      for (const spec of info.columns) {
        if (actual[spec.name] !== expect.digests[spec.name]) problems.push(`dataset /${spec.name} reads back different from what was written`);
      }
    }
    hdf5Call(() => reader.definitions());
  } catch (err) {
    problems.push(`read failed: ${hdf5ErrorReason(err)}`);
  } finally {
    reader.close();
  }
  return { ok: problems.length === 0, path, rows: info.rows, problems, info };
}
