/**
 * `wflo missing`: the campaign's tasks that are not done (pending, stale or failed), and a
 * campaign file restricted to them. The file is the campaign as last run (its text is in the
 * ledger, comments kept) with `only:` listing the missing tasks, `output:` pointing at this
 * output folder, and relative file references rewritten for the new file's location, so
 * `wflo run` of it computes the same spec hashes and fills in exactly those tasks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument, isMap, isSeq, isScalar, type YAMLMap } from 'yaml';
import { InputError, RuntimeFailure } from '../util/errors.js';
import { Ledger } from './ledger.js';

export interface MissingTask {
  taskId: string;
  state: 'pending' | 'stale' | 'failed';
}

export function listMissing(dir: string): { campaign: string; total: number; missing: MissingTask[] } {
  const ledger = Ledger.open(dir, { readonly: true });
  try {
    ledger.db.exec('BEGIN');
    try {
      return { campaign: ledger.getMeta('campaign_name') ?? '', total: ledger.totals().total, missing: ledger.notDone() };
    } finally {
      ledger.db.exec('COMMIT');
    }
  } finally {
    ledger.close();
  }
}

const looksLikeFile = (s: string): boolean => /\.ya?ml$/i.test(s) || s.includes('/') || s.includes(path.sep);

/** Rewrite a relative file reference written for `fromDir` so it works from `toDir`. */
function rebase(map: YAMLMap, key: string, fromDir: string, toDir: string): void {
  const node = map.get(key, true);
  if (!isScalar(node) || typeof node.value !== 'string' || !looksLikeFile(node.value) || path.isAbsolute(node.value)) return;
  const rel = path.relative(toDir, path.resolve(fromDir, node.value)) || '.';
  node.value = rel;
}

/** Write a campaign file restricted to `missing` (absolute paths kept absolute). */
export function writeMissingCampaign(dir: string, outFile: string, missing: readonly MissingTask[]): void {
  const ledger = Ledger.open(dir, { readonly: true });
  let source: string | null, originalFile: string | null;
  try {
    source = ledger.getMeta('campaign_source');
    originalFile = ledger.getMeta('campaign_file');
  } finally {
    ledger.close();
  }
  if (source === null || originalFile === null) throw new InputError(`${dir}: the ledger has no campaign source recorded`);
  const doc = parseDocument(source);
  if (!isMap(doc.contents)) throw new RuntimeFailure(`${dir}: the recorded campaign is not a mapping`);
  const fromDir = path.dirname(originalFile);
  const toDir = path.dirname(path.resolve(outFile));
  for (const [listKey, fields] of [['farms', ['boundary', 'wind']], ['farm_types', ['turbine']]] as const) {
    const list = doc.get(listKey, true);
    if (!isSeq(list)) continue;
    for (const item of list.items) {
      if (!isMap(item)) continue;
      for (const f of fields) rebase(item, f, fromDir, toDir);
    }
  }
  doc.set('output', path.resolve(dir));
  const only = doc.createNode(missing.map((m) => m.taskId));
  doc.set('only', only);
  const header = `# Written by \`wflo missing ${dir}\` on ${new Date().toISOString()}: the ${missing.length} tasks not done.\n`;
  const tmp = `${outFile}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, header + doc.toString({ lineWidth: 0 }));
    fs.renameSync(tmp, outFile);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    const e = err as NodeJS.ErrnoException;
    throw new RuntimeFailure(`cannot write ${outFile} (${e.code === 'ENOSPC' ? 'disk full (ENOSPC)' : e.code ?? e.message})`);
  }
}
