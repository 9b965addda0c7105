/**
 * The `economics:` block of case files (io/costFields.ts via io/caseFile.ts): a case gets its
 * CaseEconomics (the DTU model with the file's numbers — checked against TOPFARM's own NPV and IRR
 * on its test farm — a constant depth or the bathymetry grid, substations, cables, rated rpm per
 * model), and every bad block is one line naming file:line and the field.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, tempDir } from '../helpers.js';
import { loadCase } from '../../src/io/caseFile.js';
import { InputError } from '../../src/util/errors.js';
import type { FarmDesign } from '../../src/cost/economicModel.js';

const dir = tempDir('wflo-econ-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const ECON = `economics:
  energy_price_eur_per_mwh: 200
  project_years: 20
  distance_from_shore_km: 10
  water_depth_m: 15
  substations: [[0, 0], [500, 0]]
  cables: [{name: small, capacity: 4, cost_per_m: 250}, {name: big, capacity: 8, cost_per_m: 420}]
  rated_rpm: 10
`;

function write(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

test("a case file's economics: TOPFARM's test farm through the file gives TOPFARM's NPV and IRR", () => {
  const c = loadCase(write('econ.yaml', `base: iea37-cs1-16\n${ECON}`));
  const e = c.economics!;
  assert.ok(e, 'the case has economics');
  assert.deepEqual(e.substations, [
    [0, 0],
    [500, 0],
  ]);
  assert.deepEqual(e.cables, [
    { name: 'small', capacity: 4, costPerMetre: 250 },
    { name: 'big', capacity: 8, costPerMetre: 420 },
  ]);
  assert.deepEqual(e.ratedRpmByType, [10]);
  assert.equal(e.depth.at(123, -456, null), 15);
  // TOPFARM's test_dtu_cm_irr farm (test/data/cost/SOURCE.md): 10 × 10 MW, D 100, hub 100, 10 rpm, 8 GWh each.
  const ref = JSON.parse(fs.readFileSync(path.join(REPO, 'test', 'data', 'cost', 'dtu_offshore_reference.json'), 'utf8')).cases.find(
    (k: { name: string }) => k.name === 'topfarm-test-irr',
  );
  const n = 10;
  const design: FarmDesign = {
    ratedPowerMW: new Float64Array(n).fill(10),
    rotorDiameter: new Float64Array(n).fill(100),
    hubHeight: new Float64Array(n).fill(100),
    ratedRpm: new Float64Array(n).fill(e.ratedRpmByType[0]),
    waterDepth: new Float64Array(n).fill(e.depth.at(0, 0, null)),
    aepMWh: new Float64Array(n).fill(8000),
    cableCost: 3500 * 100 * n,
  };
  const r = e.model.evaluate(design, false);
  assert.ok(Math.abs(r.npv - ref.outputs.npv_eur) <= 1e-9 * Math.abs(ref.outputs.npv_eur), `${r.npv} vs ${ref.outputs.npv_eur}`);
  assert.ok(Math.abs(r.irr * 100 - ref.outputs.irr_percent) <= 1e-9 * ref.outputs.irr_percent);
});

test('bathymetry: the grid file relative to the case file; rated rpm by model name in a mixed farm', () => {
  const rows = ['x,y,depth'];
  for (const y of [-1400, 0, 1400]) for (const x of [-1400, 0, 1400]) rows.push(`${x},${y},${20 + (x + 1400) / 100}`);
  write('depth.csv', rows.join('\n') + '\n');
  const text =
    `base: iea37-cs1-16\nturbines: [{turbine: iea37-3.35mw, n: 10}, {turbine: v80, n: 6}]\n` +
    ECON.replace('  water_depth_m: 15\n', '  bathymetry: depth.csv\n').replace('  rated_rpm: 10\n', '  rated_rpm: {v80: 16.7, iea37-3.35mw: 12}\n');
  const c = loadCase(write('mixed.yaml', text));
  const g = new Float64Array(2);
  assert.ok(Math.abs(c.economics!.depth.at(700, 300, g) - (20 + 21)) < 1e-12);
  assert.ok(Math.abs(g[0] - 0.01) < 1e-15 && g[1] === 0);
  assert.deepEqual(c.economics!.ratedRpmByType, [12, 16.7]);
});

function refuses(name: string, text: string, re: RegExp): void {
  const file = write(name, text);
  assert.throws(
    () => loadCase(file),
    (err: unknown) => {
      assert.ok(err instanceof InputError, String(err));
      assert.ok(!(err as Error).message.includes('\n'), (err as Error).message);
      assert.match((err as Error).message, re);
      return true;
    },
  );
}

test('bad economics blocks: one line at the field', () => {
  const base = 'base: iea37-cs1-16\n';
  refuses(
    'nodepth.yaml',
    base + ECON.replace('  water_depth_m: 15\n', ''),
    /nodepth\.yaml:\d+: economics: give the water depth: water_depth_m \(one depth\) or bathymetry/,
  );
  refuses(
    'both.yaml',
    base + ECON.replace('  water_depth_m: 15\n', '  water_depth_m: 15\n  bathymetry: depth.csv\n'),
    /both\.yaml:\d+: economics: give water_depth_m or bathymetry, not both/,
  );
  refuses(
    'percent.yaml',
    base + ECON + '  discount_rate: 6\n',
    /percent\.yaml:10: economics\.discount_rate: must be a fraction per year \(0\.06 for 6 %\), not a percentage/,
  );
  refuses(
    'typo.yaml',
    base + ECON.replace('energy_price_eur_per_mwh', 'energy_price_eur_mwh'),
    /typo\.yaml:3: economics.*energy_price_eur_mwh.*did you mean 'energy_price_eur_per_mwh'/,
  );
  refuses(
    'years.yaml',
    base + ECON.replace('project_years: 20', 'project_years: 20.5'),
    /years\.yaml:4: economics\.project_years: expected an integer, got 20\.5/,
  );
  refuses('neg.yaml', base + ECON.replace('water_depth_m: 15', 'water_depth_m: -15'), /neg\.yaml:6: economics\.water_depth_m: must be a depth in metres >= 0/);
  refuses(
    'dupcable.yaml',
    base + ECON.replace('name: big', 'name: small'),
    /dupcable\.yaml:8: economics\.cables\[1\]\.name: cable type 'small' is listed twice/,
  );
  refuses(
    'cap.yaml',
    base + ECON.replace('capacity: 4', 'capacity: 0'),
    /cap\.yaml:8: economics\.cables\[0\]\.capacity: must be a whole number of turbines >= 1/,
  );
  refuses(
    'rpm.yaml',
    base + 'turbines: [{turbine: iea37-3.35mw, n: 10}, {turbine: v80, n: 6}]\n' + ECON.replace('rated_rpm: 10', 'rated_rpm: {iea37-3.35mw: 12}'),
    /rpm\.yaml:10: economics\.rated_rpm: no rated rotor speed for turbine model 'v80'/,
  );
  refuses(
    'rpmname.yaml',
    base + ECON.replace('rated_rpm: 10', 'rated_rpm: {iea37-3.35mw: 12, v90: 3}'),
    /rpmname\.yaml:9: economics\.rated_rpm\.v90: no turbine model 'v90' in this farm.*\(its models: iea37-3\.35mw\)/,
  );
  refuses('model.yaml', base + ECON + '  model: nrel_csm\n', /model\.yaml:10: economics\.model: expected one of: dtu_offshore; got 'nrel_csm'/);
  // A grid that stops short of the site (the cs1 circle reaches ±1300 m).
  write('small.csv', 'x,y,depth\n-1000,-1000,20\n1000,-1000,20\n-1000,1000,20\n1000,1000,20\n');
  refuses(
    'outside.yaml',
    base + ECON.replace('water_depth_m: 15', 'bathymetry: small.csv'),
    /outside\.yaml:6: economics\.bathymetry: .*small\.csv: the grid \(x -1000 … 1000, y -1000 … 1000 m\) does not cover the site: its boundary's corner \(-1300, -1300\)/,
  );
  // The bathymetry file's own problem names that file and its line.
  write('bad.csv', 'x,y,depth\n0,0,20\n100,0,-1\n0,100,20\n100,100,20\n');
  refuses('badgrid.yaml', base + ECON.replace('water_depth_m: 15', 'bathymetry: bad.csv'), /bad\.csv:3: depth: -1 is negative/);
});

test('the economics block docs/cost.md shows is a valid block', () => {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'cost.md'), 'utf8');
  const block = /```yaml\n(economics:\n[\s\S]*?)```/.exec(doc);
  assert.ok(block, 'docs/cost.md has a yaml block starting with economics:');
  const c = loadCase(write('docs.yaml', `base: iea37-cs1-16\n${block[1]}`));
  assert.deepEqual(c.economics!.ratedRpmByType, [12]);
  assert.equal(c.economics!.cables.length, 2);
});
