/**
 * `wflo export --windio`: a row of a layouts.h5 file written as a windIO wind_farm. The written
 * file is read back by including it in a wind_energy_system next to the official IEA37 cs1
 * site (test/data/windio/), whose AEP must then be the IEA37 reference (baseline layout) or the
 * AEP the campaign recorded for the row (campaign folder).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IEA37, REPO, runWflo, tempDir } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { iea37Layout } from '../../src/io/iea37Format.js';
import { builtinTurbine } from '../../src/io/builtinCases.js';
import { writeLayoutsFile, readLayoutsFile } from '../../src/io/hdf5/index.js';
import type { LayoutRecord } from '../../src/io/layoutRecord.js';

const PLANT = path.join(REPO, 'test', 'data', 'windio', 'plant');
const CS1_SITE = path.join(PLANT, 'plant_energy_site', 'IEA37_case_study_1_2_energy_site.yaml');
const CS1_SYSTEM = path.join(PLANT, 'wind_energy_system', 'IEA37_case_study_1_2_wind_energy_system.yaml');
const made: string[] = [];
after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = tempDir('wflo-windio-export-');
  made.push(d);
  return d;
}

function record(taskId: string, seed: number, x: Float64Array, y: Float64Array, aep: number): LayoutRecord {
  return {
    taskId,
    farmId: 0,
    farmType: 0,
    seed,
    nTurbines: x.length,
    aep,
    aepInitial: Number.NaN,
    x,
    y,
    xInitial: new Float64Array(0),
    yInitial: new Float64Array(0),
    iterations: -1,
    evaluations: -1,
    wallS: 0,
    attempts: 1,
  };
}

/** A wind_energy_system using the official cs1 site and `farmFile` as its wind_farm. */
function systemWith(farmFile: string): string {
  const file = path.join(path.dirname(farmFile), 'system.yaml');
  fs.writeFileSync(
    file,
    [
      'name: round trip',
      `site: !include ${path.relative(path.dirname(file), CS1_SITE)}`,
      `wind_farm: !include ${path.basename(farmFile)}`,
      'attributes:',
      '  analyses:',
      '    wake_model:',
      '      name: Bastankhah’s Gaussian wake model (simplified version)',
      '',
    ].join('\n'),
  );
  return file;
}

/** AEP of a system file; its site is the repository's, outside the temporary plant folder: allowed explicitly. */
function aepOf(system: string): number {
  const r = runWflo(['aep', system, '--json', '--allow-include-outside']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout).aep_mwh;
}

test('export --windio writes the best-AEP row (or --task) of a layouts.h5 as a windIO wind_farm that reads back exactly', async () => {
  const d = dir();
  const ex16 = path.join(IEA37, 'cs1-2', 'iea37-ex16.yaml');
  const baseline = iea37Layout(readYamlFile(ex16), ex16);
  const reference = baseline.referenceAepMwh!;
  const x = Float64Array.from(baseline.x),
    y = Float64Array.from(baseline.y);
  const shrunk = { x: x.map((v) => 0.9 * v), y: y.map((v) => 0.9 * v) };
  const rows = [record('farm_0_type_0_seed_1', 1, shrunk.x, shrunk.y, reference - 1000), record('farm_0_type_0_seed_2', 2, x, y, reference)];
  const turbine = JSON.parse(JSON.stringify(builtinTurbine('iea37-3.35mw')));
  const h5 = path.join(d, 'layouts.h5');
  await writeLayoutsFile(h5, [rows], {
    campaignName: 'windio-export',
    campaignHash: 'test',
    nExpected: 2,
    complete: true,
    maxTurbines: 16,
    nRows: 2,
    types: [{ id: 0, label: 'iea37', turbine, n_turbines: 16 }],
  });

  const best = path.join(d, 'best.yaml');
  const r = runWflo(['export', h5, '--windio', '-o', best]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /task farm_0_type_0_seed_2, 16 turbines/);
  const doc = readYamlFile(best) as { layouts: { initial_layout: { coordinates: { x: number[]; y: number[] } } }; turbines: { rotor_diameter: number } };
  assert.deepEqual(doc.layouts.initial_layout.coordinates.x, Array.from(x));
  assert.deepEqual(doc.layouts.initial_layout.coordinates.y, Array.from(y));
  assert.equal(doc.turbines.rotor_diameter, 130);
  const aep = aepOf(systemWith(best));
  assert.ok(Math.abs(aep - reference) / reference < 1e-9, `${aep} vs ${reference}`);
  // The layout alone, evaluated on the built-in case.
  const alone = runWflo(['aep', '--case', 'iea37-cs1-16', best, '--json']);
  assert.equal(alone.status, 0, alone.stderr);
  assert.ok(Math.abs(JSON.parse(alone.stdout).aep_mwh - reference) / reference < 1e-9);

  const chosen = path.join(d, 'chosen.yaml');
  assert.equal(runWflo(['export', h5, '--windio', '-o', chosen, '--task', 'farm_0_type_0_seed_1']).status, 0);
  const doc1 = readYamlFile(chosen) as typeof doc;
  assert.deepEqual(doc1.layouts.initial_layout.coordinates.x, Array.from(shrunk.x));

  const missing = runWflo(['export', h5, '--windio', '-o', path.join(d, 'x.yaml'), '--task', 'farm_9_type_9_seed_9']);
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr.trim(), `wflo: ${h5}: --task: no row with task id 'farm_9_type_9_seed_9'`);
  assert.ok(!fs.existsSync(path.join(d, 'x.yaml')));
  const noOutput = runWflo(['export', h5, '--windio']);
  assert.equal(noOutput.status, 2);
});

test('a campaign whose farm is a windIO plant file, exported with --windio from its folder', async () => {
  const d = dir();
  const campaign = path.join(d, 'campaign.yaml');
  fs.writeFileSync(
    campaign,
    [
      'name: windio-campaign',
      'farms:',
      `  - {id: 0, case: ${JSON.stringify(CS1_SYSTEM)}}`,
      'farm_types:',
      '  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}',
      'seeds: [0, 1]',
      'optimizer: {method: none}',
      'workers: 1',
      '',
    ].join('\n'),
  );
  const out = path.join(d, 'out');
  const run = runWflo(['run', campaign, '--out', out]);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  const farm = path.join(d, 'farm.yaml');
  const r = runWflo(['export', out, '--windio', '-o', farm]);
  assert.equal(r.status, 0, r.stderr);
  const { records } = await readLayoutsFile(path.join(out, 'layouts.h5'));
  const best = records.reduce((a, b) => (b.aep > a.aep ? b : a));
  assert.match(r.stdout, new RegExp(`task ${best.taskId},`));
  const aep = aepOf(systemWith(farm));
  assert.ok(Math.abs(aep - best.aep) / best.aep < 1e-12, `${aep} vs ${best.aep}`);
});
