/**
 * `wflo plot --by-direction` (issue 28): farm efficiency against a finely resolved direction. The
 * 64-turbine IEA37 record's curve gives the figures (84.1 % at 270°, 69.0 % at 278°, from
 * the case study's own calculator); a point of the curve equals `wflo aep` of the layout under a
 * one-direction rose written by hand, over the same turbines alone; several layouts go on one
 * chart (one line each); bad steps and misplaced flags are one line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, runWflo, tempDir } from '../helpers.js';

const dir = tempDir('wflo-by-direction-');
const record = path.join(REPO, 'examples', 'results', 'iea37-cs1-64-best.yaml');

test('the efficiency curve of the cs1-64 record and the published baseline on one chart', () => {
  const out = path.join(dir, 'by-direction.svg');
  const r = runWflo(['plot', 'iea37-cs1-64', '--by-direction', '0.5', '--with', record, '-o', out, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  assert.equal(s.layouts.length, 2);
  assert.equal(s.step_deg, 0.5);
  const svg = fs.readFileSync(out, 'utf8');
  assert.match(svg, /^<svg/);
  // One line per layout, and a rule at each of the rose's 16 bins.
  assert.equal((svg.match(/aria-roledescription="line mark"/g) ?? []).length, 2);
  assert.equal((svg.match(/aria-roledescription="rule mark"/g) ?? []).length, 16);
  assert.match(svg, /iea37-cs1-64-best\.yaml/);
  assert.match(svg, /published baseline layout/);
});

test('a point of the curve is the farm AEP at that one direction over its turbines alone (wflo aep of a hand-written rose)', () => {
  const efficiencyAt = (deg: number): number => {
    const wind = path.join(dir, `wind-${deg}.yaml`);
    fs.writeFileSync(wind, `wind_direction: [${deg}]\nwind_speed: [9.8]\nprobability: [[1]]\nturbulence_intensity: 0.075\n`);
    const farm = runWflo(['aep', record, '--wind', wind, '--json']);
    assert.equal(farm.status, 0, farm.stderr);
    const lone = path.join(dir, 'lone.yaml');
    fs.writeFileSync(lone, 'layout: {x: [0], y: [0]}\n');
    const alone = runWflo(['aep', lone, '--case', 'iea37-cs1-64', '--wind', wind, '--json']);
    assert.equal(alone.status, 0, alone.stderr);
    return JSON.parse(farm.stdout).aep_mwh / (64 * JSON.parse(alone.stdout).aep_mwh);
  };
  const at270 = efficiencyAt(270),
    at278 = efficiencyAt(278);
  // The figures, from the case study's calculator.
  assert.equal((100 * at270).toFixed(1), '84.1');
  assert.equal((100 * at278).toFixed(1), '69.0');
  // The curve's lowest and highest points are points of the same function.
  const r = runWflo(['plot', record, '--by-direction', '2', '-o', path.join(dir, 'one.svg'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const l = JSON.parse(r.stdout).layouts[0];
  assert.ok(Math.abs(l.min_efficiency - efficiencyAt(l.min_at_deg)) <= 1e-12, `${l.min_efficiency} at ${l.min_at_deg}°`);
  assert.ok(Math.abs(l.max_efficiency - efficiencyAt(l.max_at_deg)) <= 1e-12, `${l.max_efficiency} at ${l.max_at_deg}°`);
  assert.ok(l.min_efficiency <= at278 && l.max_efficiency >= at270 - 1e-12);
});

test('bad --by-direction input: one line, exit 2', () => {
  for (const [args, re] of [
    [
      ['plot', 'iea37-cs1-16', '--by-direction', '7', '-o', path.join(dir, 'a.svg')],
      /--by-direction: expected a step in degrees from 0\.05 to 45 that divides 360, got 7/,
    ],
    [['plot', 'iea37-cs1-16', '--with', 'iea37-cs1-36', '-o', path.join(dir, 'b.svg')], /--with: draws several layouts on the --by-direction chart/],
    [['plot', 'iea37-cs1-16', '--by-direction', '--flow', '270', '-o', path.join(dir, 'c.svg')], /--flow: belongs to the layout plot, not to --by-direction/],
    [['plot', 'iea37-cs1-16', '--by-direction', '-o', path.join(dir, 'd.pdf')], /-o .*d\.pdf: expected a \.svg or \.png file name/],
    [
      ['plot', 'iea37-cs1-16', '--by-direction', '--site-field', 'speedup', '-o', path.join(dir, 'e.svg')],
      /--site-field: belongs to the layout plot, not to --by-direction/,
    ],
  ] as const) {
    const r = runWflo([...args]);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, re);
  }
});
