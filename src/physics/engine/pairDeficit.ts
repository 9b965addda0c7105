/**
 * The pointwise pair deficit: one source's wake deficit fraction δ at one target, averaged over
 * the target rotor (the rotor-average component: rotor/rotorPoints.ts, or the centre), and the
 * ground component (the source's image below the ground, combined with the direct deficit by the
 * superposition rule, as PyWake's Mirror). Used by the waked solve's pointwise path
 * (engine/forward.ts) and the blockage solve (blockageSolve.ts).
 *
 *   δ = Σ_q w_q δ_model(dx, (dy + R y_q)² + (dz + R z_q)²)       (centre: δ_model(dx, dy² + dz²))
 *
 * Partials by the chain rule through the points: ∂/∂dx, ∂/∂dy (= Σ w_q 2(dy + R y_q) ∂δ/∂cw²),
 * ∂/∂Ct and ∂/∂TI of the source.
 */
import type { LocalWakeModel } from '../wake/localWake.js';
import type { RotorPoints } from '../rotor/rotorPoints.js';

/**
 * δ of the pair at (dx, dy, dz) from the source's coefficients at coef[off]; `withDz` false means
 * dz is 0 and left out. With `g` (the model's 4-number scratch) the partials ∂/∂dx, ∂/∂dy, ∂/∂Ct,
 * ∂/∂TI go to out[o … o + 3].
 */
export function rotorAveragedDeficit(
  model: LocalWakeModel,
  points: RotorPoints | null,
  radius: number,
  dx: number,
  dy: number,
  dz: number,
  withDz: boolean,
  coef: Float64Array,
  off: number,
  g: Float64Array | null,
  out: Float64Array,
  o: number,
): number {
  if (points === null) {
    const f = model.deficit(dx, withDz ? dy * dy + dz * dz : dy * dy, coef, off, g);
    if (g) {
      out[o] = g[0];
      out[o + 1] = 2 * dy * g[1];
      out[o + 2] = g[2];
      out[o + 3] = g[3];
    }
    return f;
  }
  let f = 0;
  let fdx = 0,
    fdy = 0,
    fct = 0,
    fti = 0;
  const { y: py, z: pz, w: pw } = points;
  // The points share dx: a model with atDistance computes its dx part once per pair.
  const shared = model.atDistance !== undefined;
  if (shared) model.atDistance!(dx, coef, off, g !== null);
  for (let r = 0; r < pw.length; r++) {
    const yy = dy + radius * py[r],
      zz = withDz ? dz + radius * pz[r] : radius * pz[r];
    const v = shared ? model.deficitAtRadius!(yy * yy + zz * zz, g) : model.deficit(dx, yy * yy + zz * zz, coef, off, g);
    f += pw[r] * v;
    if (g) {
      fdx += pw[r] * g[0];
      fdy += pw[r] * 2 * yy * g[1];
      fct += pw[r] * g[2];
      fti += pw[r] * g[3];
    }
  }
  if (g) {
    out[o] = fdx;
    out[o + 1] = fdy;
    out[o + 2] = fct;
    out[o + 3] = fti;
  }
  return f;
}

/**
 * A pair's deficit fraction with the ground mirror: the direct `f` and the image's `fm` combined
 * by the superposition rule (0 linear: sum; 1 squared sum: √(f² + fm²); 2 max), as PyWake sums
 * the two (in m/s, which the common reference speed factors out of). With `pair`, its partials
 * at [b+1 … b+4] (the direct one's on entry) become the combination's, from the image's in `mp`.
 */
export function combineMirror(supKind: number, f: number, fm: number, pair: Float64Array | null, b: number, mp: Float64Array): number {
  if (supKind === 0) {
    if (pair) for (let k = 0; k < 4; k++) pair[b + 1 + k] += mp[k];
    return f + fm;
  }
  if (supKind === 1) {
    const c = Math.sqrt(f * f + fm * fm);
    if (pair) for (let k = 0; k < 4; k++) pair[b + 1 + k] = c > 0 ? (f * pair[b + 1 + k] + fm * mp[k]) / c : 0;
    return c;
  }
  if (fm > f) {
    if (pair) for (let k = 0; k < 4; k++) pair[b + 1 + k] = mp[k];
    return fm;
  }
  return f;
}
