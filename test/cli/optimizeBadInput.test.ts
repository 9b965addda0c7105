/** `wflo optimize` on bad input: one line naming what is wrong, exit code 2. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';

const dir = tempDir('wflo-opt-bad-');

function expectBadInput(args: string[], pattern: RegExp) {
  const t0 = Date.now();
  const r = runWflo(args);
  assert.equal(r.status, 2, `exit 2 expected, got ${r.status}: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], pattern);
  assert.ok(Date.now() - t0 < 60_000);
}

test('unknown case', () => expectBadInput(['optimize', 'iea37-cs7'], /unknown case 'iea37-cs7'/));
test('unknown method', () => expectBadInput(['optimize', 'iea37-cs1-16', '--method', 'genetic'], /optimizer method: unknown 'genetic'/));
test('bad wec list', () => expectBadInput(['optimize', 'iea37-cs1-16', '--wec', '3,2'], /the last factor must be 1/));

test('a boundary that cannot hold the turbines at the required spacing', () => {
  fs.writeFileSync(path.join(dir, 'tight.yaml'), 'base: iea37-cs1-16\nboundary: {circle: {center: [0, 0], radius: 300}}\nn_turbines: 30\n');
  expectBadInput(['optimize', path.join(dir, 'tight.yaml')], /cannot place 30 turbines at spacing 260 m/);
});

test('a degenerate (self-intersecting) polygon', () => {
  fs.writeFileSync(path.join(dir, 'bowtie.yaml'), 'base: iea37-cs1-16\nboundary: {polygon: [[0, 0], [1000, 1000], [1000, 0], [0, 1000]]}\n');
  expectBadInput(['optimize', path.join(dir, 'bowtie.yaml')], /bowtie\.yaml:2: boundary: polygon is self-intersecting/);
});

test('a polygon with two vertices', () => {
  fs.writeFileSync(path.join(dir, 'line.yaml'), 'base: iea37-cs1-16\nboundary: {polygon: [[0, 0], [1000, 1000]]}\n');
  expectBadInput(['optimize', path.join(dir, 'line.yaml')], /line\.yaml.*polygon/);
});
