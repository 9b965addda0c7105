/**
 * The engine session's `flow_conditions` request {handle} + x, y (docs/python.md:
 * `Farm.flow_conditions`): every own turbine's effective speed, effective TI, Ct and power in
 * every wind condition of the farm's resource, and the weight its power counts with in the AEP
 * (optimize/caseFlowConditions.ts), as arrays by condition × turbine (row-major). The response's
 * `aep_mwh` is the farm's evaluator's own AEP, which hours · 1e-6 · Σ weight · power equals.
 */
import { caseFlowConditions } from '../optimize/caseFlowConditions.js';
import { InputError } from '../util/errors.js';
import { coordinates } from './requestFields.js';
import type { RequestHandler } from './sessionTypes.js';

/** One response array's limit (frames.ts: 1 000 000 values). */
const MAX_VALUES = 1_000_000;

export const FLOW_CONDITIONS_REQUEST: RequestHandler = {
  fields: ['handle'],
  arrays: ['x', 'y'],
  answer(farms, h, arrays, kind) {
    const farm = farms.farm(kind, h.handle);
    const x = coordinates(kind, 'x', arrays, farm.n),
      y = coordinates(kind, 'y', arrays, farm.n);
    const w = farm.c.wind;
    const count = w.series ? w.series.speeds.length : w.directionsDeg.length * w.speeds.length;
    if (count * farm.n > MAX_VALUES)
      throw new InputError(`${kind}: ${count} conditions × ${farm.n} turbines = ${count * farm.n} values, more than one response's ${MAX_VALUES}`);
    const f = caseFlowConditions(farm.c, x, y);
    const aep = farm.evaluator.aep(x, y).aepMwh;
    return {
      fields: { shape: f.shape, n_conditions: f.nConditions, n_directions: f.nDirections, n_speeds: f.nSpeeds, hours_per_year: f.hoursPerYear, aep_mwh: aep },
      arrays: {
        direction_deg: f.directionDeg,
        speed_ms: f.speed,
        ambient_ti: f.ambientTi,
        ws_eff: f.wsEff,
        ti_eff: f.tiEff,
        ct: f.ct,
        power_w: f.powerW,
        weight: f.weight,
        directions_deg: f.directionsDeg,
        speeds_ms: f.speeds,
      },
    };
  },
};
