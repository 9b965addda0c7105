/**
 * Most turbines a farm may have, any objective: the wake engines visit every pair of turbines in
 * every wind bin, so an evaluation's time grows as n². Measured on 2 shared cores (IEA37 3.35 MW
 * on a 700 m square grid, cs1's 16 directions, `wflo optimize CASE --method none --initial random`:
 * two evaluations): 1.3 s at 3000 turbines, 12.2 s at 10 000, so about 6 s per evaluation at
 * 10 000; an optimization evaluates hundreds of times. 10 000 is also what a queue job's payload
 * carries (runner/executors/bullmq/jobPayload.ts). Beyond it the count is refused when the input
 * is read, with the estimate, instead of running silently for hours (10⁶ turbines: ~17 h per
 * evaluation). A farm with economics has a lower limit (cost/plausibility.ts: the cable router).
 */
import type { WindResource } from '../physics/windResource.js';

export const MAX_TURBINES = 10_000;

/** The wind bins an evaluation visits: a series' samples, else the rose's directions × speeds. */
export function windBins(w: WindResource): number {
  return w.series ? w.series.directionsDeg.length : w.directionsDeg.length * w.speeds.length;
}

/** Estimated seconds of one AEP evaluation of `n` turbines on `bins` wind bins (6 s at 10 000 × 16). */
export function evaluationSecondsEstimate(n: number, bins: number): number {
  return 6 * (n / 10_000) ** 2 * (bins / 16);
}

/** Why `n` turbines are too many for the engines in stated time, with the estimate, or null. */
export function turbineCountProblem(n: number, bins: number): string | null {
  if (n <= MAX_TURBINES) return null;
  const s = evaluationSecondsEstimate(n, bins);
  const shown = s < 120 ? `${Math.round(s)} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
  return (
    `${n} turbines, over the limit of ${MAX_TURBINES}: one AEP evaluation on ${bins} wind bins is estimated at ${shown} ` +
    '(it grows as n²; 12 s measured for two at 10 000 on 16 bins; docs/inputs.md), and an optimization evaluates hundreds of times; split the farm'
  );
}
