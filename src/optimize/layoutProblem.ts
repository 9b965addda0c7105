/**
 * Layout optimization as a smooth constrained problem in scaled variables
 * z = [x_0/L, …, x_{n−1}/L, y_0/L, …, y_{n−1}/L] with L the rotor diameter:
 *
 *   minimize  −1000 · AEP(x, y) / AEP_ref             (per-mille of the reference AEP)
 *   subject to  (margin − dist_i) / L ≤ 0              turbine i inside the boundary
 *               (margin − clear_ik) / L ≤ 0            turbine i outside exclusion zone k
 *               (s_ij + margin − ‖p_i − p_j‖) / L ≤ 0  every pair i < j at least s_ij apart
 *
 * Constraint order: n boundary values, then n per exclusion zone (zone by zone), then the pairs.
 * s_ij is the case's spacing, or with several turbine models the larger of the pair's two
 * (geometry/pairSpacing.ts).
 *
 * The scaling makes gradients and constraint values O(1) for any farm size; the small margin
 * (1 mm by default) keeps the returned layout strictly feasible after a constraint tolerance.
 */
import type { FarmEvaluator } from '../physics/aep.js';
import { prepareBoundary, type PreparedBoundary } from '../geometry/preparedBoundary.js';
import { exclusionClearanceAt, siteSignedDistanceAt } from '../geometry/boundaryDistance.js';
import type { Boundary } from '../geometry/boundary.js';
import type { ObjectiveWithGradient } from './objective.js';
import type { InequalityConstraints } from './augmentedLagrangian.js';
import { pairMinimum, type SpacingRule } from '../geometry/pairSpacing.js';

export function toScaled(x: Float64Array, y: Float64Array, scale: number): Float64Array {
  const n = x.length;
  const z = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    z[i] = x[i] / scale;
    z[n + i] = y[i] / scale;
  }
  return z;
}

export function fromScaled(z: Float64Array, scale: number): { x: Float64Array; y: Float64Array } {
  const n = z.length / 2;
  const x = new Float64Array(n),
    y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = z[i] * scale;
    y[i] = z[n + i] * scale;
  }
  return { x, y };
}

/** −1000·AEP/aepRef as a function of the scaled variables, with its exact gradient. */
export function aepObjective(evaluator: FarmEvaluator, scale: number, aepRef: number, counter: { evaluations: number }): ObjectiveWithGradient {
  let n = -1;
  let x = new Float64Array(0),
    y = new Float64Array(0);
  const factor = -1000 / aepRef;
  return (z, grad) => {
    if (z.length / 2 !== n) {
      n = z.length / 2;
      x = new Float64Array(n);
      y = new Float64Array(n);
    }
    for (let i = 0; i < n; i++) {
      x[i] = z[i] * scale;
      y[i] = z[n + i] * scale;
    }
    const r = evaluator.aepWithGradient(x, y);
    counter.evaluations++;
    for (let i = 0; i < n; i++) {
      grad[i] = factor * r.gradX[i] * scale;
      grad[n + i] = factor * r.gradY[i] * scale;
    }
    return factor * r.aepMwh;
  };
}

/** Boundary and spacing constraints (see the file comment) for n turbines. */
export function layoutConstraints(
  boundary: Boundary | PreparedBoundary | null,
  n: number,
  minSpacing: SpacingRule,
  scale: number,
  marginM = 1e-3,
): InequalityConstraints {
  const site = boundary ? prepareBoundary(boundary) : null;
  const zoneCount = site ? site.exclusions.length : 0;
  const nBoundary = site ? n * (1 + zoneCount) : 0;
  const nPairs = (n * (n - 1)) / 2;
  const grad2 = new Float64Array(2);
  const perPair = typeof minSpacing !== 'number';
  const sMin = perPair ? NaN : minSpacing + marginM;
  return {
    count: nBoundary + nPairs,
    values(z, out) {
      if (site) {
        for (let i = 0; i < n; i++) out[i] = (marginM - siteSignedDistanceAt(site, z[i] * scale, z[n + i] * scale, grad2)) / scale;
        for (let k = 0; k < zoneCount; k++) {
          const base = n * (1 + k);
          for (let i = 0; i < n; i++) out[base + i] = (marginM - exclusionClearanceAt(site, k, z[i] * scale, z[n + i] * scale, grad2)) / scale;
        }
      }
      let k = nBoundary;
      for (let i = 0; i < n; i++) {
        const xi = z[i],
          yi = z[n + i];
        for (let j = i + 1; j < n; j++) {
          const dx = xi - z[j],
            dy = yi - z[n + j];
          out[k++] = (perPair ? pairMinimum(minSpacing, i, j) + marginM : sMin) / scale - Math.sqrt(dx * dx + dy * dy);
        }
      }
    },
    addWeightedGradient(z, w, grad) {
      if (site) {
        for (let i = 0; i < n; i++) {
          if (w[i] === 0) continue;
          siteSignedDistanceAt(site, z[i] * scale, z[n + i] * scale, grad2);
          grad[i] -= w[i] * grad2[0];
          grad[n + i] -= w[i] * grad2[1];
        }
        for (let k = 0; k < zoneCount; k++) {
          const base = n * (1 + k);
          for (let i = 0; i < n; i++) {
            const wi = w[base + i];
            if (wi === 0) continue;
            exclusionClearanceAt(site, k, z[i] * scale, z[n + i] * scale, grad2);
            grad[i] -= wi * grad2[0];
            grad[n + i] -= wi * grad2[1];
          }
        }
      }
      let k = nBoundary;
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++, k++) {
          const wk = w[k];
          if (wk === 0) continue;
          let dx = z[i] - z[j],
            dy = z[n + i] - z[n + j];
          let d = Math.sqrt(dx * dx + dy * dy);
          if (d === 0) {
            dx = 1;
            dy = 0;
            d = 1;
          } // coincident: push apart along x
          const gx = (wk * dx) / d,
            gy = (wk * dy) / d;
          grad[i] -= gx;
          grad[j] += gx;
          grad[n + i] -= gy;
          grad[n + j] += gy;
        }
      }
    },
  };
}
