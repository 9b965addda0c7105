/**
 * Exporter: rebuilds `layouts.h5` from the ledger. It reads one consistent snapshot (a single
 * read transaction, so rows committed meanwhile by a running campaign are simply not in this
 * export) and streams it, sorted by (farm_id, farm_type, seed), through io/hdf5's writer, which
 * writes a temp file, fsyncs, verifies and renames it into place under a single-writer lock.
 * Used by `wflo export` in-process and by `wflo run` through exporterProcess.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LayoutsFileReader, writeLayoutsFile } from '../io/hdf5/index.js';
import type { LayoutRecord } from '../io/layoutRecord.js';
import { RuntimeFailure } from '../util/errors.js';
import { LedgerReader } from './ledgerReader.js';
import { DamagedLedger, damagedLedger, isCorruption } from './ledgerDamage.js';

import { LAYOUTS_FILE } from './layoutsFile.js';
import { refuseOutputSymlinks } from './outputEntries.js';
import { lastExportFileStamp } from './lastExport.js';
import { fileStamp } from '../util/fileStamp.js';

export { LAYOUTS_FILE };
const BATCH_ROWS = 512;

export interface ExportReport {
  file: string;
  rows: number;
  expected: number;
  complete: boolean;
  bytes: number;
  seconds: number;
  campaignHash: string;
  /** The file's `created` attribute (identifies the file this export wrote). */
  created: string;
  /** The written file's stamp (util/fileStamp.ts): the next run knows it without opening it. */
  fileStamp: string | null;
}

export interface ExportOptions {
  /** Which command writes the file (root attribute `source`). */
  source?: string;
  /** Replace the file even when it holds results the ledger lacks. */
  force?: boolean;
}

function* inBatches(records: Iterable<LayoutRecord>): Generator<LayoutRecord[]> {
  let batch: LayoutRecord[] = [];
  for (const r of records) {
    batch.push(r);
    if (batch.length === BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Export the ledger of output folder `dir` to `outFile` (default `<dir>/layouts.h5`). A damaged
 * ledger is said as such (DamagedLedger, naming `wflo ledger rebuild`), wherever the damage is met.
 */
export async function exportLedger(dir: string, outFile?: string, o: ExportOptions = {}): Promise<ExportReport> {
  const source = o.source ?? 'wflo export';
  const started = performance.now();
  const file = path.resolve(outFile ?? path.join(dir, LAYOUTS_FILE));
  if (outFile === undefined) refuseOutputSymlinks(dir); // the folder's own layouts.h5 and lock are no links out of it
  const ledger = LedgerReader.open(dir);
  try {
    return await exportOpened(ledger, file, source, started, o);
  } catch (err) {
    // A damaged page met while streaming rows reaches here wrapped by the HDF5 writer: when the
    // failure reads like SQLite's and the ledger fails its integrity check, say that, with the way out.
    if (err instanceof DamagedLedger) throw err;
    if (isCorruption(err)) throw damagedLedger(ledger.path, (err as Error).message);
    if (!/malformed|not a database/.test((err as Error)?.message ?? '')) throw err;
    let problem: string | null = null;
    try {
      problem = ledger.integrityProblem();
    } catch (checkErr) {
      if (isCorruption(checkErr)) problem = (checkErr as Error).message;
    }
    throw problem ? damagedLedger(ledger.path, problem) : err;
  } finally {
    ledger.close();
  }
}

/** The export from one consistent read of the ledger. */
async function exportOpened(ledger: LedgerReader, file: string, source: string, started: number, o: ExportOptions): Promise<ExportReport> {
  return ledger.snapshot(async () => {
    const totals = ledger.totals();
    const campaignHash = ledger.getMeta('campaign_hash') ?? '';
    if (!o.force) await refuseToDropResults(file, ledger, campaignHash);
    const created = new Date();
    const { farms, types } = ledger.definitions();
    const written = await writeLayoutsFile(file, inBatches(ledger.doneRecords()), {
      campaignName: ledger.getMeta('campaign_name') ?? '',
      campaignHash,
      nExpected: totals.total,
      complete: totals.done === totals.total,
      maxTurbines: Math.max(1, ledger.maxTurbinesDone()),
      nRows: totals.done,
      farms,
      types,
      source,
      created,
      metricNames: ledger.metricNames(),
    });
    return {
      file,
      rows: written.rows,
      expected: totals.total,
      complete: totals.done === totals.total,
      bytes: written.bytes,
      seconds: (performance.now() - started) / 1000,
      campaignHash,
      created: created.toISOString(),
      fileStamp: written.stamp,
    };
  });
}

/**
 * An export never replaces a file that holds results the ledger lacks (a deleted or damaged
 * ledger, a lost WAL): rows whose spec hash is their task's current one but which the ledger has
 * no result for. Stale rows (another spec hash) may go. The file the last export of this ledger
 * wrote (same `created` stamp) is known to hold nothing else and is not read; nor is it opened
 * when its file stamp is still the one that export recorded (util/fileStamp.ts: untouched since).
 */
async function refuseToDropResults(file: string, ledger: LedgerReader, campaignHash: string): Promise<void> {
  if (!fs.existsSync(file)) return;
  const recorded = lastExportFileStamp(ledger);
  if (recorded !== null && fileStamp(file) === recorded) return;
  let reader: LayoutsFileReader;
  try {
    reader = await LayoutsFileReader.open(file);
  } catch {
    return; // not a readable layouts file: nothing in it can be lost by replacing it
  }
  try {
    const last = ledger.getMeta('last_export');
    if (last && (JSON.parse(last) as { created?: string }).created === reader.info.created) return;
    const states = ledger.taskStates();
    const fileIsCurrent = reader.info.campaignHash === campaignHash;
    let lacking = 0;
    let example = '';
    for (const k of reader.keys()) {
      for (let i = 0; i < k.taskId.length; i++) {
        const s = states.get(k.taskId[i]);
        if (!s || s.done) continue;
        if (k.specHash[i] ? k.specHash[i] === s.specHash : fileIsCurrent) {
          lacking++;
          example ||= k.taskId[i];
        }
      }
    }
    if (lacking > 0) {
      throw new RuntimeFailure(
        `${file} holds ${lacking} finished task${lacking === 1 ? '' : 's'} the ledger lacks (e.g. ${example}); not replaced. ` +
          `\`wflo run\` of the campaign adopts them back into the ledger (or \`wflo ledger rebuild ${path.dirname(ledger.path)}\`); --force replaces the file anyway`,
      );
    }
  } finally {
    reader.close();
  }
}
