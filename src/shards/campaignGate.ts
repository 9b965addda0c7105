/**
 * `--expect CAMPAIGN.yaml` as a record check: the record must be a task of the campaign's grid
 * and pass campaign/verifyRecord.ts (turbine count, boundary and exclusions, spacing, AEP
 * recomputed with the campaign's farm model), its layout allowed `--tolerance-m` of optimizer slack.
 * Loaded by the probe child only when a request asks
 * for verification; the campaign is loaded once per child, file and tolerance.
 */
import { loadCampaign } from '../campaign/loadCampaign.js';
import { expandTasks } from '../campaign/taskGrid.js';
import { RecordVerifier } from '../campaign/verifyRecord.js';
import type { RecordCheck } from './recordGate.js';
import type { RecordVerification } from './shardTypes.js';

const checks = new Map<string, RecordCheck>();

export function campaignCheckFor(spec: RecordVerification): RecordCheck {
  const key = `${spec.campaignFile}\u0000${spec.aepTolerance}\u0000${spec.toleranceM ?? ''}`;
  let check = checks.get(key);
  if (!check) {
    try {
      const campaign = loadCampaign(spec.campaignFile);
      const verifier = new RecordVerifier(campaign, { aepTolerance: spec.aepTolerance });
      const tasksById = new Map(expandTasks(campaign).map((t) => [t.taskId, t]));
      check = (record) => {
        const task = tasksById.get(record.taskId);
        if (!task) return `not a task of campaign ${campaign.name}`;
        // A foreign record: held to --tolerance-m (default the optimizer's own), its refusal naming the option.
        const verdict = verifier.verify(task, { x: record.x, y: record.y, aep: record.aep }, undefined, { toleranceM: spec.toleranceM });
        return verdict.ok ? null : verdict.reason;
      };
    } catch (err) {
      // The parent loaded the same file before starting: this only happens if it changed since.
      const reason = `cannot verify against ${spec.campaignFile}: ${(err as Error).message}`;
      check = () => reason;
    }
    checks.set(key, check);
  }
  return check;
}
