/**
 * Plausibility bounds of the economics inputs (cost/plausibility.ts): a price of 1e308 (NPV
 * Infinity), a depth of 10⁹ m, a shore 10¹² km away, a substation 10¹² m away, and the other
 * slips of the table are refused by `wflo validate` like any bad field: exit 2, one line naming
 * the file, line, field, the value and the bound; a campaign farm and a queue payload the same.
 * The values at the bounds pass, and docs/cost.md states the table's numbers.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, runWflo, tempDir } from '../helpers.js';
import { ECONOMICS_BOUNDS } from '../../src/cost/plausibility.js';
import { economicsSpecSchema } from '../../src/io/costFields.js';

const dir = tempDir('wflo-plausible-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const ECON = `economics:
  energy_price_eur_per_mwh: 60
  project_years: 25
  distance_from_shore_km: 22
  water_depth_m: 25
  substations: [[0, 0]]
  cables: [{name: small, capacity: 4, cost_per_m: 350}]
  rated_rpm: 12
`;

function write(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

/** `wflo validate` of a cs1 case whose economics have `from` replaced by `to`: exit 2 and the one line. */
function refused(name: string, from: string, to: string, expected: RegExp): void {
  assert.ok(ECON.includes(from), from);
  const file = write(name, `base: iea37-cs1-16\n${ECON.replace(from, to)}`);
  const r = runWflo(['validate', file]);
  assert.equal(r.status, 2, `${name}: ${r.stdout}${r.stderr}`);
  assert.equal(r.stdout, '', 'nothing printed as valid');
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], expected);
}

test('validate refuses economics outside the plausibility bounds: file, line, field, value and bound in one line', () => {
  refused(
    'price.yaml',
    'energy_price_eur_per_mwh: 60',
    'energy_price_eur_per_mwh: 1e308',
    /^wflo: .*price\.yaml:3: economics\.energy_price_eur_per_mwh: must be >= 0 and <= 1000 € per MWh, the plausibility bound \(docs\/cost\.md: .*\), got 1e\+308$/,
  );
  refused(
    'negprice.yaml',
    'energy_price_eur_per_mwh: 60',
    'energy_price_eur_per_mwh: -60',
    /negprice\.yaml:3: economics\.energy_price_eur_per_mwh: must be >= 0 and <= 1000 .*got -60$/,
  );
  refused(
    'depth.yaml',
    'water_depth_m: 25',
    'water_depth_m: 1e9',
    /depth\.yaml:6: economics\.water_depth_m: must be >= 0 and <= 1000 m, the plausibility bound .*got 1000000000$/,
  );
  refused(
    'shore.yaml',
    'distance_from_shore_km: 22',
    'distance_from_shore_km: 1e12',
    /shore\.yaml:5: economics\.distance_from_shore_km: must be >= 0 and <= 1000 km, .*got 1000000000000$/,
  );
  refused('years.yaml', 'project_years: 25', 'project_years: 150', /years\.yaml:4: economics\.project_years: must be >= 1 and <= 60 years, .*got 150$/);
  refused(
    'cable.yaml',
    'cost_per_m: 350',
    'cost_per_m: 350000',
    /cable\.yaml:8: economics\.cables\[0\]\.cost_per_m: must be > 0 and <= 10000 € per m, .*got 350000$/,
  );
  refused('rpm.yaml', 'rated_rpm: 12', 'rated_rpm: 0.8', /rpm\.yaml:9: economics\.rated_rpm: must be >= 1 and <= 1000 rpm, .*got 0\.8$/);
  refused(
    'rate.yaml',
    'project_years: 25',
    'project_years: 25\n  discount_rate: 0.7',
    /rate\.yaml:5: economics\.discount_rate: must be >= -0\.1 and <= 0\.5 per year .*got 0\.7$/,
  );
  // The cs1 circle reaches ±1300 m: 10¹² m away is 10⁹ km from it, a second substation is named by index.
  refused(
    'substation.yaml',
    'substations: [[0, 0]]',
    'substations: [[0, 0], [1e12, 0]]',
    /substation\.yaml:7: economics\.substations\[1\]: substation at \(1000000000000, 0\) is 1000000000 km from the site, beyond the plausibility bound of 100 km/,
  );
});

test('a bathymetry grid node deeper than the bound is refused, naming the file and the node', () => {
  const rows = ['x,y,depth'];
  for (const y of [-1400, 0, 1400]) for (const x of [-1400, 0, 1400]) rows.push(`${x},${y},${x === 0 && y === 1400 ? 1e9 : 25}`);
  write('deep.csv', rows.join('\n') + '\n');
  refused(
    'deepgrid.yaml',
    'water_depth_m: 25',
    'bathymetry: deep.csv',
    /deepgrid\.yaml:6: economics\.bathymetry: .*deep\.csv: the depth at node \(0, 1400\) must be >= 0 and <= 1000 m, .*got 1000000000$/,
  );
});

test('values at the bounds are accepted', () => {
  const file = write(
    'edge.yaml',
    'base: iea37-cs1-16\n' +
      ECON.replace('energy_price_eur_per_mwh: 60', 'energy_price_eur_per_mwh: 1000')
        .replace('water_depth_m: 25', 'water_depth_m: 1000')
        .replace('distance_from_shore_km: 22', 'distance_from_shore_km: 1000')
        .replace('project_years: 25', 'project_years: 60')
        .replace('substations: [[0, 0]]', 'substations: [[0, 0], [101300, 0]]'),
  );
  const r = runWflo(['validate', file]);
  assert.equal(r.status, 0, r.stderr);
});

test("a campaign farm's economics: the same bounds, at the farm's field", () => {
  const file = write(
    'campaign.yaml',
    `name: plausible
output: out
farms:
  - id: 0
    case: iea37-cs1-16
${ECON.replace('energy_price_eur_per_mwh: 60', 'energy_price_eur_per_mwh: 1e308')
  .split('\n')
  .map((l) => (l ? `    ${l}` : l))
  .join('\n')}
farm_types:
  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16, objective: npv}
seeds: [1]
optimizer: {method: gradient, max_iterations: 5}
`,
  );
  const r = runWflo(['validate', file]);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr.trim(),
    /^wflo: .*campaign\.yaml:7: farms\[0\]\.economics\.energy_price_eur_per_mwh: must be >= 0 and <= 1000 € per MWh, .*got 1e\+308$/,
  );
});

test("a queue payload's economics outside the bounds is refused as a whole", () => {
  const spec = {
    model: 'dtu_offshore',
    energyPriceEurPerMWh: 60,
    projectYears: 25,
    distanceFromShoreKm: 22,
    depth: { constantM: 25 },
    substations: [[0, 0]],
    cables: [{ name: 'small', capacity: 4, costPerMetre: 350 }],
    ratedRpm: 12,
  };
  assert.equal(economicsSpecSchema.safeParse(spec).success, true);
  assert.equal(economicsSpecSchema.safeParse({ ...spec, energyPriceEurPerMWh: 1e308 }).success, false);
  assert.equal(economicsSpecSchema.safeParse({ ...spec, depth: { constantM: 1e9 } }).success, false);
  assert.equal(economicsSpecSchema.safeParse({ ...spec, distanceFromShoreKm: 1e12 }).success, false);
});

test('docs/cost.md states every bound of the table', () => {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'cost.md'), 'utf8');
  const table = doc.slice(doc.indexOf('## Plausibility bounds'));
  assert.ok(table.length > 0 && doc.includes('## Plausibility bounds'), 'docs/cost.md has the section');
  for (const b of Object.values(ECONOMICS_BOUNDS)) {
    const row = table.split('\n').find((l) => l.startsWith(`| \`${b.field}\``));
    assert.ok(row, `a row for ${b.field}`);
    const cells = row.split('|').map((c) => c.trim().replace(/[ ,]/g, ''));
    assert.equal(cells[2], String(b.min), `${b.field} min in ${row}`);
    assert.equal(cells[3], String(b.max), `${b.field} max in ${row}`);
  }
});

test('turbine counts beyond what the cable router or the engines handle in stated time: refused with the estimate', () => {
  // Squares with room for the turbines at 700 m: validate used to accept 10⁶ turbines with LCOE, and optimize ran silently.
  const square = (n: number, name: string, economics: boolean) =>
    write(
      name,
      `base: iea37-cs1-16\nn_turbines: ${n}\nboundary: {polygon: [[0, 0], [700000, 0], [700000, 700000], [0, 700000]]}\n` +
        (economics ? ECON.replace('substations: [[0, 0]]', 'substations: [[350000, 350000]]') : ''),
    );
  const r = runWflo(['validate', square(5000, 'priced5000.yaml', true)]);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr.trim(),
    /^wflo: .*priced5000\.yaml:2: n_turbines: 5000 turbines with economics, over the limit of 2000: pricing a layout routes its cables, estimated at 19 min per routing for 5000 turbines/,
  );
  const edge = runWflo(['validate', square(2001, 'edge2001.yaml', true)]);
  assert.equal(edge.status, 2);
  assert.match(edge.stderr, /edge2001\.yaml:2: n_turbines: 2001 turbines with economics, over the limit of 2000: .*estimated at 2 min per routing/);
  // Without economics the router is not involved, the engines are: 10⁶ turbines, ~17 h per evaluation.
  assert.equal(runWflo(['validate', square(2001, 'plain2001.yaml', false)]).status, 0);
  const million = runWflo(['validate', square(1_000_000, 'million.yaml', true)]);
  assert.equal(million.status, 2);
  assert.match(
    million.stderr.trim(),
    /^wflo: .*million\.yaml:2: n_turbines: 1000000 turbines, over the limit of 10000: one AEP evaluation on 16 wind bins is estimated at 17 h /,
  );
  assert.equal(runWflo(['validate', square(10_000, 'plain10000.yaml', false)]).status, 0);
});
