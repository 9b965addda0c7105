/**
 * Rotor-averaging quadrature: points on the target rotor disc (offsets in units of the rotor
 * radius, crosswind y and vertical z) and weights summing to 1; the rotor-averaged deficit is
 * Σ w_q δ(dx, (dy + R y_q)² + (R z_q)²).
 *
 * - `center`: the hub only (PyWake's RotorCenter).
 * - `cgi4`, `cgi7`, `cgi9`, `cgi21`: circular Gauss integration rules for the disc (Abramowitz &
 *   Stegun 25.4.59–25.4.62; PyWake's CGIRotorAvg(n)): 4 points (±½, ±½) weights ¼; 7 points: centre
 *   ¼, (±√(2/3), 0) ⅛, (±√(1/6), ±√(1/2)) ⅛; 9 points: centre ⅙, (±1, 0), (0, ±1) 1/24, (±½, ±½) ⅙;
 *   21 points: centre 1/9 and two rings of 10 at r = √((6 ∓ √6)/10), angles 2πk/10, weights
 *   (16 ± √6)/360.
 * - `gqgridNxM`: a Cartesian Gauss–Legendre grid (N crosswind × M vertical nodes on [−1, 1]²)
 *   keeping the nodes inside the disc, weights renormalised to 1 (PyWake's GQGridRotorAvg).
 * - `gaussN` (N = 2…8): a polar Gauss grid, N Gauss–Legendre radii in r ∈ [0, 1] weighted by r, times
 *   2N equally spaced angles (exact for polynomials of degree 2N − 1 in r and 2N − 1 in angle).
 * - `eqgridN` (N = 1…20): PyWake's EqGridRotorAvg(N): the N × N grid of the interior points of N + 2
 *   equally spaced values on [−1, 1] in each direction, those strictly inside the disc, equal weights.
 * - `grid`: PyWake's GridRotorAvg() default, the 4 points (±⅓, ±⅓), equal weights.
 * - `polargrid`: PyWake's PolarGridRotorAvg() default: radii ⅓ and ⅔ (weights ¼ and ¾) times 6
 *   angles θ = −π + kπ/3 (weights ⅙), at (r cos(−θ − π/2), r sin(−θ − π/2)).
 */
export interface RotorPoints {
  y: Float64Array;
  z: Float64Array;
  w: Float64Array;
}

export type RotorAverageName = string;

function gaussLegendre(n: number): { x: number[]; w: number[] } {
  const x: number[] = [],
    w: number[] = [];
  for (let i = 1; i <= n; i++) {
    let t = Math.cos((Math.PI * (i - 0.25)) / (n + 0.5));
    let dp = 0;
    for (let it = 0; it < 100; it++) {
      let p0 = 1,
        p1 = t;
      for (let k = 2; k <= n; k++) {
        const p2 = ((2 * k - 1) * t * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = (n * (t * p1 - p0)) / (t * t - 1);
      const dt = p1 / dp;
      t -= dt;
      if (Math.abs(dt) < 1e-16) break;
    }
    x.push(t);
    w.push(2 / ((1 - t * t) * dp * dp));
  }
  return { x, w };
}

/** Points for a rotor-average name, or null for `center`; throws on an unknown name. */
export function rotorPoints(name: string): RotorPoints | null {
  if (name === 'center') return null;
  const corners = (a: number, b: number, w: number): number[][] => [
    [-a, -b, w],
    [-a, b, w],
    [a, -b, w],
    [a, b, w],
  ];
  let rule: number[][] | null = null;
  if (name === 'cgi4') rule = corners(0.5, 0.5, 1 / 4);
  if (name === 'cgi7')
    rule = [[0, 0, 1 / 4], [-Math.sqrt(2 / 3), 0, 1 / 8], [Math.sqrt(2 / 3), 0, 1 / 8], ...corners(Math.sqrt(1 / 6), Math.sqrt(1 / 2), 1 / 8)];
  if (name === 'cgi9') rule = [[0, 0, 1 / 6], [-1, 0, 1 / 24], [1, 0, 1 / 24], [0, -1, 1 / 24], [0, 1, 1 / 24], ...corners(0.5, 0.5, 1 / 6)];
  if (name === 'cgi21') {
    rule = [[0, 0, 1 / 9]];
    for (const sign of [-1, 1]) {
      const r = Math.sqrt((6 + sign * Math.sqrt(6)) / 10);
      for (let k = 1; k <= 10; k++) rule.push([r * Math.cos((2 * Math.PI * k) / 10), r * Math.sin((2 * Math.PI * k) / 10), (16 - sign * Math.sqrt(6)) / 360]);
    }
  }
  if (rule) {
    // Rules give (x crosswind, y vertical, weight).
    return { y: Float64Array.from(rule.map((p) => p[0])), z: Float64Array.from(rule.map((p) => p[1])), w: Float64Array.from(rule.map((p) => p[2])) };
  }
  if (name === 'grid')
    rule = [
      [-1 / 3, -1 / 3, 1 / 4],
      [1 / 3, -1 / 3, 1 / 4],
      [-1 / 3, 1 / 3, 1 / 4],
      [1 / 3, 1 / 3, 1 / 4],
    ];
  if (name === 'polargrid') {
    rule = [];
    for (let k = 0; k < 6; k++) {
      const theta = -Math.PI + (2 * Math.PI * k) / 6;
      for (const [r, wr] of [
        [1 / 3, 0.25],
        [2 / 3, 0.75],
      ])
        rule.push([r * Math.cos(-theta - Math.PI / 2), r * Math.sin(-theta - Math.PI / 2), wr / 6]);
    }
  }
  const eq = /^eqgrid(\d{1,2})$/.exec(name);
  if (eq && Number(eq[1]) >= 1 && Number(eq[1]) <= 20) {
    const n = Number(eq[1]);
    const v = Array.from({ length: n }, (_, i) => -1 + (2 * (i + 1)) / (n + 1));
    rule = [];
    for (const zz of v) for (const yy of v) if (yy * yy + zz * zz < 1) rule.push([yy, zz, 0]);
    for (const p of rule) p[2] = 1 / rule.length;
  }
  if (rule) {
    return { y: Float64Array.from(rule.map((p) => p[0])), z: Float64Array.from(rule.map((p) => p[1])), w: Float64Array.from(rule.map((p) => p[2])) };
  }
  const gq = /^gqgrid(\d{1,2})x(\d{1,2})$/.exec(name);
  if (gq) {
    const gx = gaussLegendre(Number(gq[1])),
      gy = gaussLegendre(Number(gq[2]));
    const y: number[] = [],
      z: number[] = [],
      w: number[] = [];
    for (let b = 0; b < gy.x.length; b++) {
      for (let a = 0; a < gx.x.length; a++) {
        if (gx.x[a] ** 2 + gy.x[b] ** 2 >= 1) continue;
        y.push(gx.x[a]);
        z.push(gy.x[b]);
        w.push((gx.w[a] * gy.w[b]) / 4);
      }
    }
    const total = w.reduce((p, q) => p + q, 0);
    return { y: Float64Array.from(y), z: Float64Array.from(z), w: Float64Array.from(w.map((v) => v / total)) };
  }
  const m = /^gauss([2-8])$/.exec(name);
  if (!m)
    throw new Error(
      `unknown rotor average '${name}' (known: center, area-overlap, cgi4, cgi7, cgi9, cgi21, gqgridNxM, gauss2…gauss8, eqgridN, grid, polargrid)`,
    );
  const n = Number(m[1]);
  const gl = gaussLegendre(n);
  const y: number[] = [],
    z: number[] = [],
    w: number[] = [];
  for (let i = 0; i < n; i++) {
    // r = (x + 1)/2 on [0, 1]; the area element r dr dθ / π, normalised to total weight 1.
    const r = (gl.x[i] + 1) / 2;
    const wr = (gl.w[i] / 2) * r * 2;
    for (let a = 0; a < 2 * n; a++) {
      const theta = (Math.PI * (2 * a + 1)) / (2 * n);
      y.push(r * Math.cos(theta));
      z.push(r * Math.sin(theta));
      w.push(wr / (2 * n));
    }
  }
  return { y: Float64Array.from(y), z: Float64Array.from(z), w: Float64Array.from(w) };
}
