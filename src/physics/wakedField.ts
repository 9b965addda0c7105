/**
 * The waked engine's wind speed at arbitrary points at hub height, for one direction and speed:
 * the turbines are solved as in the AEP (wakedAep.ts `wakedFlow`: each one's effective speed, Ct
 * and TI), then every point is a target of every turbine upstream of it (dx > 0), with the model's
 * deficit at that point (no rotor average: a point has no rotor), the model's reference speed,
 * the ground mirror if the model has one, and the superposition rule:
 *
 *   u(p) = U − S_i( r_i · δ_i(dx_ip, dy_ip) )
 *
 * A point where a turbine stands gets the speed that turbine would see with a point rotor: for a
 * model at the rotor centre, its effective speed. Used by the flow-field drawing of the models the
 * free-stream engine lacks (views/flowField.ts).
 */
import type { Turbine } from './turbine.js';
import type { FarmModelSpec } from './farmModel.js';
import { wakedFlowOf } from './wakedAep.js';
import { superpositionKind, wakedSetup } from './engine/wakedSetup.js';
import { combineMirror } from './engine/pairDeficit.js';

const NO_PARTIALS = new Float64Array(4);

export function wakedSpeedsAt(
  turbine: Turbine,
  spec: FarmModelSpec,
  x: Float64Array,
  y: Float64Array,
  directionDeg: number,
  speed: number,
  turbulenceIntensity: number,
  px: Float64Array,
  py: Float64Array,
): Float64Array {
  if (spec.superposition === 'weighted') throw new Error('wakedSpeedsAt: the weighted sum has no point form here');
  const wind = { directionsDeg: Float64Array.of(directionDeg), speeds: Float64Array.of(speed), probability: Float64Array.of(1), turbulenceIntensity };
  const setup = wakedSetup(turbine, wind, spec);
  const flow = wakedFlowOf(setup, x, y);
  const n = x.length;
  const { model, superposition: sup } = setup;
  const K = model.coefficientCount;
  const coef = new Float64Array(n * K);
  for (let i = 0; i < n; i++) model.prepareSource(flow.ct[i], setup.useEffectiveTi ? flow.ti[i] : turbulenceIntensity, coef, i * K);
  const c = setup.cosByDir[0],
    s = setup.sinByDir[0];
  const xw = new Float64Array(n),
    yw = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xw[i] = x[i] * c + y[i] * s;
    yw[i] = -x[i] * s + y[i] * c;
  }
  const image = 2 * turbine.hubHeight;
  const supKind = superpositionKind(sup.name);
  const out = new Float64Array(px.length);
  for (let k = 0; k < px.length; k++) {
    const pxw = px[k] * c + py[k] * s,
      pyw = -px[k] * s + py[k] * c;
    let acc = 0;
    for (let i = 0; i < n; i++) {
      const dx = pxw - xw[i];
      if (!(dx > 0)) continue;
      const dy = (pyw - yw[i]) * setup.invWec;
      let f = model.deficit(dx, dy * dy, coef, i * K, null);
      if (setup.mirror) {
        const fm = model.deficit(dx, dy * dy + image * image, coef, i * K, null);
        f = combineMirror(supKind, f, fm, null, 0, NO_PARTIALS);
      }
      acc = sup.add(acc, (setup.referenceIsEffective ? flow.wsEff[i] : speed) * f);
    }
    out[k] = speed - sup.finish(acc);
  }
  return out;
}
