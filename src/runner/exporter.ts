/**
 * Exporter: rebuilds `layouts.h5` from the ledger. It reads one consistent snapshot (a single
 * read transaction, so rows committed meanwhile by a running campaign are simply not in this
 * export) and streams it, sorted by (farm_id, farm_type, seed), through io/hdf5's writer, which
 * writes a temp file, fsyncs, verifies and renames it into place under a single-writer lock.
 * Used by `wflo export` in-process and by `wflo run` through exporterProcess.ts.
 */
import path from 'node:path';
import { writeLayoutsFile } from '../io/hdf5/index.js';
import type { LayoutRecord } from '../io/layoutRecord.js';
import { Ledger } from './ledger.js';

export const LAYOUTS_FILE = 'layouts.h5';
const BATCH_ROWS = 512;

export interface ExportReport {
  file: string;
  rows: number;
  expected: number;
  complete: boolean;
  bytes: number;
  seconds: number;
  campaignHash: string;
}

function* inBatches(records: Iterable<LayoutRecord>): Generator<LayoutRecord[]> {
  let batch: LayoutRecord[] = [];
  for (const r of records) {
    batch.push(r);
    if (batch.length === BATCH_ROWS) { yield batch; batch = []; }
  }
  if (batch.length > 0) yield batch;
}

/** Export the ledger of output folder `dir` to `outFile` (default `<dir>/layouts.h5`). */
export async function exportLedger(dir: string, outFile?: string, source = 'wflo export'): Promise<ExportReport> {
  const started = performance.now();
  const file = path.resolve(outFile ?? path.join(dir, LAYOUTS_FILE));
  const ledger = Ledger.open(dir, { readonly: true });
  try {
    ledger.db.exec('BEGIN');
    try {
      const totals = ledger.totals();
      const campaignHash = ledger.getMeta('campaign_hash') ?? '';
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
      });
      return {
        file, rows: written.rows, expected: totals.total, complete: totals.done === totals.total,
        bytes: written.bytes, seconds: (performance.now() - started) / 1000, campaignHash,
      };
    } finally {
      ledger.db.exec('COMMIT');
    }
  } finally {
    ledger.close();
  }
}
