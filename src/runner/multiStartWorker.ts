/**
 * Child process of `wflo optimize --starts K`: receives {caseSpec, settings, seed} messages, runs
 * one optimization each and sends back the record (or the error message).
 */
import { loadCase } from '../io/caseFile.js';
import type { Case } from '../optimize/case.js';
import { runOptimization } from '../optimize/runOptimization.js';
import type { OptimizerSettings } from '../optimize/settings.js';
import { exitWhenParentLeaves } from './parentLeaves.js';

interface Job { caseSpec: string; settings: OptimizerSettings; seed: number }

const cases = new Map<string, Case>();
process.on('message', (job: Job) => {
  try {
    let c = cases.get(job.caseSpec);
    if (!c) { c = loadCase(job.caseSpec); cases.set(job.caseSpec, c); }
    process.send!({ ok: true, seed: job.seed, record: runOptimization(c, job.settings, job.seed) });
  } catch (err) {
    process.send!({ ok: false, seed: job.seed, error: (err as Error).message });
  }
});
// Ends with `wflo optimize` (also in the middle of an optimization: parentLeaves.ts).
exitWhenParentLeaves();
