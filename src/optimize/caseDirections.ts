/**
 * A case's direction treatment (physics/directionTreatment.ts): the case's `wind` is the wind the
 * AEP is computed on (treated: an ordinary resource, so every optimizer and its exact gradients
 * apply unchanged), and `directions` keeps the treatment and the rose as listed (its bins: the
 * benchmark measure, what `wflo aep` prints beside the treated AEP and what result files write).
 * A case without `directions` is on its bins.
 */
import { treatDirections, type DirectionTreatment } from '../physics/directionTreatment.js';
import type { WindResource } from '../physics/windResource.js';
import type { Case } from '../case/case.js';

/** The case with its directions treated by `t` (from the rose as listed; `bins` gives it back untreated). */
export function withDirections(c: Case, t: DirectionTreatment): Case {
  const listed = caseListedWind(c);
  if (t.kind === 'bins') {
    const { directions: _d, ...rest } = c;
    return { ...rest, wind: listed };
  }
  const { wind, binOf } = treatDirections(listed, t);
  return { ...c, wind, directions: { treatment: t, listedWind: listed, binOf } };
}

/** The wind as the case lists it (its bins), before any treatment. */
export function caseListedWind(c: Pick<Case, 'wind' | 'directions'>): WindResource {
  return c.directions?.listedWind ?? c.wind;
}

/** The case's treatment (bins when it has none). */
export function caseTreatment(c: Pick<Case, 'directions'>): DirectionTreatment {
  return c.directions?.treatment ?? { kind: 'bins' };
}
