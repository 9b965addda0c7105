/**
 * The campaign output folder a command works on, from what was typed: the folder itself, or the
 * campaign file whose `output:` names it (as `wflo slurm status CAMPAIGN.yaml` and `wflo collect`
 * read it). `wflo status`, `report`, `dashboard` and `missing` take either. Anything else (a
 * path that is not a YAML file) is passed on unchanged: the command's own check names it.
 * The campaign reader (and with it the physics it checks against) is loaded only for a campaign
 * file: `wflo status DIR` reads the ledger alone.
 */
import fs from 'node:fs';
import { InputError } from '../util/errors.js';

const CAMPAIGN_FILE = /\.ya?ml$/i;

export async function campaignFolderOf(given: string): Promise<string> {
  if (!CAMPAIGN_FILE.test(given)) return given;
  if (!fs.existsSync(given)) throw new InputError(`${given}: no such file (give a campaign file or a campaign output folder)`);
  if (fs.statSync(given).isDirectory()) return given;
  const { loadCampaign } = await import('../campaign/loadCampaign.js');
  const { optimizerSettingsProblem } = await import('./taskFunction.js');
  const campaign = loadCampaign(given, { optimizerProblem: optimizerSettingsProblem });
  if (!campaign.outputDir) throw new InputError(`${given}: output: missing (the campaign names no output folder; give the folder instead)`);
  return campaign.outputDir;
}
