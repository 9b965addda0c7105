/**
 * `wflo optimize --starts K`: K seeds in worker processes; the best is the best of the same seeds
 * run one by one in this process (results do not depend on which worker ran them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { runWflo, tempDir } from '../helpers.js';
import { builtinCase } from '../../src/io/builtinCases.js';
import { optimizeLayout } from '../../src/optimize/optimizeLayout.js';

test('best of 4 starts over 2 workers = best of the 4 seeds run in-process', () => {
  const dir = tempDir('wflo-ms-');
  const out = path.join(dir, 'best.yaml');
  const r = runWflo([
    'optimize',
    'iea37-cs1-16',
    '--method',
    'gradient',
    '--seed',
    '5',
    '--starts',
    '4',
    '--workers',
    '2',
    '--wec',
    '2,1',
    '--max-iterations',
    '30',
    '--json',
    '--out',
    out,
  ]);
  assert.equal(r.status, 0, r.stderr);
  const best = JSON.parse(r.stdout);
  assert.equal(best.starts, 4);
  assert.equal(best.failed_starts, 0);
  const c = builtinCase('iea37-cs1-16');
  const local = [5, 6, 7, 8].map((seed) => ({ seed, r: optimizeLayout(c, { method: 'gradient', initial: 'random', wec: [2, 1], maxIterations: 30 }, seed) }));
  const top = local.reduce((a, b) => (b.r.aep > a.r.aep ? b : a));
  assert.equal(best.seed, top.seed);
  assert.equal(best.aep_mwh, top.r.aep);
  assert.deepEqual(best.x, Array.from(top.r.x));
  assert.ok(fs.readFileSync(out, 'utf8').includes(`seed: ${top.seed}`));
  assert.match(r.stderr, /\[4\/4\] seed \d+: /);
});
