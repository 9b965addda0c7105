/**
 * erf, Γ and ψ (used by the Zong and Blondel wake models) against published values
 * (Abramowitz & Stegun tables 7.1, 6.1, 6.3; √π; Euler's constant γ).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digamma, erf, gamma } from '../../src/physics/specialFunctions.js';

const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol * Math.abs(b), `${what}: ${a} vs ${b}`);

test('erf matches tabulated values to 1e-14', () => {
  for (const [x, v] of [
    [0.1, 0.1124629160182849],
    [0.5, 0.5204998778130465],
    [1, 0.8427007929497149],
    [2, 0.9953222650189527],
    [3, 0.9999779095030014],
    [-1, -0.8427007929497149],
  ]) {
    close(erf(x), v, 1e-14, `erf(${x})`);
  }
  assert.equal(erf(0), 0);
  assert.equal(erf(7), 1);
});

test('gamma and digamma match known values', () => {
  close(gamma(0.5), Math.sqrt(Math.PI), 1e-14, 'Γ(1/2)');
  close(gamma(5), 24, 1e-14, 'Γ(5)');
  close(gamma(1 / 3), 2.678938534707747, 1e-14, 'Γ(1/3)');
  close(digamma(1), -0.5772156649015329, 1e-14, 'ψ(1)');
  close(digamma(0.5), -0.5772156649015329 - 2 * Math.LN2, 1e-14, 'ψ(1/2)');
  close(digamma(10), 2.251752589066721, 1e-14, 'ψ(10)');
});
