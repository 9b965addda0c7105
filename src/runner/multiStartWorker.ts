/**
 * Child process of `wflo optimize --starts K`: receives {caseSpec, directions, objective, settings, seed} messages, runs
 * one optimization each and sends back the record (or the error message).
 */
import { loadCaseWithDirections } from '../io/aepInput.js';
import { withObjective } from '../io/objectiveField.js';
import type { Case } from '../case/case.js';
import { runOptimization } from '../optimize/runOptimization.js';
import type { OptimizerSettings } from '../optimize/settings.js';
import { exitWhenParentLeaves } from './parentLeaves.js';

interface Job {
  caseSpec: string;
  directions?: string;
  objective?: string;
  settings: OptimizerSettings;
  seed: number;
}

const cases = new Map<string, Case>();
process.on('message', (job: Job) => {
  try {
    const key = `${job.directions ?? ''}|${job.objective ?? ''}|${job.caseSpec}`;
    let c = cases.get(key);
    if (!c) {
      c = withObjective(loadCaseWithDirections(job.caseSpec, job.directions), job.objective, job.caseSpec);
      cases.set(key, c);
    }
    process.send!({ ok: true, seed: job.seed, record: runOptimization(c, job.settings, job.seed) });
  } catch (err) {
    process.send!({ ok: false, seed: job.seed, error: (err as Error).message });
  }
});
// Ends with `wflo optimize` (also in the middle of an optimization: parentLeaves.ts).
exitWhenParentLeaves();
