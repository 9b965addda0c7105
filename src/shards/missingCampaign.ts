/**
 * A campaign file for just the missing tasks: the user's campaign file as written (comments
 * kept), with `only:` listing the tasks, and relative file references (`boundary`, `wind`,
 * `turbine`, `output`) rewritten for the new file's folder, so `wflo run NEW.yaml` computes the
 * same spec hashes and runs exactly those tasks. (runner/missingTasks.ts does the same from a
 * ledger; this one starts from a campaign file, since shard data has no ledger.)
 */
import path from 'node:path';
import { parseDocument, isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { writeFileAtomic } from '../io/atomicWrite.js';
import type { Campaign } from '../campaign/campaign.js';
import { InputError } from '../util/errors.js';

const looksLikeFile = (s: string): boolean => /\.ya?ml$/i.test(s) || s.includes('/') || s.includes(path.sep);

function rebase(map: YAMLMap, key: string, fromDir: string, toDir: string, always = false): void {
  const node = map.get(key, true);
  if (!isScalar(node) || typeof node.value !== 'string' || path.isAbsolute(node.value)) return;
  if (!always && !looksLikeFile(node.value)) return;
  node.value = path.relative(toDir, path.resolve(fromDir, node.value)) || '.';
}

/** Write `outFile`: `campaign` restricted to `taskIds`. */
export function writeMissingTasksCampaign(campaign: Campaign, outFile: string, taskIds: string[], header: string): void {
  const doc = parseDocument(campaign.sourceText);
  if (!isMap(doc.contents)) throw new InputError(`${campaign.file}: not a mapping`);
  const fromDir = path.dirname(campaign.file);
  const toDir = path.dirname(path.resolve(outFile));
  for (const [listKey, fields] of [['farms', ['boundary', 'wind']], ['farm_types', ['turbine']]] as const) {
    const list = doc.get(listKey, true);
    if (!isSeq(list)) continue;
    for (const item of list.items) {
      if (isMap(item)) for (const f of fields) rebase(item, f, fromDir, toDir);
    }
  }
  rebase(doc.contents as YAMLMap, 'output', fromDir, toDir, true);
  doc.set('only', doc.createNode(taskIds));
  writeFileAtomic(outFile, `${header.split('\n').map((l) => `# ${l}`).join('\n')}\n${doc.toString({ lineWidth: 0 })}`);
}
