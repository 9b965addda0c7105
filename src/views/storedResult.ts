/**
 * One stored result (layout + the case it was computed for) by task id, from a campaign's ledger
 * (output folder) or from a `layouts.h5` file. Unknown ids are one-line InputErrors that show
 * what ids look like.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Case } from '../optimize/case.js';
import { Ledger, LEDGER_FILE } from '../runner/ledger.js';
import { InputError } from '../util/errors.js';
import { caseFromDefinitions, definitionLabel } from './caseFromDefinitions.js';

export interface StoredResult {
  taskId: string;
  farmId: number;
  farmType: number;
  seed: number;
  aep: number;
  x: Float64Array;
  y: Float64Array;
  case: Case;
  farmLabel: string;
  typeLabel: string;
  campaign: string;
}

function floatsOfBlob(b: Buffer): Float64Array {
  const copy = new Float64Array(b.byteLength / 8);
  new Uint8Array(copy.buffer).set(b);
  return copy;
}

/**
 * The case of a stored result when the caller supplies it (`wflo plot --case`/`--campaign`, for a
 * file without wflo's farm definitions, e.g. a `wflo shards merge` output): undefined falls back
 * to the stored definitions.
 */
export type CaseSupplier = (farmId: number, farmType: number, taskId: string) => Case | undefined;

function storedCase(supply: CaseSupplier | undefined, farm: unknown, type: unknown, farmId: number, farmType: number, taskId: string, where: string): Case {
  const supplied = supply?.(farmId, farmType, taskId);
  if (supplied) return supplied;
  try {
    return caseFromDefinitions(farm, type, where);
  } catch (err) {
    if (err instanceof InputError && !supply) throw new InputError(`${err.message}; give --campaign CAMPAIGN.yaml (or --case NAME) for its physics and site`);
    throw err;
  }
}

export function isCampaignFolder(source: string): boolean {
  return fs.existsSync(source) && fs.statSync(source).isDirectory();
}

function unknownTask(where: string, taskId: string, example: string | undefined): InputError {
  return new InputError(`${where}: no done task '${taskId}'${example ? ` (task ids look like ${example})` : ' (it holds no results)'}`);
}

/** Results by task id from the ledger of output folder `dir` (read-only). */
export function readLedgerResults(dir: string, taskIds: readonly string[], supply?: CaseSupplier): StoredResult[] {
  const ledger = Ledger.open(dir, { readonly: true });
  try {
    return readResultsFromLedger(ledger, taskIds, supply);
  } finally {
    ledger.close();
  }
}

/** The same, on an open ledger (the report and dashboard keep theirs open). */
export function readResultsFromLedger(ledger: Ledger, taskIds: readonly string[], supply?: CaseSupplier): StoredResult[] {
  const where = path.join(path.dirname(ledger.path), LEDGER_FILE);
  const campaign = ledger.getMeta('campaign_name') ?? '';
  const row = ledger.db.prepare(`SELECT r.task_id, r.farm_id, r.farm_type, r.seed, r.aep, r.x, r.y, f.definition, ft.definition
    FROM results r JOIN tasks t ON t.task_id = r.task_id AND r.spec_hash = t.spec_hash
    LEFT JOIN farms f ON f.farm_id = r.farm_id LEFT JOIN farm_types ft ON ft.type_id = r.farm_type
    WHERE r.task_id = ?`).raw();
  return taskIds.map((taskId) => {
    const r = row.get(taskId) as [string, number, number, number, number | null, Buffer, Buffer, string | null, string | null] | undefined;
    if (!r) {
      const example = ledger.db.prepare('SELECT task_id FROM results ORDER BY farm_id, farm_type, seed LIMIT 1').pluck().get() as string | undefined;
      throw unknownTask(where, taskId, example);
    }
    const farm = r[7] ? JSON.parse(r[7]) as unknown : undefined;
    const type = r[8] ? JSON.parse(r[8]) as unknown : undefined;
    return {
      taskId: r[0], farmId: r[1], farmType: r[2], seed: r[3], aep: r[4] ?? NaN, x: floatsOfBlob(r[5]), y: floatsOfBlob(r[6]),
      case: storedCase(supply, farm, type, r[1], r[2], taskId, `${where} (${taskId})`),
      farmLabel: definitionLabel(farm, `farm ${r[1]}`), typeLabel: definitionLabel(type, `type ${r[2]}`), campaign,
    };
  });
}

/** Results by task id from a layouts.h5 file (rows are read in slices, so big files are fine). */
export async function readH5Results(file: string, taskIds: readonly string[], supply?: CaseSupplier): Promise<StoredResult[]> {
  // Loaded on demand: the HDF5 runtime (wasm) is not needed by the report or the dashboard.
  const { LayoutsFileReader } = await import('../io/hdf5/layoutsReader.js');
  const reader = await LayoutsFileReader.open(file);
  try {
    const wanted = new Set(taskIds);
    const found = new Map<string, StoredResult>();
    const defs = reader.definitions();
    let example: string | undefined;
    for (const batch of reader.batches()) {
      for (const rec of batch) {
        example ??= rec.taskId;
        if (!wanted.has(rec.taskId)) continue;
        const farm = defs.farms[String(rec.farmId)], type = defs.types[String(rec.farmType)];
        found.set(rec.taskId, {
          taskId: rec.taskId, farmId: rec.farmId, farmType: rec.farmType, seed: rec.seed, aep: rec.aep, x: rec.x, y: rec.y,
          case: storedCase(supply, farm, type, rec.farmId, rec.farmType, rec.taskId, `${file} (${rec.taskId})`),
          farmLabel: definitionLabel(farm, `farm ${rec.farmId}`), typeLabel: definitionLabel(type, `type ${rec.farmType}`),
          campaign: reader.info.campaignName,
        });
      }
      if (found.size === wanted.size) break;
    }
    return taskIds.map((id) => {
      const r = found.get(id);
      if (!r) throw unknownTask(file, id, example);
      return r;
    });
  } finally {
    reader.close();
  }
}

/** Task ids in a results source, when the user gave none: the single row, else an error listing one. */
export async function soleTaskId(source: string): Promise<string> {
  if (isCampaignFolder(source)) {
    const ledger = Ledger.open(source, { readonly: true });
    try {
      const ids = ledger.db.prepare('SELECT task_id FROM results ORDER BY farm_id, farm_type, seed LIMIT 2').pluck().all() as string[];
      if (ids.length === 1) return ids[0];
      throw new InputError(`${source}: give --task ID (${ids.length === 0 ? 'no results yet' : `several results, e.g. ${ids[0]}`})`);
    } finally {
      ledger.close();
    }
  }
  const { LayoutsFileReader } = await import('../io/hdf5/layoutsReader.js');
  const reader = await LayoutsFileReader.open(source);
  try {
    if (reader.rows === 1) return reader.readRecords(0, 1)[0].taskId;
    throw new InputError(`${source}: give --task ID (${reader.rows === 0 ? 'the file holds no rows' : `${reader.rows} rows, e.g. ${reader.readRecords(0, 1)[0].taskId}`})`);
  } finally {
    reader.close();
  }
}
