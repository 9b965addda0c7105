/**
 * Two given turbines at one point, or a turbine on a substation, are refused with one line naming
 * the indices (0-based; geometry/coincidentPoints.ts: closer than 1 mm, closer than 1 m), never
 * moved apart and reported feasible: `wflo optimize --method none --initial given` (before: the
 * repair moved the pair 130 m apart, exit 0, "feasible true"; the turbine on the substation got a
 * zero-length cable), `wflo aep` and `wflo validate` (a case file: at the layout's line; a layout
 * file given with --case), an optimization from a given layout whatever its door, and the gate of
 * a campaign row (RecordVerifier).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { RecordVerifier } from '../../src/campaign/verifyRecord.js';
import { loadCase } from '../../src/io/caseFile.js';
import { optimizeCase } from '../../src/optimize/optimizeCase.js';
import { InputError } from '../../src/util/errors.js';

const X = [0, 650, 1300, 650, -650, -1300, -650, 0, 400, -400, 0, 1000, -1000, 250, -250, 650];
const Y = [0, 1126, 0, -1126, -1126, 0, 1126, 1300, 500, -500, -1300, 800, -800, -750, 750, 1126];

function caseText(name: string, x: number[], y: number[], substation: [number, number]): string {
  return [
    `name: ${name}`,
    'base: iea37-cs1-16',
    'layout:',
    `  x: ${JSON.stringify(x)}`,
    `  y: ${JSON.stringify(y)}`,
    'economics:',
    '  energy_price_eur_per_mwh: 60',
    '  distance_from_shore_km: 22',
    '  project_years: 25',
    '  water_depth_m: 30',
    `  substations: [${JSON.stringify(substation)}]`,
    '  cables:',
    '    - {name: xlpe-66kv-240, capacity: 3, cost_per_m: 350}',
    '    - {name: xlpe-66kv-500, capacity: 5, cost_per_m: 520}',
    '  rated_rpm: 12',
    '',
  ].join('\n');
}

const dir = tempDir('wflo-coincident-');
const coincident = path.join(dir, 'coincident.yaml');
fs.writeFileSync(coincident, caseText('coincident', X, Y, [0, -300])); // turbines 1 and 15 at (650, 1126)
const onSubstation = path.join(dir, 'onsub.yaml');
// Turbine 15 moved to (800, -500); turbine 8 at (400, 500) is the substation's point.
fs.writeFileSync(onSubstation, caseText('onsub', [...X.slice(0, 15), 800], [...Y.slice(0, 15), -500], [400, 500]));

const PAIR = 'turbines 1 and 15 (0-based) are at the same point (650, 1126)';
const ON = 'turbine 8 (0-based) at (400, 500) is on substation 0 (0-based) at (400, 500)';

test('wflo optimize --method none refuses coincident given turbines and a turbine on a substation', () => {
  for (const [file, what] of [
    [coincident, PAIR],
    [onSubstation, ON],
  ] as const) {
    for (const objective of ['aep', 'lcoe']) {
      const r = runWflo(['optimize', file, '--method', 'none', '--initial', 'given', '--objective', objective]);
      assert.equal(r.status, 2, `${file} ${objective}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.ok(r.stderr.includes(`layout: ${what}`), r.stderr);
    }
  }
});

test("wflo aep and validate refuse them too, naming the file and the layout's line", () => {
  for (const [file, what] of [
    [coincident, PAIR],
    [onSubstation, ON],
  ] as const) {
    for (const command of ['aep', 'validate']) {
      const r = runWflo([command, file]);
      assert.equal(r.status, 2, r.stdout);
      assert.equal(r.stderr.split('\n').length, 2, r.stderr);
      assert.ok(r.stderr.startsWith(`wflo: ${file}:4: layout: ${what} (`), r.stderr);
    }
  }
  // A layout file evaluated in another case's site and wind: the same refusal, naming the layout file.
  const layout = path.join(dir, 'layout.yaml');
  fs.writeFileSync(layout, `x: ${JSON.stringify(X)}\ny: ${JSON.stringify(Y)}\n`);
  const r = runWflo(['aep', layout, '--case', 'iea37-cs1-16']);
  assert.equal(r.status, 2, r.stdout);
  assert.equal(
    r.stderr,
    `wflo: ${layout}: layout: ${PAIR} (0.00e+0 m apart, less than 0.001 m): two turbines cannot stand at one point; remove one or give each its own position\n`,
  );
});

test('an optimization from a given layout refuses them whatever door the layout came by (any method, none included)', () => {
  const base = loadCase('iea37-cs1-16');
  const x = Float64Array.from(X),
    y = Float64Array.from(Y);
  for (const method of ['none', 'gradient']) {
    assert.throws(
      () => optimizeCase({ ...base, layout: { x, y } }, { method, initial: 'given' }, 0),
      (err: unknown) =>
        err instanceof InputError &&
        err.message ===
          `iea37-cs1-16: layout: ${PAIR} (0.00e+0 m apart, less than 0.001 m): two turbines cannot stand at one point; remove one or give each its own position`,
    );
  }
  // Half a millimetre apart is still one point; 2 mm apart are two (the repair then spaces them).
  x[15] = 650.0005;
  assert.throws(
    () => optimizeCase({ ...base, layout: { x, y } }, { method: 'none', initial: 'given' }, 0),
    /turbines 1 and 15 \(0-based\) are at the same point/,
  );
  x[15] = 650.002;
  assert.equal(optimizeCase({ ...base, layout: { x, y } }, { method: 'none', initial: 'given' }, 0).feasible, true);
});

test('the gate refuses a row with a turbine on a substation by name (no spacing rule catches it)', () => {
  // The farm's case: the substation at (400, 500), its own layout clear of it (turbine 8 elsewhere).
  const farmCase = path.join(dir, 'farm.yaml');
  fs.writeFileSync(farmCase, caseText('farm', [...X.slice(0, 8), 300, ...X.slice(9, 15), 800], [...Y.slice(0, 8), 200, ...Y.slice(9, 15), -500], [400, 500]));
  const file = path.join(dir, 'campaign.yaml');
  const text = [
    'name: gate',
    'farms:',
    `  - {id: 0, case: ${JSON.stringify(farmCase)}}`,
    'farm_types:',
    '  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}',
    'seeds: {start: 0, count: 1}',
    'optimizer: {method: gradient}',
    '',
  ].join('\n');
  fs.writeFileSync(file, text);
  const campaign = parseCampaign(text, file);
  const [task] = expandTasks(campaign);
  const x = Float64Array.from([...X.slice(0, 15), 800]),
    y = Float64Array.from([...Y.slice(0, 15), -500]);
  const v = new RecordVerifier(campaign).verify(task, { x, y, aep: 1 });
  assert.equal(v.ok, false);
  assert.match((v as { reason: string }).reason, /^turbine 8 \(0-based\) at \(400, 500\) is on substation 0 \(0-based\)/);
  // Two turbines at one point: named as such.
  x[15] = 650;
  y[15] = 1126;
  const w = new RecordVerifier(campaign).verify(task, { x, y, aep: 1 });
  assert.match((w as { reason: string }).reason, /^turbines 1 and 15 \(0-based\) are at the same point/);
});
