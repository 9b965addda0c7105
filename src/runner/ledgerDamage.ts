/**
 * A damaged ledger (a torn write, a page overwritten in place, a file that is not SQLite): the one
 * line that names the file and the way out (`wflo ledger rebuild DIR`), and the ledger files this
 * process opened, so that SQLite's "database disk image is malformed" met anywhere (`wflo status`
 * or `wflo export` reading a damaged page the open-time check did not touch) is said as that line,
 * not as an unexpected error. Light on purpose: the CLI's error handler imports it.
 */
import path from 'node:path';
import { RuntimeFailure } from '../util/errors.js';

export class DamagedLedger extends RuntimeFailure {
  constructor(
    message: string,
    readonly ledgerPath: string,
    readonly why: string,
  ) {
    super(message);
  }
}

/** The one message for a damaged ledger: which file, and the way out. */
export function damagedLedger(ledgerPath: string, why: string): DamagedLedger {
  const dir = path.dirname(ledgerPath);
  return new DamagedLedger(
    `${ledgerPath} is damaged (${why}); nothing was changed. Rebuild it from layouts.h5 and audit.jsonl with \`wflo ledger rebuild ${dir}\` (the damaged file is kept aside)`,
    ledgerPath,
    why,
  );
}

/** Whether an error is SQLite's word for a damaged database. */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

const opened = new Set<string>();

/** Remember that this process opened the ledger `file`. */
export function noteLedgerOpened(file: string): void {
  opened.add(path.resolve(file));
}

/**
 * `err` as a damaged-ledger line when it is SQLite's corruption error and this process opened one
 * ledger (which one it was is then certain); null otherwise.
 */
export function damagedLedgerBehind(err: unknown): DamagedLedger | null {
  if (!isCorruption(err) || opened.size !== 1) return null;
  return damagedLedger([...opened][0]!, (err as Error).message);
}
