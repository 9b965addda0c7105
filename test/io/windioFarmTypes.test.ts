/**
 * windIO 2's several turbine models (`wind_farm.turbine_types` with each layout's `turbine_types`)
 * and several farms per system (a list of `layouts`: the first is the farm, the others its
 * neighbours): a windIO wind_energy_system written from the PyWake reference cases of
 * test/data/reference/ (mixed types; a farm beside neighbours; SOURCE.md there) gives PyWake's own
 * AEP through `wflo aep` to 1e-9; model keys and indices, and mistakes, are one line each.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { PYWAKE_REFERENCE, runWflo, tempDir } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { windioCase } from '../../src/io/windio/windioPlant.js';
import type { Turbine } from '../../src/physics/turbine.js';
import type { Case } from '../../src/case/case.js';

const dir = tempDir('wflo-windio-types-');
const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

/**
 * A reference turbine in windIO's plant turbine form. The reference tables give the table value
 * at exactly 25 m/s (the rose's last speed); windIO's power is 0 at or above cut-out, so the
 * cut-out is written a hair above 25 m/s (no speed of the rose lies between).
 */
function windioTurbine(t: Turbine): Record<string, unknown> {
  if (t.power.kind !== 'table' || t.thrust.kind !== 'table') throw new Error('reference turbines are tables');
  return {
    name: t.name,
    hub_height: t.hubHeight,
    rotor_diameter: t.diameter,
    performance: {
      power_curve: { power_wind_speeds: Array.from(t.power.speeds), power_values: Array.from(t.power.powerW) },
      Ct_curve: { Ct_wind_speeds: Array.from(t.thrust.speeds), Ct_values: Array.from(t.thrust.ct) },
      cutin_wind_speed: t.cutIn,
      cutout_wind_speed: t.cutOut + 1e-6,
    },
  };
}

/** A wind_energy_system of a reference case: a site that holds the farm and not its neighbours. */
function systemOf(ref: Case, site: Record<string, unknown>): Record<string, unknown> {
  const types = ref.turbines ? ref.turbines.types : ref.neighbours!.types;
  const own = ref.turbines ? ref.turbines.typeOf : new Int32Array(ref.layout!.x.length);
  const layouts: Record<string, unknown>[] = [{ coordinates: { x: Array.from(ref.layout!.x), y: Array.from(ref.layout!.y) }, turbine_types: Array.from(own) }];
  if (ref.neighbours) {
    layouts.push({ coordinates: { x: Array.from(ref.neighbours.x), y: Array.from(ref.neighbours.y) }, turbine_types: Array.from(ref.neighbours.typeOf) });
  }
  const w = ref.wind;
  const ns = w.speeds.length;
  return {
    name: ref.name,
    site: {
      name: 'site',
      boundaries: site,
      energy_resource: {
        name: 'rose',
        wind_resource: {
          wind_direction: Array.from(w.directionsDeg),
          wind_speed: Array.from(w.speeds),
          probability: {
            data: Array.from(w.directionsDeg, (_, d) => Array.from(w.probability.subarray(d * ns, (d + 1) * ns))),
            dims: ['wind_direction', 'wind_speed'],
          },
          turbulence_intensity: { data: w.turbulenceIntensity, dims: [] },
        },
      },
    },
    wind_farm: { name: 'farm', turbine_types: Object.fromEntries(types.map((t, k) => [k, windioTurbine(t)])), layouts },
    attributes: {
      analysis: {
        wind_deficit_model: { name: 'Bastankhah2014', wake_expansion_coefficient: { k_a: 0, k_b: 0.0324555 }, ceps: 0.2, use_effective_ws: true },
        superposition_model: { ws_superposition: 'Linear' },
        axial_induction_model: '1D',
      },
    },
  };
}

for (const [name, site] of [
  ['mixed-bastankhah2014', { circle: { center: { x: 1000, y: 1000 }, radius: 1500 } }],
  // The 9 own turbines stand in [0, 800]²; the 8 neighbours 1.1–2.1 km west and south-west.
  ['neighbours-bastankhah2014', { polygons: [{ x: [-100, 900, 900, -100], y: [-100, -100, 900, 900] }] }],
] as const) {
  test(`windIO 2 ${name.startsWith('mixed') ? 'turbine_types' : 'several layouts (the others as neighbours)'}: PyWake's AEP of ${name} through wflo aep (1e-9)`, () => {
    const refFile = path.join(PYWAKE_REFERENCE, `${name}.yaml`);
    const ref = caseFromReferenceDocument(readYamlFile(refFile), refFile);
    const file = path.join(dir, `${name}.yaml`);
    fs.writeFileSync(file, stringify(systemOf(ref, site)));
    const c = windioCase(file);
    assert.equal(c.layout!.x.length, ref.layout!.x.length);
    if (ref.turbines) assert.deepEqual(Array.from(c.turbines!.typeOf), Array.from(ref.turbines.typeOf));
    if (ref.neighbours) assert.deepEqual(Array.from(c.neighbours!.x), Array.from(ref.neighbours.x));
    const r = runWflo(['aep', file, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { aep_mwh: number; per_turbine_mwh: number[] };
    assert.ok(rel(out.aep_mwh, ref.expected!.aepMwh) <= 1e-9, `${name}: windIO ${out.aep_mwh} vs PyWake ${ref.expected!.aepMwh}`);
    ref.expected!.perTurbineMwh.forEach((v, i) => assert.ok(rel(out.per_turbine_mwh[i], v) <= 1e-9, `${name}: turbine ${i}`));
  });
}

test('windIO 2 turbine_types: keys name the models; a bad index, a count mismatch and a neighbour inside the site are one line each', () => {
  const refFile = path.join(PYWAKE_REFERENCE, 'mixed-bastankhah2014.yaml');
  const ref = caseFromReferenceDocument(readYamlFile(refFile), refFile);
  const base = systemOf(ref, { circle: { center: { x: 1000, y: 1000 }, radius: 1500 } });
  const farm = base.wind_farm as { turbine_types: Record<string, unknown>; layouts: { turbine_types: number[]; coordinates: { x: number[]; y: number[] } }[] };
  // Keys other than 0, 1, …: the k-th model listed.
  const named = { ...base, wind_farm: { ...farm, turbine_types: { V80: farm.turbine_types[0], SWT23: farm.turbine_types[1] } } };
  const namedFile = path.join(dir, 'named.yaml');
  fs.writeFileSync(namedFile, stringify(named));
  assert.deepEqual(
    windioCase(namedFile).turbines!.types.map((t) => t.diameter),
    [80, 93],
  );
  const bad = (label: string, edit: (l: typeof farm.layouts) => unknown[], pattern: RegExp) => {
    const file = path.join(dir, `${label}.yaml`);
    fs.writeFileSync(file, stringify({ ...base, wind_farm: { ...farm, layouts: edit(structuredClone(farm.layouts)) } }));
    const r = runWflo(['aep', file]);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, pattern);
  };
  bad(
    'index',
    (l) => {
      l[0].turbine_types[3] = 2;
      return l;
    },
    /index\.yaml:\d+: wind_farm\.layouts\[0\]\.turbine_types\[3\]: turbine type 2 is not one of turbine_types \(0, 1\)/,
  );
  bad(
    'count',
    (l) => {
      l[0].turbine_types.pop();
      return l;
    },
    /count\.yaml:\d+: wind_farm\.layouts\[0\]\.turbine_types: 15 turbine types for 16 turbines/,
  );
  bad(
    'inside',
    (l) => [...l, { coordinates: { x: [1000], y: [1000] }, turbine_types: [0] }],
    /inside\.yaml:\d+: wind_farm\.layouts\[1\]: turbine 0 at \(1000, 1000\) m is inside the site/,
  );
});
