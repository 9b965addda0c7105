/**
 * The engine session's farm requests beyond aep and aep_and_gradient (docs/python.md, handlers
 * declared as sessionTypes.ts RequestHandler; session.ts answers open, aep, aep_and_gradient,
 * close, shutdown itself):
 *
 * - `open_document` {document, source?}: a farm from a client's case document (farmDocument.ts);
 * - `aep_details` {handle} + x, y: the AEP with its energy per direction as `wflo aep --json`
 *   gives it (per listed bin under a direction treatment) and per turbine;
 * - `flow_map` {handle, direction_deg, min_x, max_x, min_y, max_y, nx, ny} + x, y: the hub-height
 *   speed over a grid for one direction, what `wflo plot --flow` draws (views/flowField.ts);
 * - `feasibility` {handle} + x, y: the optimizers' feasibility verdict (geometry/feasibility.ts);
 * - `constraints` {handle, margin_m?} + x, y: the optimizers' constraint values and Jacobian
 *   (constraintJacobian.ts);
 * - `optimize`: optimizeRequest.ts;
 * - `aep_batch` {handle, gradient?} + x, y of k layouts: batchRequest.ts;
 * - `flow_conditions`: flowConditionsRequest.ts;
 * - `cost`, `cables`: economicsRequests.ts.
 */
import type { Case } from '../case/case.js';
import { caseEvaluator, caseSpacing } from '../optimize/caseEvaluator.js';
import { caseListedWind, withDirections } from '../optimize/caseDirections.js';
import { energyByBin } from '../physics/directionTreatment.js';
import { checkFeasibility } from '../geometry/feasibility.js';
import { flowField } from '../views/flowField.js';
import { InputError } from '../util/errors.js';
import { caseFromClientDocument } from './farmDocument.js';
import { constraintValues } from './constraintJacobian.js';
import { OPTIMIZE_REQUEST } from './optimizeRequest.js';
import { AEP_BATCH_REQUEST } from './batchRequest.js';
import { FLOW_CONDITIONS_REQUEST } from './flowConditionsRequest.js';
import { ECONOMICS_REQUESTS } from './economicsRequests.js';
import { coordinates, finiteField, stringField, wholeField } from './requestFields.js';
import type { OpenFarm, RequestHandler } from './sessionTypes.js';

export { openCase } from './farmDocument.js';

/** Names a document's binary arrays may have (`{"$array": NAME}`): the frame's 16 at most. */
export const DOCUMENT_ARRAYS = 'abcdefghijklmnop'.split('');
/** A flow map's cells or a Jacobian's entries, at most (one frame's array limit). */
const MAX_CELLS = 1_000_000;

const layoutOf = (farm: OpenFarm, kind: string, arrays: Map<string, Float64Array>) => ({
  x: coordinates(kind, 'x', arrays, farm.n),
  y: coordinates(kind, 'y', arrays, farm.n),
});

/** Energy by direction as `wflo aep --json` shows it: by listed bin under a treatment, by evaluated direction otherwise. */
function shownEnergy(c: Case, perDirectionMwh: Float64Array): { perDirection: Float64Array; directionsDeg: Float64Array } {
  const listed = caseListedWind(c);
  if (c.directions && !listed.series)
    return { perDirection: energyByBin(perDirectionMwh, c.directions.binOf, listed.directionsDeg.length), directionsDeg: listed.directionsDeg };
  return { perDirection: perDirectionMwh, directionsDeg: c.wind.directionsDeg };
}

export const FARM_REQUESTS: Record<string, RequestHandler> = {
  aep_batch: AEP_BATCH_REQUEST,
  open_document: {
    fields: ['document', 'source'],
    arrays: DOCUMENT_ARRAYS,
    answer(farms, h, arrays, kind) {
      const source = stringField(`${kind}.source`, h.source) ?? '<python>';
      if (source.length === 0 || source.length > 200) throw new InputError(`${kind}.source: expected a short name for messages`);
      return farms.open(caseFromClientDocument(h.document, arrays, source, kind), source);
    },
  },
  aep_details: {
    fields: ['handle'],
    arrays: ['x', 'y'],
    answer(farms, h, arrays, kind) {
      const farm = farms.farm(kind, h.handle);
      const { x, y } = layoutOf(farm, kind, arrays);
      const r = farm.evaluator.aep(x, y);
      const { perDirection, directionsDeg } = shownEnergy(farm.c, r.perDirectionMwh);
      const c = farm.c;
      const binsAep = c.directions ? caseEvaluator(withDirections(c, { kind: 'bins' })).aep(x, y).aepMwh : null;
      return {
        fields: { aep_mwh: r.aepMwh, ...(binsAep !== null ? { aep_bins_mwh: binsAep, n_directions_evaluated: c.wind.directionsDeg.length } : {}) },
        arrays: { per_turbine_mwh: r.perTurbineMwh, per_direction_mwh: perDirection, directions_deg: directionsDeg },
      };
    },
  },
  flow_map: {
    fields: ['handle', 'direction_deg', 'min_x', 'max_x', 'min_y', 'max_y', 'nx', 'ny'],
    arrays: ['x', 'y'],
    answer(farms, h, arrays, kind) {
      const farm = farms.farm(kind, h.handle);
      const { x, y } = layoutOf(farm, kind, arrays);
      const directionDeg = finiteField(kind, 'direction_deg', h.direction_deg);
      const [minX, maxX, minY, maxY] = (['min_x', 'max_x', 'min_y', 'max_y'] as const).map((f) => finiteField(kind, f, h[f]));
      if (!(maxX > minX) || !(maxY > minY)) throw new InputError(`${kind}: expected min_x < max_x and min_y < max_y`);
      const nx = wholeField(`${kind}.nx`, h.nx, 1, 10_000),
        ny = wholeField(`${kind}.ny`, h.ny, 1, 10_000);
      if (nx * ny > MAX_CELLS) throw new InputError(`${kind}: ${nx} × ${ny} cells, more than ${MAX_CELLS}`);
      const f = flowField(farm.c, x, y, directionDeg, { minX, maxX, minY, maxY, nx, ny });
      const cellW = (maxX - minX) / nx,
        cellH = (maxY - minY) / ny; // cell centres, as flowField places them
      return {
        fields: { direction_deg: f.directionDeg, free_stream_ms: f.freeStreamSpeed, min_speed_ms: f.minSpeed, nx, ny },
        arrays: {
          speed_ms: Float64Array.from(f.speedByCell),
          x_m: Float64Array.from({ length: nx }, (_, ix) => minX + (ix + 0.5) * cellW),
          y_m: Float64Array.from({ length: ny }, (_, iy) => maxY - (iy + 0.5) * cellH),
        },
      };
    },
  },
  feasibility: {
    fields: ['handle'],
    arrays: ['x', 'y'],
    answer(farms, h, arrays, kind) {
      const farm = farms.farm(kind, h.handle);
      const { x, y } = layoutOf(farm, kind, arrays);
      const r = checkFeasibility(farm.c.boundary, x, y, caseSpacing(farm.c));
      return { fields: { feasible: r.feasible, max_violation_m: r.maxViolationM, worst: r.worst, worst_turbines: r.worstTurbines } };
    },
  },
  constraints: {
    fields: ['handle', 'margin_m'],
    arrays: ['x', 'y'],
    answer(farms, h, arrays, kind) {
      const farm = farms.farm(kind, h.handle);
      const { x, y } = layoutOf(farm, kind, arrays);
      const margin = finiteField(kind, 'margin_m', h.margin_m, 0);
      const pairs = (farm.n * (farm.n - 1)) / 2;
      // The Jacobian's entries (4 per pair, 2 per boundary row) must fit one array of a frame.
      if (4 * pairs + 2 * farm.n > MAX_CELLS)
        throw new InputError(`${kind}: ${farm.n} turbines make ${pairs} pairs, a Jacobian of more than ${MAX_CELLS} entries (one response's limit)`);
      const r = constraintValues(farm.c, x, y, margin);
      if (r.jacValue.length > MAX_CELLS)
        throw new InputError(`${kind}: a Jacobian of ${r.jacValue.length} entries, more than ${MAX_CELLS} (one response's limit)`);
      return {
        fields: { n_boundary: r.nBoundary, n_zones: r.nZones, n_pairs: r.nPairs },
        arrays: { values: r.values, jac_row: r.jacRow, jac_col: r.jacCol, jac_value: r.jacValue },
      };
    },
  },
  optimize: OPTIMIZE_REQUEST,
  flow_conditions: FLOW_CONDITIONS_REQUEST,
  ...ECONOMICS_REQUESTS, // cost, cables
};
