/**
 * One evaluation of a case's AEP on several worker threads (physics/parallelAep.ts: the
 * directions split into blocks), for `wflo aep --threads N`: a big farm on a fine rose (a spread
 * or refined rose multiplies the directions) takes a fraction of the time. The same AEP as one
 * thread: bit-identical on the native kernel, equal up to the order of additions otherwise. For a
 * farm of one turbine model, without neighbours or blockage (the parallel evaluator's scope); a
 * case outside it is one line naming what it has.
 */
import type { Case } from '../case/case.js';
import type { AepWithGradient } from '../physics/aep.js';
import { createParallelEvaluator } from '../physics/parallelAep.js';
import { InputError } from '../util/errors.js';
import { casePlan } from './caseEvaluator.js';
import type { SolvePlan } from '../physics/solvePlanTypes.js';

export async function parallelCaseAep(c: Case, threads: number, withGradient: boolean): Promise<AepWithGradient & { plan: SolvePlan }> {
  // The solvers that take direction blocks are the free stream and the waked solve of one turbine model (the solve plan's choice).
  const plan = casePlan(c, c.model, { gradient: withGradient });
  const outside = c.turbines
    ? 'several turbine models'
    : c.neighbours && c.neighbours.x.length > 0
      ? 'neighbouring turbines'
      : plan.solver === 'blockage'
        ? 'blockage'
        : plan.solver === 'weighted-sum'
          ? "the weighted sum (superposition 'weighted')"
          : null;
  if (outside) throw new InputError(`--threads: ${c.name} has ${outside}; evaluate it on one thread (leave out --threads)`);
  const evaluator = createParallelEvaluator(c.turbine, c.wind, c.model, threads);
  try {
    const r = withGradient ? await evaluator.aepWithGradient(c.layout!.x, c.layout!.y) : await evaluator.aep(c.layout!.x, c.layout!.y);
    return { ...r, plan: evaluator.plan };
  } finally {
    await evaluator.close();
  }
}
