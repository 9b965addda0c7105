/**
 * A campaign file's text restricted to some tasks, for a new file elsewhere: the original text with
 * comments kept, `only:` listing the tasks, and relative file references (farms' `boundary` and
 * `wind`, farm types' `turbine`) rewritten for the new file's folder so the spec hashes stay the
 * same (and a command optimizer's `workdir`, so its program and inputs stay where they were).
 * `output` is either set to a given absolute folder or rebased like the other references.
 * Used by `wflo missing -o` (from a ledger) and `wflo shards missing -o` (from a file).
 */
import path from 'node:path';
import { parseDocument, isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { InputError } from '../util/errors.js';

const looksLikeFile = (s: string): boolean => /\.ya?ml$/i.test(s) || s.includes('/') || s.includes(path.sep);

/** Rewrite a relative file reference written for `fromDir` so it works from `toDir`. */
function rebase(map: YAMLMap, key: string, fromDir: string, toDir: string, always = false): void {
  const node = map.get(key, true);
  if (!isScalar(node) || typeof node.value !== 'string' || path.isAbsolute(node.value)) return;
  if (!always && !looksLikeFile(node.value)) return;
  node.value = path.relative(toDir, path.resolve(fromDir, node.value)) || '.';
}

export function restrictCampaignText(sourceText: string, sourceFile: string, outFile: string, taskIds: readonly string[], outputDir?: string): string {
  const doc = parseDocument(sourceText);
  if (!isMap(doc.contents)) throw new InputError(`${sourceFile}: not a mapping`);
  const fromDir = path.dirname(sourceFile);
  const toDir = path.dirname(path.resolve(outFile));
  for (const [listKey, fields] of [
    ['farms', ['boundary', 'wind']],
    ['farm_types', ['turbine']],
  ] as const) {
    const list = doc.get(listKey, true);
    if (!isSeq(list)) continue;
    for (const item of list.items) {
      if (isMap(item)) for (const f of fields) rebase(item, f, fromDir, toDir);
    }
  }
  // A command optimizer runs in its workdir (default: the campaign file's folder): keep it where it was.
  const optimizer = doc.get('optimizer', true);
  if (isMap(optimizer) && optimizer.get('method') === 'command') {
    if (optimizer.has('workdir')) rebase(optimizer, 'workdir', fromDir, toDir, true);
    else if (path.resolve(fromDir) !== toDir) optimizer.set('workdir', path.relative(toDir, fromDir) || '.');
  }
  if (outputDir !== undefined) doc.set('output', path.resolve(outputDir));
  else rebase(doc.contents as YAMLMap, 'output', fromDir, toDir, true);
  doc.set('only', doc.createNode([...taskIds]));
  return doc.toString({ lineWidth: 0 });
}
