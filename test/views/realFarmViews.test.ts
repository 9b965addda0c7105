/**
 * Plots of time series and blockage: the wind rose of a time series is drawn from its samples
 * (10° sectors whose frequencies are the samples' weights, the title giving the sample count), and
 * the flow field of a blockage case is slowed ahead of the turbines and sped up beside their wakes,
 * where the same case without blockage is at the free stream.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, runWflo, tempDir } from '../helpers.js';
import { builtinCase } from '../../src/io/builtinCases.js';
import { readTimeSeriesCsv } from '../../src/io/timeSeriesCsv.js';
import { roseData } from '../../src/views/windRoseSvg.js';
import { flowField } from '../../src/views/flowField.js';

const dir = tempDir('wflo-realfarm-views-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const CSV = path.join(REPO, 'examples', 'realfarms', 'met-mast.csv');

test('the wind rose of a time series: 10° sectors holding the share of the samples, titled with their count', () => {
  const rows = fs
    .readFileSync(CSV, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const wind = readTimeSeriesCsv(CSV);
  const rose = roseData(wind);
  // Each sector [c − 5°, c + 5°) holds the share of samples whose direction rounds (to 1°) into it.
  for (const [d, centre] of rose.directions.entries()) {
    const share =
      rows.filter((r) => {
        const bin = ((Math.round(Number(r[1])) % 360) + 360) % 360;
        return Math.floor(((bin + 5) % 360) / 10) * 10 === centre;
      }).length / rows.length;
    const drawn = rose.frequency[d].reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(drawn - share) < 1e-12, `sector ${centre}°: drawn ${drawn}, samples ${share}`);
  }
  const out = path.join(dir, 'rose.svg');
  const r = runWflo(['plot', 'iea37-cs1-16', '--wind', CSV, '-o', out]);
  assert.equal(r.status, 0, r.stderr);
  const svg = fs.readFileSync(out, 'utf8');
  assert.match(svg, /data-samples="1008"/);
  assert.match(svg, /Wind rose \(1,008 samples, %\)/);
});

test('the flow field with blockage: slower ahead of a row, faster beside the wakes; without it the free stream', () => {
  const base = builtinCase('iea37-cs1-16');
  // A crosswind row of four turbines 3D apart, wind from the west.
  const x = Float64Array.from([0, 0, 0, 0]),
    y = Float64Array.from([-585, -195, 195, 585]);
  const grid = { minX: -650, maxX: -130, minY: -1300, maxY: 1300, nx: 2, ny: 10 };
  const plain = flowField(base, x, y, 270, grid);
  const withBlockage = flowField({ ...base, model: { ...base.model, blockage: 'selfsimilarity2020' } }, x, y, 270, grid);
  const u = plain.freeStreamSpeed;
  // Upstream (x < 0) nothing wakes the flow: the plain field is the free stream, blockage slows it.
  // (the field is stored in single precision)
  for (let i = 0; i < plain.speedByCell.length; i++) assert.equal(plain.speedByCell[i], Math.fround(u));
  const nearRow = withBlockage.speedByCell[5 * 2 + 1]; // just ahead of the row's middle
  assert.ok(nearRow < u - 0.02, `ahead of the row: ${nearRow} vs free stream ${u}`);
  // Beside the row, downstream and outside every wake: sped up.
  const side = flowField({ ...base, model: { ...base.model, blockage: 'selfsimilarity2020' } }, x, y, 270, {
    minX: 300,
    maxX: 400,
    minY: 900,
    maxY: 1000,
    nx: 1,
    ny: 1,
  });
  assert.ok(side.speedByCell[0] > u, `beside the wakes downstream: ${side.speedByCell[0]} vs ${u}`);
});
