/**
 * The campaign output folder a command works on, from what was typed: the folder itself, or the
 * campaign file whose `output:` names it (as `wflo slurm status CAMPAIGN.yaml` and `wflo collect`
 * read it). `wflo status`, `report`, `dashboard` and `missing` take either. Anything else (a
 * path that is not a YAML file) is passed on unchanged: the command's own check names it.
 */
import fs from 'node:fs';
import { loadCampaign } from '../campaign/loadCampaign.js';
import { InputError } from '../util/errors.js';
import { optimizerSettingsProblem } from './taskFunction.js';

const CAMPAIGN_FILE = /\.ya?ml$/i;

export function campaignFolderOf(given: string): string {
  if (!CAMPAIGN_FILE.test(given)) return given;
  if (!fs.existsSync(given)) throw new InputError(`${given}: no such file (give a campaign file or a campaign output folder)`);
  if (fs.statSync(given).isDirectory()) return given;
  const campaign = loadCampaign(given, { optimizerProblem: optimizerSettingsProblem });
  if (!campaign.outputDir) throw new InputError(`${given}: output: missing (the campaign names no output folder; give the folder instead)`);
  return campaign.outputDir;
}
