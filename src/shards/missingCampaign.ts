/**
 * A campaign file for just the missing tasks: the user's campaign file as written (comments
 * kept), with `only:` listing the tasks, and relative file references (`boundary`, `wind`,
 * `turbine`, `output`) rewritten for the new file's folder, so `wflo run NEW.yaml` computes the
 * same spec hashes and runs exactly those tasks. (runner/missingTasks.ts does the same from a
 * ledger; this one starts from a campaign file, since shard data has no ledger.)
 */
import { writeFileAtomic } from '../io/atomicWrite.js';
import type { Campaign } from '../campaign/campaign.js';
import { restrictCampaignText } from '../campaign/restrictCampaign.js';

/** Write `outFile`: `campaign` restricted to `taskIds`. */
export function writeMissingTasksCampaign(campaign: Campaign, outFile: string, taskIds: string[], header: string): void {
  const text = restrictCampaignText(campaign.sourceText, campaign.file, outFile, taskIds);
  writeFileAtomic(outFile, `${header.split('\n').map((l) => `# ${l}`).join('\n')}\n${text}`);
}
