/**
 * The file of `wflo optimize --history FILE`: an optimization's history (optimize/history.ts), one
 * row per step, as CSV (a `# Written by \`wflo optimize --history\`` line, then a header row, then
 * the rows; an empty cell where a value does not apply) or, when FILE ends in `.json`, as JSON
 * (`{"format": "wflo-history/1", "columns": [...], "rows": [{...}, ...]}`, null where a value does
 * not apply). Numbers are written in the shortest form that reads back to the same float64.
 * Written atomically (io/atomicWrite.ts): nothing half-written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomicWrite.js';
import { InputError } from '../util/errors.js';
import { HISTORY_COLUMNS, type HistoryRow } from '../optimize/history.js';

export const HISTORY_FORMAT = 'wflo-history/1';
export const HISTORY_CSV_HEAD = '# Written by `wflo optimize --history`';

export function historyText(file: string, rows: HistoryRow[]): string {
  if (file.toLowerCase().endsWith('.json')) {
    return `${JSON.stringify({ format: HISTORY_FORMAT, columns: HISTORY_COLUMNS, rows })}\n`;
  }
  const cell = (v: string | number | null) => (v === null ? '' : String(v));
  return [HISTORY_CSV_HEAD, HISTORY_COLUMNS.join(','), ...rows.map((r) => HISTORY_COLUMNS.map((k) => cell(r[k])).join(',')), ''].join('\n');
}

/** Before any work: the file's folder exists and the file is not a folder (else exit 2, nothing run). */
export function checkHistoryTarget(file: string, flag = '--history'): void {
  const dir = path.dirname(path.resolve(file));
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new InputError(`${flag} ${file}: folder ${dir} does not exist`);
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new InputError(`${flag} ${file}: is a folder, expected a file name`);
}

export function writeHistory(file: string, rows: HistoryRow[]): void {
  writeFileAtomic(file, historyText(file, rows));
}
