/**
 * `wflo missing`: the campaign's tasks that are not done (pending, stale or failed), and a
 * campaign file restricted to them. The file is the campaign as last run (its text is in the
 * ledger, comments kept) with `only:` listing the missing tasks, `output:` pointing at this
 * output folder, and relative file references rewritten for the new file's location, so
 * `wflo run` of it computes the same spec hashes and fills in exactly those tasks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { restrictCampaignText } from '../campaign/restrictCampaign.js';
import { InputError, RuntimeFailure } from '../util/errors.js';
import { LedgerReader } from './ledgerReader.js';

export interface MissingTask {
  taskId: string;
  state: 'pending' | 'stale' | 'failed';
  /** A failed task: its attempts and the last attempt's error (the ledger's), so the list says why. */
  attempts?: number;
  error?: string;
}

export function listMissing(dir: string): { campaign: string; total: number; missing: MissingTask[] } {
  const ledger = LedgerReader.open(dir);
  try {
    return ledger.snapshot(() => {
      const why = new Map(ledger.failures(Number.MAX_SAFE_INTEGER).map((f) => [f.taskId, f]));
      const missing: MissingTask[] = ledger.notDone().map((m) => {
        const f = m.state === 'failed' ? why.get(m.taskId) : undefined;
        return f ? { ...m, attempts: f.attempts, error: f.error } : m;
      });
      return { campaign: ledger.getMeta('campaign_name') ?? '', total: ledger.totals().total, missing };
    });
  } finally {
    ledger.close();
  }
}

/** Write a campaign file restricted to `missing` (absolute paths kept absolute). */
/**
 * Writes the campaign of the tasks not done to `outFile`, its file references rebased to its folder.
 * Returns whether that folder lies outside the original campaign's folder: then the new file names
 * files outside its own folder, which the file door refuses unless the operator allows it
 * (`--allow-include-outside`, io/fileDoor.ts), and the caller says so.
 */
export function writeMissingCampaign(dir: string, outFile: string, missing: readonly MissingTask[]): { namesFilesOutside: boolean } {
  const ledger = LedgerReader.open(dir);
  let source: string | null, originalFile: string | null;
  try {
    source = ledger.getMeta('campaign_source');
    originalFile = ledger.getMeta('campaign_file');
  } finally {
    ledger.close();
  }
  if (source === null || originalFile === null) throw new InputError(`${dir}: the ledger has no campaign source recorded`);
  const text = restrictCampaignText(
    source,
    originalFile,
    outFile,
    missing.map((m) => m.taskId),
    dir,
  );
  const header = `# Written by \`wflo missing ${dir}\` on ${new Date().toISOString()}: the ${missing.length} tasks not done.\n`;
  const tmp = `${outFile}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, header + text);
    fs.renameSync(tmp, outFile);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    const e = err as NodeJS.ErrnoException;
    throw new RuntimeFailure(`cannot write ${outFile} (${e.code === 'ENOSPC' ? 'disk full (ENOSPC)' : (e.code ?? e.message)})`);
  }
  const from = path.relative(path.dirname(path.resolve(outFile)), path.dirname(path.resolve(originalFile)));
  return { namesFilesOutside: from.startsWith('..') || path.isAbsolute(from) };
}
