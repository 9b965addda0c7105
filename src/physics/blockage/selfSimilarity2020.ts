/**
 * Self-similar induction (blockage) model, 2020 fit.
 *
 * N. Troldborg and A. R. Meyer Forsting, "A simple model of the wind turbine induction zone
 * derived from numerical simulations", Wind Energy 20 (2017) 2011–2020, doi:10.1002/we.2137,
 * eqs. (5)–(8), with the updated radial half-width and γ(x, Ct) fit that PyWake implements as
 * `SelfSimilarityDeficit2020` (its defaults are the constants below).
 *
 * For a target at downstream distance dx and crosswind distance cw from a source of radius R and
 * thrust coefficient Ct, in the free-stream speed U:
 *
 *   x = −|dx| / R                                             (x < 0 both up- and downstream)
 *   r½(x) = p₀ x + p₁                                          half-width (linear fit; p = −0.672, 0.4897)
 *   f_ε = sech(β cw / (R r½))^α                                radial shape, eq. (6); α = 8/9, β = √2
 *   f_a(x) = 1 + x / √(1 + x²)                                 axial shape along the centre line, eq. (7)
 *   γ(x, Ct) = w(x) γ_far(Ct) + (1 − w(x)) γ_near(Ct)           w = 0 for x > −1, 1 for x < −6, between
 *   w(x) = (f_a(−1) − f_a(x)) / (f_a(−1) − f_a(−6))             linear in f_a
 *   γ_near = ((n₀ Ct + n₁) Ct + n₂) Ct + n₃                     n = (−1.381, 2.627, −1.524, 1.336)
 *   γ_far = g₀ sin((Ct − g₁) / g₃) + g₂                         g = (−0.06489, 0.4911, 1.116, −0.1577)
 *   a₀ = a_Madsen(γ Ct),  a_Madsen(c) = 0.2460 c + 0.0586 c² + 0.0883 c³       eq. (8)
 *   δ = U · a₀ · f_a(x) · f_ε        upstream (dx < 0): a slow-down
 *   δ = −U · a₀ · f_a(x) · f_ε       downstream (dx > 0): a speed-up, set to 0 inside the source's
 *                                    wake (|cw| ≤ the wake model's wake radius; blockageSolve.ts)
 *
 * and δ = 0 where |x| ≤ 10⁻¹⁰ (beside the rotor). The geometric factors (f_a f_ε with its sign, w)
 * depend on the layout only; `pairGeometry` computes them with their partial derivatives once per
 * direction, and `induction` combines them with a source's Ct per flow condition.
 */

/** The model's constants (PyWake SelfSimilarityDeficit2020 defaults). */
export const SELF_SIMILARITY_2020 = {
  alpha: 8 / 9,
  beta: Math.SQRT2,
  r12p: [-0.672, 0.4897] as const,
  ngp: [-1.381, 2.627, -1.524, 1.336] as const,
  fgp: [-0.06489, 0.4911, 1.116, -0.1577] as const,
  limiter: 1e-10,
};
const MADSEN = [0.246, 0.0586, 0.0883] as const;

const axialShape = (x: number): number => 1 + x / Math.sqrt(1 + x * x);
const F_A_NEAR = axialShape(-1);
const F_A_SPAN = axialShape(-1) - axialShape(-6);

/**
 * Geometry of one (source → target) pair, written at `out[o…o+4]`:
 * [shape s = ±f_a f_ε, ∂s/∂dx, ∂s/∂dy, w, ∂w/∂dx]. Returns false (and writes zeros) where the
 * induction is exactly 0.
 */
export function pairGeometry(dx: number, dy: number, radius: number, out: Float64Array, o: number): boolean {
  const { alpha, beta, r12p, limiter } = SELF_SIMILARITY_2020;
  const x = -Math.abs(dx) / radius;
  if (!(x < -limiter)) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    out[o + 3] = 0;
    out[o + 4] = 0;
    return false;
  }
  const sign = dx < 0 ? 1 : -1;
  // dx/dx-of-pair: x = −|dx|/R.
  const xDx = dx < 0 ? 1 / radius : -1 / radius;
  const cw = Math.abs(dy);
  const r12 = r12p[0] * x + r12p[1];
  const z = (beta * cw) / (radius * r12);
  const feps = Math.pow(1 / Math.cosh(z), alpha);
  const dFepsDz = -alpha * Math.tanh(z) * feps;
  const q = 1 + x * x;
  const fa = 1 + x / Math.sqrt(q);
  const dFaDx = 1 / (q * Math.sqrt(q));
  out[o] = sign * fa * feps;
  out[o + 1] = sign * (dFaDx * feps + fa * dFepsDz * ((-z * r12p[0]) / r12)) * xDx;
  out[o + 2] = sign * fa * dFepsDz * (beta / (radius * r12)) * (dy < 0 ? -1 : 1);
  if (x < -6) {
    out[o + 3] = 1;
    out[o + 4] = 0;
  } else if (x > -1) {
    out[o + 3] = 0;
    out[o + 4] = 0;
  } else {
    out[o + 3] = (F_A_NEAR - fa) / F_A_SPAN;
    out[o + 4] = (-dFaDx / F_A_SPAN) * xDx;
  }
  return true;
}

/** γ_near, γ_far and their Ct-derivatives of a source, written at out[o…o+3]. */
export function sourceGamma(ct: number, out: Float64Array, o: number): void {
  const [n0, n1, n2, n3] = SELF_SIMILARITY_2020.ngp;
  const [g0, g1, g2, g3] = SELF_SIMILARITY_2020.fgp;
  out[o] = ((n0 * ct + n1) * ct + n2) * ct + n3;
  out[o + 1] = (3 * n0 * ct + 2 * n1) * ct + n2;
  const arg = (ct - g1) / g3;
  out[o + 2] = g0 * Math.sin(arg) + g2;
  out[o + 3] = (g0 * Math.cos(arg)) / g3;
}

/**
 * The induction δ/U of a pair with geometry `geom[go…]` from a source with thrust `ct` and γ terms
 * `gam[so…]`; `g` (when given) receives [∂/∂dx, ∂/∂dy, ∂/∂Ct] of δ/U.
 */
export function induction(geom: Float64Array, go: number, ct: number, gam: Float64Array, so: number, g: Float64Array | null): number {
  const shape = geom[go];
  const w = geom[go + 3];
  const near = gam[so],
    far = gam[so + 2];
  const gamma = w * far + (1 - w) * near;
  const c = gamma * ct;
  const a0 = c * (MADSEN[0] + c * (MADSEN[1] + c * MADSEN[2]));
  if (g) {
    const da = MADSEN[0] + c * (2 * MADSEN[1] + c * 3 * MADSEN[2]);
    g[0] = da * ct * geom[go + 4] * (far - near) * shape + a0 * geom[go + 1];
    g[1] = a0 * geom[go + 2];
    g[2] = da * (gamma + ct * (w * gam[so + 3] + (1 - w) * gam[so + 1])) * shape;
  }
  return a0 * shape;
}
