/**
 * The tasks a user expects (`--expect`): either a campaign file (its farms x farm_types x seeds,
 * or its `only` list), or ranges (`--farms`, `--types`, `--seeds`), or both (the campaign's grid
 * restricted to the ranges). Task ids are wflo's `farm_<f>_type_<t>_seed_<s>`.
 */
import { loadCampaign } from '../campaign/loadCampaign.js';
import { expandTasks } from '../campaign/taskGrid.js';
import type { Campaign } from '../campaign/campaign.js';
import { taskIdOf } from '../io/layoutRecord.js';
import { InputError } from '../util/errors.js';
import { parseRanges } from './taskRanges.js';

export interface ExpectedTask {
  taskId: string;
  farmId: number;
  farmType: number;
  seed: number;
}

export interface ExpectedGrid {
  /** Sorted by (farm, type, seed). */
  tasks: ExpectedTask[];
  /** Human description, e.g. "campaign demo.yaml" or "farms 0-9 x types 0-4 x seeds 0-59". */
  description: string;
  campaign?: Campaign;
}

export interface GridFlags {
  campaign?: string;
  farms?: string;
  types?: string;
  seeds?: string;
}

/** `[0, 1, 2, 5]` -> `0-2,5`. */
export function describeRange(values: number[]): string {
  if (values.length === 0) return 'none';
  const parts: string[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j] + 1) j++;
    parts.push(i === j ? `${values[i]}` : `${values[i]}-${values[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

export function expectedGrid(flags: GridFlags): ExpectedGrid {
  const farms = flags.farms !== undefined ? parseRanges(flags.farms, '--farms') : undefined;
  const types = flags.types !== undefined ? parseRanges(flags.types, '--types') : undefined;
  const seeds = flags.seeds !== undefined ? parseRanges(flags.seeds, '--seeds') : undefined;
  if (flags.campaign) {
    const campaign = loadCampaign(flags.campaign);
    const inRange = (v: number, allowed?: number[]) => !allowed || allowed.includes(v);
    const tasks = expandTasks(campaign)
      .filter((t) => inRange(t.farmId, farms) && inRange(t.farmType, types) && inRange(t.seed, seeds))
      .map((t) => ({ taskId: t.taskId, farmId: t.farmId, farmType: t.farmType, seed: t.seed }));
    const restricted = farms || types || seeds ? ' (restricted to the given ranges)' : '';
    return { tasks, description: `campaign ${flags.campaign}${restricted}`, campaign };
  }
  if (!farms || !types || !seeds) {
    throw new InputError('--expect needs a campaign file, or all of --farms, --types and --seeds (e.g. --farms 0-9 --types 0-4 --seeds 0-59)');
  }
  const tasks: ExpectedTask[] = [];
  for (const farmId of farms)
    for (const farmType of types) for (const seed of seeds) tasks.push({ taskId: taskIdOf(farmId, farmType, seed), farmId, farmType, seed });
  return { tasks, description: `farms ${describeRange(farms)} x types ${describeRange(types)} x seeds ${describeRange(seeds)}` };
}
