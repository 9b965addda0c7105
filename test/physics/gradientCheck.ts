/** Shared by the gradient tests: the exact AEP gradient against central differences (h = 1e-3 m unless given). */
import assert from 'node:assert/strict';
import type { FarmEvaluator } from '../../src/physics/aep.js';
import { createRng } from '../../src/util/rng.js';

/** Checks AEP with and without gradient agree; returns the largest |gradient| and |exact − FD|. */
export function centralDifferenceCheck(ev: FarmEvaluator, x: Float64Array, y: Float64Array, h = 1e-3): { maxAbs: number; maxErr: number } {
  const exact = ev.aepWithGradient(x, y);
  assert.ok(Math.abs(exact.aepMwh - ev.aep(x, y).aepMwh) <= 1e-12 * exact.aepMwh, 'AEP with and without gradient agree');
  let maxAbs = 0,
    maxErr = 0;
  for (const [coords, grad] of [
    [x, exact.gradX],
    [y, exact.gradY],
  ] as const) {
    for (let i = 0; i < coords.length; i++) {
      const keep = coords[i];
      coords[i] = keep + h;
      const up = ev.aep(x, y).aepMwh;
      coords[i] = keep - h;
      const down = ev.aep(x, y).aepMwh;
      coords[i] = keep;
      const fd = (up - down) / (2 * h);
      maxAbs = Math.max(maxAbs, Math.abs(grad[i]));
      maxErr = Math.max(maxErr, Math.abs(grad[i] - fd));
    }
  }
  return { maxAbs, maxErr };
}

/** n turbines at random (seeded) in a size × size square, metres. */
export function randomLayout(seed: number, n: number, size: number): { x: Float64Array; y: Float64Array } {
  const rng = createRng(seed);
  const x = new Float64Array(n),
    y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = rng.uniform(0, size);
    y[i] = rng.uniform(0, size);
  }
  return { x, y };
}
