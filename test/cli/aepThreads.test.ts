/**
 * `wflo aep --threads N` (optimize/parallelCaseAep.ts over physics/parallelAep.ts): the same AEP
 * and gradient as one thread, to the bit on the native kernel (the blocks' energies are added in
 * direction order), on a 64-turbine case on a spread rose (1280 directions); a farm outside the
 * parallel evaluator's scope and a bad count are one line, exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { PYWAKE_REFERENCE, runWflo } from '../helpers.js';

const json = (args: string[]) => {
  const r = runWflo(args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { aep_mwh: number; per_turbine_mwh: number[]; grad_x_mwh_per_m: number[]; grad_y_mwh_per_m: number[] };
};

test('wflo aep --threads 2 and 3: the one-thread AEP and gradient, to the bit', () => {
  const args = ['aep', 'iea37-cs1-64', '--directions', 'spread:20', '--gradient', '--json'];
  const one = json(args);
  for (const threads of ['2', '3']) {
    const many = json([...args, '--threads', threads]);
    assert.equal(many.aep_mwh, one.aep_mwh);
    assert.deepEqual(many.per_turbine_mwh, one.per_turbine_mwh);
    assert.deepEqual(many.grad_x_mwh_per_m, one.grad_x_mwh_per_m);
    assert.deepEqual(many.grad_y_mwh_per_m, one.grad_y_mwh_per_m);
  }
});

test('wflo aep --threads: several turbine models or a bad count are one line, exit 2', () => {
  const mixed = runWflo(['aep', path.join(PYWAKE_REFERENCE, 'mixed-bastankhah2014.yaml'), '--threads', '2']);
  assert.equal(mixed.status, 2);
  assert.match(mixed.stderr.trim(), /^wflo: --threads: .* has several turbine models; evaluate it on one thread \(leave out --threads\)$/);
  const bad = runWflo(['aep', 'iea37-cs1-16', '--threads', '1.5']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr.trim(), /^wflo: --threads: expected a whole number from 1 to 256, got '1\.5'$/);
});
