/**
 * windIO plant files as published (test/data/windio/, copied from IEAWindTask37/windIO, see
 * SOURCE.md): the IEA37 case-study wind_energy_system files load through `wflo aep` and give the
 * IEA37 reference AEPs stated in test/data/iea37/ (the published facts, see SOURCE.md there); the parts (resource forms,
 * turbines, boundaries, exclusions, analysis names) read as windIO defines them.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IEA37, REPO, runWflo, tempDir } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { iea37Layout } from '../../src/io/iea37Format.js';
import { readBoundaryFile, readWindFile } from '../../src/io/readers.js';
import { windioBinnedResource, windioBoundary, windioCase, windioKind, windioWind } from '../../src/io/windio/windioPlant.js';
import { WAKE_MODEL_NAMES } from '../../src/physics/farmModel.js';
import { powerAt } from '../../src/physics/turbine.js';
import { InputError } from '../../src/util/errors.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';

const PLANT = path.join(REPO, 'test', 'data', 'windio', 'plant');
const SYSTEM = (cs: string) => path.join(PLANT, 'wind_energy_system', `IEA37_case_study_${cs}_wind_energy_system.yaml`);
const RESOURCE = (name: string) => path.join(PLANT, 'plant_energy_resource', name);

/** The `default` AEP (MWh) an IEA37 layout file publishes. */
function iea37Reference(rel: string): number {
  const file = path.join(IEA37, rel);
  const ref = iea37Layout(readYamlFile(file), file).referenceAepMwh;
  assert.ok(ref !== undefined && ref > 0, `${file}: no reference AEP`);
  return ref!;
}

function aepJson(args: string[]): { aep_mwh: number; n_turbines: number; wake_model: string; n_directions: number; n_speeds: number } {
  const r = runWflo(['aep', ...args, '--json']);
  assert.equal(r.status, 0, r.stderr);
  try {
    return JSON.parse(r.stdout);
  } catch {
    return assert.fail(`wflo aep ${args.join(' ')}: no JSON on stdout (${r.stdout.length} bytes; stderr: ${r.stderr.slice(0, 300)})`);
  }
}

const made: string[] = [];
after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(prefix: string): string {
  const d = tempDir(prefix);
  made.push(d);
  return d;
}

const relDiff = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

/** Copy the example plant tree to a temp folder (so one file can be edited) and return its root. */
function plantCopy(): string {
  const dir = tmp('wflo-windio-');
  fs.cpSync(PLANT, path.join(dir, 'plant'), { recursive: true });
  return path.join(dir, 'plant');
}

test('cs1 wind_energy_system (with !include) gives the IEA37 cs1 reference AEP for 16 turbines', () => {
  const reference = iea37Reference('cs1-2/iea37-ex16.yaml');
  const out = aepJson([SYSTEM('1_2')]);
  assert.equal(out.n_turbines, 16);
  assert.equal(out.wake_model, 'iea37');
  assert.ok(relDiff(out.aep_mwh, reference) < 1e-9, `${out.aep_mwh} vs ${reference}`);
  // The file states the same number (net_AEP in GWh) and it becomes the case's reference.
  const c = windioCase(SYSTEM('1_2'));
  assert.ok(relDiff(c.referenceAepMwh!, reference) < 1e-12);
  assert.deepEqual(c.boundary, { kind: 'circle', center: [0, 0], radius: 1300 });
  assert.equal(c.turbine.ratedPowerW, 3.35e6);
  assert.equal(c.turbine.diameter, 130);
  assert.equal(c.wind.directionsDeg.length, 16);
  assert.equal(c.wind.turbulenceIntensity, 0.075);
});

test('cs3 wind_energy_system gives the IEA37 cs3 baseline reference AEP; its boundary is the cs3 polygon', () => {
  const reference = iea37Reference('cs3-4/iea37-ex-opt3.yaml');
  const out = aepJson([SYSTEM('3')]);
  assert.equal(out.n_turbines, 25);
  assert.equal(out.n_directions, 20);
  assert.equal(out.n_speeds, 20);
  assert.ok(relDiff(out.aep_mwh, reference) < 1e-9, `${out.aep_mwh} vs ${reference}`);
  // `polygons: [x: [...], y: [...]]` in the example is two one-key mappings in YAML: joined.
  const b = windioCase(SYSTEM('3')).boundary!;
  const official = readBoundaryFile(path.join(IEA37, 'cs3-4', 'iea37-boundary-cs3.yaml'));
  assert.equal(b.kind, 'polygon');
  assert.equal(official.kind, 'polygon');
  if (b.kind === 'polygon' && official.kind === 'polygon') {
    assert.equal(b.vertices.length, official.vertices.length);
    b.vertices.forEach((v, i) => {
      assert.ok(Math.abs(v[0] - official.vertices[i][0]) < 0.051 && Math.abs(v[1] - official.vertices[i][1]) < 0.051, `vertex ${i}`);
    });
  }
});

test('cs4 wind_energy_system: its 360-sector resource is the IEA37 cs4 rose; with the 20 x 20 rose it gives the cs4 baseline reference', () => {
  const reference = iea37Reference('cs3-4/iea37-ex-opt4.yaml');
  const cs3Rose = path.join(IEA37, 'cs3-4', 'iea37-windrose-cs3.yaml');
  const cs4Rose = path.join(IEA37, 'cs3-4', 'iea37-windrose-cs4.yaml');
  // The reference AEP of the IEA37 cs4 baseline is on the 20 × 20 rose (the file says so).
  const withCs3Rose = aepJson([SYSTEM('4'), '--wind', cs3Rose]);
  assert.equal(withCs3Rose.n_turbines, 81);
  assert.ok(relDiff(withCs3Rose.aep_mwh, reference) < 1e-9, `${withCs3Rose.aep_mwh} vs ${reference}`);
  // The windIO example's own resource is the 360 × 20 rose of iea37-windrose-cs4.yaml.
  const w = windioWind(SYSTEM('4'));
  const official = readWindFile(cs4Rose);
  assert.equal(w.directionsDeg.length, 360);
  assert.deepEqual(Array.from(w.directionsDeg), Array.from(official.directionsDeg));
  assert.deepEqual(Array.from(w.speeds), Array.from(official.speeds));
  let worst = 0;
  w.probability.forEach((p, i) => {
    worst = Math.max(worst, Math.abs(p - official.probability[i]));
  });
  assert.ok(worst < 1e-12, `largest probability difference ${worst}`);
  // … so its AEP is the IEA37 baseline's on that rose (the rose file is written from the cs3 rose by
  // the published interpolation rule; test/data/iea37/SOURCE.md).
  const own = aepJson([SYSTEM('4')]);
  const viaIea37 = aepJson([path.join(IEA37, 'cs3-4', 'iea37-ex-opt4.yaml'), '--wind', cs4Rose]);
  assert.ok(relDiff(own.aep_mwh, viaIea37.aep_mwh) < 1e-12, `${own.aep_mwh} vs ${viaIea37.aep_mwh}`);
  // Five Borssele polygons.
  const b = windioBoundary(SYSTEM('4'));
  assert.equal(b.kind, 'multipolygon');
  if (b.kind === 'multipolygon')
    assert.deepEqual(
      b.polygons.map((p) => p.length),
      [18, 8, 6, 3, 5],
    );
});

test('resource forms: probability over wind_direction with a scalar wind_speed, Weibull sectors, time series', () => {
  const uniform = windioWind(RESOURCE('UniformResource.yaml'));
  const cs1 = windioWind(RESOURCE('IEA37_case_study_1_2_energy_resource.yaml'));
  assert.deepEqual(Array.from(uniform.speeds), [9.8]);
  assert.deepEqual(Array.from(uniform.probability), Array.from(cs1.probability));

  // Weibull: each (sector, speed) bin holds sector_probability × the Weibull mass between the
  // midpoints of the speed bins (0, 1, …, 30 m/s when the file gives no wind_speed).
  const weibullFile = RESOURCE('UniformWeibullResource.yaml');
  const raw = readYamlFile(weibullFile) as { wind_resource: Record<string, { data: number[] } | number[]> };
  const a = (raw.wind_resource.weibull_a as { data: number[] }).data;
  const k = (raw.wind_resource.weibull_k as { data: number[] }).data;
  const f = (raw.wind_resource.sector_probability as { data: number[] }).data;
  const weibull = windioWind(weibullFile);
  assert.deepEqual(Array.from(weibull.directionsDeg), raw.wind_resource.wind_direction as number[]);
  assert.equal(weibull.speeds.length, 31);
  const cdf = (v: number, d: number) => 1 - Math.exp(-Math.pow(v / a[d], k[d]));
  for (const d of [0, 5, 11]) {
    const ns = weibull.speeds.length;
    assert.ok(Math.abs(weibull.probability[d * ns + 0] - f[d] * cdf(0.5, d)) < 1e-15);
    assert.ok(Math.abs(weibull.probability[d * ns + 10] - f[d] * (cdf(10.5, d) - cdf(9.5, d))) < 1e-15);
    assert.ok(Math.abs(weibull.probability[d * ns + 30] - f[d] * (1 - cdf(29.5, d))) < 1e-15);
  }

  // Time series (5 m/s from 0°, 6 m/s from 350°, 3 m/s from 30°): one third each.
  const ts = windioWind(RESOURCE('timeseries.yaml'));
  assert.deepEqual(Array.from(ts.directionsDeg), [0, 30, 350]);
  assert.deepEqual(Array.from(ts.speeds), [3, 5, 6]);
  const p = (dir: number, speed: number) => ts.probability[ts.directionsDeg.indexOf(dir) * 3 + ts.speeds.indexOf(speed)];
  assert.equal(p(0, 5), 1 / 3);
  assert.equal(p(350, 6), 1 / 3);
  assert.equal(p(30, 3), 1 / 3);
  assert.equal(
    ts.probability.reduce((s, v) => s + v, 0),
    1,
  );
});

test('time series are kept sample by sample with their turbulence intensity; the summary rose is binned to 1 degree x 0.5 m/s', () => {
  const dir = tmp('wflo-windio-ts-');
  const file = path.join(dir, 'ts.yaml');
  fs.writeFileSync(
    file,
    [
      'name: binning',
      'wind_resource:',
      '  time: [0, 1, 2, 3]',
      '  wind_speed: {data: [7.9, 8.1, 8.2, 12.0], dims: [time]}',
      '  wind_direction: {data: [359.7, 0.2, 90.4, 90.6], dims: [time]}',
      '  turbulence_intensity: {data: [0.1, 0.2, 0.05, 0.07], dims: [time]}',
      '',
    ].join('\n'),
  );
  const { wind } = windioBinnedResource(file);
  assert.deepEqual(Array.from(wind.series!.directionsDeg), [359.7, 0.2, 90.4, 90.6]);
  assert.deepEqual(Array.from(wind.series!.speeds), [7.9, 8.1, 8.2, 12.0]);
  assert.deepEqual(Array.from(wind.series!.turbulenceIntensity!), [0.1, 0.2, 0.05, 0.07]);
  assert.deepEqual(Array.from(wind.series!.weights), [0.25, 0.25, 0.25, 0.25]);
  assert.deepEqual(Array.from(wind.directionsDeg), [0, 90, 91]);
  assert.deepEqual(Array.from(wind.speeds), [8, 12]);
  assert.deepEqual(Array.from(wind.probability), [0.5, 0, 0.25, 0, 0, 0.25]);
  assert.ok(Math.abs(wind.turbulenceIntensity - (0.1 + 0.2 + 0.05 + 0.07) / 4) < 1e-15);
  // A time stamp that goes back, a direction in radians and a TI in percent are refused, naming the stamp.
  const bad = (line: string, re: RegExp) => {
    fs.writeFileSync(
      file,
      [
        'name: bad',
        'wind_resource:',
        '  time: [0, 1, 2, 3]',
        '  wind_speed: [7.9, 8.1, 8.2, 12.0]',
        '  wind_direction: [359.7, 0.2, 90.4, 90.6]',
        line,
        '',
      ].join('\n'),
    );
    assert.throws(() => windioBinnedResource(file), re);
  };
  bad(
    '  turbulence_intensity: [10, 20, 5, 7]',
    /ts\.yaml:6: wind_resource\.turbulence_intensity\[0\]: time stamp 0: turbulence intensity 10 is above 1: a fraction expected/,
  );
  bad('  shear: 0.14', /ts\.yaml:6: wind_resource\.shear: unknown field 'shear'/);
});

test('{data, dims}: dims give the axis order (a transposed table gives the same AEP), per-bin turbulence intensity', () => {
  const plant = plantCopy();
  const resourceFile = path.join(plant, 'plant_energy_resource', 'IEA37_case_study_3_energy_resource.yaml');
  const raw = readYamlFile(resourceFile) as { name: string; wind_resource: Record<string, unknown> };
  const wr = raw.wind_resource as { wind_direction: number[]; wind_speed: number[]; sector_probability: unknown; probability: { data: number[][] } };
  const table = wr.probability.data;
  const transposed = table[0].map((_, s) => table.map((row) => row[s]));
  const tiBySpeed = wr.wind_speed.map((v) => 0.05 + 0.01 * v);
  fs.writeFileSync(
    resourceFile,
    JSON.stringify({
      name: raw.name,
      wind_resource: {
        wind_direction: wr.wind_direction,
        wind_speed: wr.wind_speed,
        sector_probability: wr.sector_probability,
        probability: { data: transposed, dims: ['wind_speed', 'wind_direction'] },
        turbulence_intensity: { data: tiBySpeed, dims: ['wind_speed'] },
      },
    }),
  );
  const system = path.join(plant, 'wind_energy_system', 'IEA37_case_study_3_wind_energy_system.yaml');
  const out = aepJson([system]);
  assert.ok(relDiff(out.aep_mwh, iea37Reference('cs3-4/iea37-ex-opt3.yaml')) < 1e-9);
  const { wind, turbulenceIntensityByBin } = windioBinnedResource(system);
  const ns = wind.speeds.length;
  assert.equal(turbulenceIntensityByBin[3 * ns + 7], tiBySpeed[7]);
  let mean = 0;
  wind.probability.forEach((p, i) => {
    mean += p * tiBySpeed[i % ns];
  });
  assert.ok(Math.abs(wind.turbulenceIntensity - mean / wind.probability.reduce((s, v) => s + v, 0)) < 1e-15);
  // Kept per bin in the resource, so a model that depends on turbulence intensity sees each bin's.
  assert.equal(wind.turbulenceIntensityByBin?.[3 * ns + 7], tiBySpeed[7]);
  fs.writeFileSync(system, fs.readFileSync(system, 'utf8').replace(/name: Bastankhah’s Gaussian wake model \(simplified version\)/, 'name: Niayifar'));
  const c = windioCase(system);
  assert.equal(c.model.wake, 'niayifar2016');
  const perBin = createFarmEvaluator(c.turbine, c.wind, c.model).aep(c.layout!.x, c.layout!.y).aepMwh;
  const averaged = createFarmEvaluator(c.turbine, { ...c.wind, turbulenceIntensityByBin: undefined }, c.model).aep(c.layout!.x, c.layout!.y).aepMwh;
  assert.ok(Math.abs(perBin - averaged) > 1e-4 * averaged, `per-bin ${perBin} vs averaged ${averaged}`);
});

test('turbines: a Cp curve becomes power ½ρACpV³ (ρ = 1.225), rated power and cut-in/out come from the curve', () => {
  const plant = plantCopy();
  const farm = path.join(plant, 'plant_wind_farm', 'IEA37_case_study_3_wind_farm.yaml');
  fs.writeFileSync(farm, fs.readFileSync(farm, 'utf8').replace('IEA37_10MW_turbine.yaml', 'IEA37_15MW_turbine.yaml'));
  const c = windioCase(path.join(plant, 'wind_energy_system', 'IEA37_case_study_3_wind_energy_system.yaml'));
  const raw = readYamlFile(path.join(plant, 'plant_energy_turbine', 'IEA37_15MW_turbine.yaml')) as {
    performance: { Cp_curve: { Cp_values: number[]; Cp_wind_speeds: number[] } };
  };
  const { Cp_values: cp, Cp_wind_speeds: v } = raw.performance.Cp_curve;
  const area = (Math.PI * 240 * 240) / 4;
  const expected = cp.map((c_, i) => 0.5 * 1.225 * area * c_ * v[i] ** 3);
  assert.equal(c.turbine.cutIn, v[0]);
  assert.equal(c.turbine.cutOut, v[v.length - 1]);
  assert.equal(c.turbine.ratedPowerW, Math.max(...expected));
  for (const i of [0, 10, 30, 45]) assert.ok(Math.abs(powerAt(c.turbine, v[i]) - expected[i]) <= 1e-9 * expected[i], `speed ${v[i]}`);
  // The named IEA37 simplified model fixes Ct = 8/9 (the case studies' recipe).
  assert.deepEqual(c.turbine.thrust, { kind: 'constant', ct: 8 / 9 });
});

test('site exclusions and area_constraints exclusion zones become Boundary.exclusions', () => {
  const plant = plantCopy();
  const site = path.join(plant, 'plant_energy_site', 'IEA37_case_study_1_2_energy_site.yaml');
  fs.appendFileSync(
    site,
    [
      'exclusions:',
      '  polygons:',
      '    - x: [-100, 100, 100, -100]',
      '      y: [-100, -100, 100, 100]',
      '    - [{x: 500, y: 500}, {x: 600, y: 500}, {x: 550, y: 600}]',
      '',
    ].join('\n'),
  );
  const system = path.join(plant, 'wind_energy_system', 'IEA37_case_study_1_2_wind_energy_system.yaml');
  fs.appendFileSync(
    system,
    ['optimisation:', '  constraints:', '    area_constraints:', '      exclusion_zones:', '        circle: {center: {x: -600, y: 0}, radius: 100}', ''].join(
      '\n',
    ),
  );
  const b = windioBoundary(system);
  assert.equal(b.kind, 'circle');
  const zones = b.exclusions ?? [];
  assert.deepEqual(
    zones.map((z) => z.name),
    ['site.exclusions[0]', 'site.exclusions[1]', 'area_constraints.exclusion_zones circle'],
  );
  assert.deepEqual(zones[0].vertices, [
    [-100, -100],
    [100, -100],
    [100, 100],
    [-100, 100],
  ]);
  assert.deepEqual(zones[1].vertices, [
    [500, 500],
    [600, 500],
    [550, 600],
  ]);
  // The circle becomes a circumscribed polygon: every vertex at or beyond the radius.
  for (const [x, y] of zones[2].vertices) assert.ok(Math.hypot(x + 600, y) >= 100 - 1e-9);
});

test('analysis names map to wflo models; a model wflo lacks is one clear error', () => {
  const plant = plantCopy();
  const system = path.join(plant, 'wind_energy_system', 'IEA37_case_study_1_2_wind_energy_system.yaml');
  const original = fs.readFileSync(system, 'utf8');
  const withModel = (block: string) => {
    fs.writeFileSync(system, original.replace(/  analyses:[\s\S]*$/, `  analyses:\n${block}\n`));
    return windioCase(system);
  };
  const jensen = withModel('    wake_model:\n      name: Jensen\n      k: 0.05\n    superposition_model:\n      name: Linear');
  assert.deepEqual(jensen.model, { wake: 'jensen', superposition: 'linear', params: { k: 0.05 } });
  assert.equal(jensen.turbine.thrust.kind, 'table');
  const bastankhah = withModel('    wake_model:\n      name: Bastankhah2014\n    superposition_model:\n      ws_superposition: Squared');
  assert.deepEqual(bastankhah.model, { wake: 'bastankhah2014', superposition: 'sos' });
  // TurbOPark: mapped when the physics layer has it, otherwise the unknown/unsupported error.
  const turbopark = ['turbopark2022', 'turbopark'].find((n) => (WAKE_MODEL_NAMES as readonly string[]).includes(n));
  if (turbopark) {
    assert.equal(withModel('    wake_model:\n      name: TurbOPark').model.wake, turbopark);
  } else {
    assert.throws(() => withModel('    wake_model:\n      name: TurbOPark'), /unknown\/unsupported wake model 'TurbOPark' \(known: /);
  }
  // windIO 2 / WIFA spelling: analysis.wind_deficit_model with k = k_a·TI + k_b, and the other blocks.
  const wifa = withModel(
    [
      '    wind_deficit_model:',
      '      name: Bastankhah2014',
      '      wake_expansion_coefficient: {k_a: 0.0, k_b: 0.04, free_stream_ti: false}',
      '      ceps: 0.2',
      '      use_effective_ws: true',
      '    axial_induction_model: Madsen',
      '    deflection_model: {name: None}',
      '    blockage_model: {name: None}',
      '    turbulence_model: {name: CrespoHernandez}',
      '    superposition_model: {ws_superposition: Linear, ti_superposition: Squared}',
      '    rotor_averaging: {grid: center}',
    ].join('\n'),
  );
  assert.deepEqual(wifa.model, {
    wake: 'bastankhah2014',
    superposition: 'linear',
    params: { k: 0.04, ceps: 0.2 },
    deficitReference: 'source-effective',
    ct2a: 'madsen',
    turbulence: 'crespo-hernandez',
    turbulenceSuperposition: 'sos',
    rotorAverage: 'center',
  });
  // rotor_averaging as the windIO → PyWake reader (WIFA) names PyWake's models; each name is one
  // whose AEP test/physics checks against PyWake (test/data/reference/rotor-*.yaml).
  // The area-overlap average is of a top-hat wake (Jensen); the others are read under Bastankhah2014.
  const rotor = (block: string) =>
    withModel(`    wake_model: {name: ${block.includes('area_overlap') ? 'Jensen' : 'Bastankhah2014'}}\n    rotor_averaging: ${block}`).model.rotorAverage;
  for (const [block, name] of [
    ['{name: center}', 'center'],
    ['{name: avg_deficit}', 'grid'],
    ['{name: eqgrid}', 'eqgrid4'],
    ['{name: eqgrid, n: 3}', 'eqgrid3'],
    ['{name: EqGrid, n_x_grid_points: 5, n_y_grid_points: 5}', 'eqgrid5'],
    ['{name: gqgrid}', 'gqgrid4x4'],
    ['{name: gqgrid, n_x_grid_points: 4, n_y_grid_points: 3}', 'gqgrid4x3'],
    ['{name: PolarGrid}', 'polargrid'],
    ['{name: CGI}', 'cgi4'],
    ['{name: cgi, n: 21}', 'cgi21'],
    ['{name: CGIRotorAvg, n: 9}', 'cgi9'],
    ['{name: area_overlap}', 'area-overlap'],
    ['{grid: gauss5}', 'gauss5'],
  ] as const)
    assert.equal(rotor(block), name, block);
  assert.throws(
    () => withModel('    wake_model: {name: Bastankhah2014}\n    rotor_averaging: {name: area_overlap}'),
    /rotor_averaging: the area-overlap rotor average needs a top-hat wake model \(jensen\), not bastankhah2014/,
  );
  assert.throws(
    () => rotor('{name: eqgrid, n_x_grid_points: 4, n_y_grid_points: 3}'),
    /rotor_averaging\.n_y_grid_points: 3 differs from n_x_grid_points 4: 'eqgrid' is a square grid \(use gqgrid for N × M\)/,
  );
  assert.throws(() => rotor('{name: cgi, n: 5}'), /rotor_averaging\.n: 5 is not a CGI rule \(4, 7, 9 or 21 points\)/);
  assert.throws(() => rotor('{name: grid, n_x_grid_points: 3}'), /rotor_averaging\.n_x_grid_points: 'grid' with n_x_grid_points is ambiguous: name eqgrid/);
  assert.throws(() => rotor('{name: eqgrid, n: 2.5}'), /rotor_averaging\.n: 2\.5 is not a whole number of grid points from 1 to 20/);
  assert.throws(() => rotor('{name: Fuzzy}'), /rotor_averaging\.name: 'Fuzzy' is not supported \(wflo's rotor averages: center, avg_deficit, eqgrid/);
  assert.throws(
    () => withModel('    wind_deficit_model:\n      name: Bastankhah2014\n      wake_expansion_coefficient: {k_a: 0.3, k_b: 0.004}'),
    /wake_expansion_coefficient\.k_a: bastankhah2014 has a constant wake expansion k: k_a must be 0, got 0\.3/,
  );
  assert.throws(
    () => withModel('    wake_model:\n      name: FancyWake3000'),
    (err: unknown) =>
      err instanceof InputError &&
      /IEA37_case_study_1_2_wind_energy_system\.yaml:\d+: attributes\.analyses\.wake_model\.name: unknown\/unsupported wake model 'FancyWake3000' \(known: iea37, /.test(
        err.message,
      ),
  );
  assert.throws(
    () => withModel('    wake_model:\n      name: Jensen\n    deflection_model:\n      name: Jimenez'),
    /attributes\.analyses\.deflection_model\.name: 'Jimenez' is not supported: wflo has no wake deflection/,
  );
});

test('recognised kinds, and a campaign farm entry can be a windIO plant file (case:, boundary:, wind:)', async () => {
  assert.equal(windioKind(readYamlFile(SYSTEM('1_2'))), 'wind_energy_system');
  assert.equal(windioKind(readYamlFile(path.join(PLANT, 'plant_energy_site', 'IEA37_case_study_3_energy_site.yaml'))), 'site');
  assert.equal(windioKind(readYamlFile(RESOURCE('timeseries.yaml'))), 'energy_resource');
  assert.equal(windioKind(readYamlFile(path.join(IEA37, 'cs3-4', 'iea37-boundary-cs3.yaml'))), null);
  assert.equal(windioKind(readYamlFile(path.join(IEA37, 'cs1-2', 'iea37-windrose.yaml'))), null);

  const { parseCampaign } = await import('../../src/campaign/loadCampaign.js');
  const dir = tmp('wflo-windio-campaign-');
  const file = path.join(dir, 'campaign.yaml');
  const text = [
    'name: windio-farms',
    'farms:',
    `  - {id: 0, case: ${JSON.stringify(SYSTEM('3'))}}`,
    `  - {id: 1, boundary: ${JSON.stringify(SYSTEM('4'))}, wind: ${JSON.stringify(path.join(PLANT, 'plant_energy_site', 'IEA37_case_study_3_energy_site.yaml'))}}`,
    'farm_types:',
    '  - {id: 0, turbine: iea37-10mw, n_turbines: 25}',
    'seeds: [1]',
    'optimizer: {method: none}',
    '',
  ].join('\n');
  fs.writeFileSync(file, text);
  // The boundary and wind files are outside the campaign's folder: allowed as an operator would (io/fileDoor.ts).
  process.env.WFLO_ALLOW_INCLUDE_OUTSIDE = '1';
  let campaign;
  try {
    campaign = parseCampaign(text, file);
  } finally {
    delete process.env.WFLO_ALLOW_INCLUDE_OUTSIDE;
  }
  const cs3 = windioCase(SYSTEM('3'));
  assert.deepEqual(campaign.farms[0].boundary, cs3.boundary);
  assert.deepEqual(Array.from(campaign.farms[0].wind.probability), Array.from(cs3.wind.probability));
  assert.equal(campaign.farms[0].model.wake, 'iea37');
  assert.equal(campaign.farms[1].boundary.kind, 'multipolygon');
  assert.equal(campaign.farms[1].wind.directionsDeg.length, 20);
});
