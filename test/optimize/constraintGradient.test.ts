/**
 * The optimizer's constraint functions (scaled boundary and spacing constraints of
 * layoutProblem.ts): Σ w_i ∇g_i against central finite differences of Σ w_i g_i, for the circle,
 * the concave cs3 polygon and the cs4 multipolygon.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCase } from '../../src/io/builtinCases.js';
import { layoutConstraints } from '../../src/optimize/layoutProblem.js';
import { createRng } from '../../src/util/rng.js';

for (const name of ['iea37-cs1-16', 'iea37-cs3', 'iea37-cs4']) {
  test(`constraint gradients = finite differences: ${name}`, () => {
    const c = builtinCase(name);
    const n = 10,
      scale = c.turbine.diameter;
    const cons = layoutConstraints(c.boundary, n, c.minSpacing, scale);
    const rng = createRng(42);
    const z = new Float64Array(2 * n);
    // Points around the baseline layout, some outside the site and some too close.
    for (let i = 0; i < n; i++) {
      z[i] = (c.layout!.x[i] + rng.uniform(-300, 300)) / scale;
      z[n + i] = (c.layout!.y[i] + rng.uniform(-300, 300)) / scale;
    }
    const w = new Float64Array(cons.count);
    for (let k = 0; k < w.length; k++) w[k] = rng.uniform(0, 2);
    const grad = new Float64Array(2 * n);
    cons.addWeightedGradient(z, w, grad);
    const g = new Float64Array(cons.count);
    const weighted = () => {
      cons.values(z, g);
      let s = 0;
      for (let k = 0; k < g.length; k++) s += w[k] * g[k];
      return s;
    };
    const h = 1e-6;
    let maxErr = 0,
      maxAbs = 0;
    for (let v = 0; v < 2 * n; v++) {
      const keep = z[v];
      z[v] = keep + h;
      const up = weighted();
      z[v] = keep - h;
      const down = weighted();
      z[v] = keep;
      maxErr = Math.max(maxErr, Math.abs((up - down) / (2 * h) - grad[v]));
      maxAbs = Math.max(maxAbs, Math.abs(grad[v]));
    }
    assert.ok(maxAbs > 0.1);
    assert.ok(maxErr <= 1e-6 * maxAbs, `max error ${maxErr}, relative ${maxErr / maxAbs}`);
  });
}
