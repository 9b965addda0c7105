/**
 * One stored result (layout + the case it was computed for) by task id, from a campaign's ledger
 * (output folder) or from a `layouts.h5` file. Unknown ids are one-line InputErrors that show
 * what ids look like.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Case } from '../case/case.js';
import { LEDGER_FILE, LedgerReader } from '../runner/ledgerReader.js';
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
  /** Each turbine's model (farm types of several models), as the row says. */
  typeOf?: Int32Array;
  /** The row's collection network (farms with economics; layouts.h5's cable_to), where the source keeps it. */
  cableTo?: Int32Array;
  /** Each edge's cable type (an index into the farm's economics.cables), with cableTo. */
  cableType?: Int32Array;
  /** The row's metrics (the gate's economics: lcoe_per_mwh, npv, …), where the source keeps them. */
  metrics?: Readonly<Record<string, number>>;
  case: Case;
  farmLabel: string;
  typeLabel: string;
  campaign: string;
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

/** A row's models for a farm type of several (absent in the row: every turbine is model 0); nothing for one model. */
function rowModels(given: Int32Array | undefined, n: number, type: unknown): { typeOf?: Int32Array } {
  if (given) return { typeOf: given };
  return (type as { models?: unknown } | undefined)?.models ? { typeOf: new Int32Array(n) } : {};
}

export function isCampaignFolder(source: string): boolean {
  return fs.existsSync(source) && fs.statSync(source).isDirectory();
}

function unknownTask(where: string, taskId: string, example: string | undefined): InputError {
  return new InputError(`${where}: no done task '${taskId}'${example ? ` (task ids look like ${example})` : ' (it holds no results)'}`);
}

/** Results by task id from the ledger of output folder `dir` (read-only). */
export function readLedgerResults(dir: string, taskIds: readonly string[], supply?: CaseSupplier): StoredResult[] {
  const ledger = LedgerReader.open(dir);
  try {
    return readResultsFromLedger(ledger, taskIds, supply);
  } finally {
    ledger.close();
  }
}

/** The same, on an open ledger (the report and dashboard keep theirs open). */
export function readResultsFromLedger(ledger: LedgerReader, taskIds: readonly string[], supply?: CaseSupplier): StoredResult[] {
  const where = path.join(path.dirname(ledger.path), LEDGER_FILE);
  const campaign = ledger.getMeta('campaign_name') ?? '';
  return taskIds.map((taskId) => {
    const r = ledger.doneLayout(taskId);
    if (!r) throw unknownTask(where, taskId, ledger.firstDoneTaskIds(1)[0]);
    return {
      taskId: r.taskId,
      farmId: r.farmId,
      farmType: r.farmType,
      seed: r.seed,
      aep: r.aep,
      x: r.x,
      y: r.y,
      ...rowModels(r.turbineTypes, r.x.length, r.type),
      ...(r.cableTo ? { cableTo: r.cableTo } : {}),
      ...(r.cableTo && r.cableType ? { cableType: r.cableType } : {}),
      ...(r.metrics ? { metrics: r.metrics } : {}),
      case: storedCase(supply, r.farm, r.type, r.farmId, r.farmType, taskId, `${where} (${taskId})`),
      farmLabel: definitionLabel(r.farm, `farm ${r.farmId}`),
      typeLabel: definitionLabel(r.type, `type ${r.farmType}`),
      campaign,
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
        const farm = defs.farms[String(rec.farmId)],
          type = defs.types[String(rec.farmType)];
        found.set(rec.taskId, {
          taskId: rec.taskId,
          farmId: rec.farmId,
          farmType: rec.farmType,
          seed: rec.seed,
          aep: rec.aep,
          x: rec.x,
          y: rec.y,
          ...rowModels(rec.turbineTypes, rec.x.length, type),
          ...(rec.cableTo ? { cableTo: rec.cableTo } : {}),
          ...(rec.cableTo && rec.cableType ? { cableType: rec.cableType } : {}),
          ...(rec.metrics ? { metrics: rec.metrics } : {}),
          case: storedCase(supply, farm, type, rec.farmId, rec.farmType, rec.taskId, `${file} (${rec.taskId})`),
          farmLabel: definitionLabel(farm, `farm ${rec.farmId}`),
          typeLabel: definitionLabel(type, `type ${rec.farmType}`),
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
    const ledger = LedgerReader.open(source);
    try {
      const ids = ledger.firstDoneTaskIds(2);
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
    throw new InputError(
      `${source}: give --task ID (${reader.rows === 0 ? 'the file holds no rows' : `${reader.rows} rows, e.g. ${reader.readRecords(0, 1)[0].taskId}`})`,
    );
  } finally {
    reader.close();
  }
}
