/**
 * A campaign file for just the missing tasks: the user's campaign file as written (comments
 * kept), with `only:` listing the tasks, and relative file references (`boundary`, `wind`,
 * `turbine`, `output`) rewritten for the new file's folder, so `wflo run NEW.yaml` computes the
 * same spec hashes and runs exactly those tasks. (runner/missingTasks.ts does the same from a
 * ledger; this one starts from a campaign file, since shard data has no ledger.)
 */
import { readFileHead } from '../io/boundedRead.js';
import { writeFileAtomic } from '../io/atomicWrite.js';
import type { Campaign } from '../campaign/campaign.js';
import { restrictCampaignText } from '../campaign/restrictCampaign.js';

/** How the header of a file written here begins (such a file may be replaced without --force). */
export const MISSING_CAMPAIGN_HEADER = '# Written by `wflo shards missing`';

/** Whether `file` was written by `wflo shards missing` (false when absent or unreadable). */
export function writtenByShardsMissing(file: string): boolean {
  // Only the header is read, and only from a regular file (a FIFO would block, a device never end).
  const head = readFileHead(file, Buffer.byteLength(MISSING_CAMPAIGN_HEADER));
  return head !== null && head.toString('utf8') === MISSING_CAMPAIGN_HEADER;
}

/** Write `outFile`: `campaign` restricted to `taskIds`; `header` starts with "Written by `wflo shards missing`". */
export function writeMissingTasksCampaign(campaign: Campaign, outFile: string, taskIds: string[], header: string): void {
  const text = restrictCampaignText(campaign.sourceText, campaign.file, outFile, taskIds);
  writeFileAtomic(
    outFile,
    `${header
      .split('\n')
      .map((l) => `# ${l}`)
      .join('\n')}\n${text}`,
  );
}
