/**
 * io/bathymetryFile.ts: a CSV grid (x,y,depth; rows in any order, columns in any order) becomes the
 * grid it writes down; every bad file is one line naming file:line and the column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers.js';
import { readBathymetryCsv } from '../../src/io/bathymetryFile.js';
import { InputError } from '../../src/util/errors.js';

const dir = tempDir('wflo-bathy-');
function write(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

test('a shuffled grid with columns in another order reads as the grid it lists', () => {
  const nodes: string[] = [];
  for (const y of [0, 500, 1000]) for (const x of [-200, 100, 400, 700]) nodes.push(`${(20 + x / 100 + y / 250).toFixed(2)},${y},${x}`);
  // A fixed shuffle.
  const order = [5, 11, 0, 7, 2, 9, 1, 10, 3, 8, 6, 4];
  const file = write('ok.csv', 'depth,y,x\n' + order.map((k) => nodes[k]).join('\n') + '\n');
  const g = readBathymetryCsv(file);
  assert.deepEqual([g.x0, g.dx, g.nx, g.y0, g.dy, g.ny], [-200, 300, 4, 0, 500, 3]);
  assert.ok(Math.abs(g.at(700, 1000, null) - (20 + 7 + 4)) < 1e-12);
  assert.ok(Math.abs(g.at(-200, 500, null) - (20 - 2 + 2)) < 1e-12);
  // Between nodes: the plane written down (a plane is its own bilinear interpolant).
  assert.ok(Math.abs(g.at(250, 750, null) - (20 + 2.5 + 3)) < 1e-12);
});

const HEAD = 'x,y,depth\n';
const GOOD = ['0,0,20', '100,0,21', '0,100,22', '100,100,23'];

function refuses(name: string, text: string, re: RegExp): void {
  const file = write(name, text);
  assert.throws(
    () => readBathymetryCsv(file),
    (e: unknown) => {
      assert.ok(e instanceof InputError, String(e));
      const m = (e as Error).message;
      assert.ok(!m.includes('\n'), `one line: ${m}`);
      assert.match(m, re);
      assert.ok(m.startsWith(file), m);
      return true;
    },
  );
}

test('bad files: one line naming file:line and the column', () => {
  refuses('missing.csv', HEAD + GOOD.slice(0, 3).join('\n') + '\n', /missing\.csv: depth: no row for node \(100, 100\) of the 2 × 2 grid/);
  refuses('irregular.csv', HEAD + [...GOOD, '250,0,24', '250,100,24'].join('\n') + '\n', /irregular\.csv:6: x: 250 is off the regular spacing/);
  refuses('nan.csv', HEAD + [...GOOD.slice(0, 3), '100,100,NaN'].join('\n') + '\n', /nan\.csv:5: depth: 'NaN' is not a decimal number/);
  refuses('negative.csv', HEAD + [...GOOD.slice(0, 2), '0,100,-3', GOOD[3]].join('\n') + '\n', /negative\.csv:4: depth: -3 is negative/);
  refuses('dup.csv', HEAD + [...GOOD, '0,0,20'].join('\n') + '\n', /dup\.csv:6: x: node \(0, 0\) appears twice \(also line 2\)/);
  refuses('empty-cell.csv', HEAD + [...GOOD.slice(0, 3), '100,,23'].join('\n') + '\n', /empty-cell\.csv:5: y: empty cell/);
  refuses('header.csv', 'x,y,z\n' + GOOD.join('\n') + '\n', /header\.csv:1: z: unknown column 'z'/);
  refuses('nohead.csv', 'x,y\n0,0\n', /nohead\.csv:1: depth: missing column/);
  refuses('line.csv', HEAD + ['0,0,20', '100,0,21', '0,100'].join('\n') + '\n', /line\.csv:4: x: row has 2 cells, the header 3/);
  refuses('one.csv', HEAD + '0,0,20\n0,100,21\n', /one\.csv:2: x: the grid has 1 distinct x value/);
  refuses('blank.csv', '', /blank\.csv:1: \(header\): empty file/);
});
