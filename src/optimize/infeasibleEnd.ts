/**
 * An optimization that ends with an infeasible layout even after the repair pass. It is
 * deterministic (the same case, settings and seed end there again), so it is `permanent`: a
 * campaign records the task as failed at once instead of retrying it (runner/scheduler.ts). As a
 * command's error it is a runtime failure (exit 1).
 */
import { RuntimeFailure } from '../util/errors.js';

export class InfeasibleEnd extends RuntimeFailure {
  readonly permanent = true;
}
