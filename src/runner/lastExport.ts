/**
 * What the ledger's `last_export` meta row says about the last export of layouts.h5: its `created`
 * stamp and its file stamp (util/fileStamp.ts). A layouts.h5 that is that export holds nothing the
 * ledger lacks: recovery need not read it, and the exporter may replace it without reading it.
 */
import type { LedgerReader } from './ledgerReader.js';

/** The `created` stamp of the ledger's last export, or null. */
export function lastExportStamp(ledger: Pick<LedgerReader, 'getMeta'>): string | null {
  try {
    return (JSON.parse(ledger.getMeta('last_export') ?? 'null') as { created?: string } | null)?.created ?? null;
  } catch {
    return null;
  }
}

/** The file stamp of the ledger's last export (util/fileStamp.ts), or null (an export that did not record one). */
export function lastExportFileStamp(ledger: Pick<LedgerReader, 'getMeta'>): string | null {
  try {
    const stamp = (JSON.parse(ledger.getMeta('last_export') ?? 'null') as { file_stamp?: unknown } | null)?.file_stamp;
    return typeof stamp === 'string' ? stamp : null;
  } catch {
    return null;
  }
}
