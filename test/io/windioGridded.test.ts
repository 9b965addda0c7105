/**
 * windIO's gridded `wind_resource` (weibull_a, weibull_k, sector_probability over x, y,
 * wind_direction, as windIO's GriddedResource example) read as a per-point Weibull site. An
 * independent Python writer (Debian's python3-yaml and numpy) turns a PyWake per-point Weibull
 * reference case into a windIO wind_energy_system: the reference's 12-sector grid interpolated
 * linearly (with wrap) onto the case's 72 directions as PyWake's XRSite interpolates it, each
 * sector frequency scaled by 5°/30° (the same probability for a 5° sector), one quantity's dims
 * transposed. `wflo aep` on that plant must give PyWake's AEP and every turbine's to 1e-9; bad
 * plants are refused in one line naming the file, line and field, exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PYTHON, PYWAKE_REFERENCE as REFERENCE, runWflo, tempDir } from '../helpers.js';

const skip = spawnSync(PYTHON, ['-c', 'import yaml, numpy'], { encoding: 'utf8' }).status === 0 ? false : 'needs python3-yaml and python3-numpy (Debian)';

/** Reference case → windIO plant. argv: reference, out folder, a Python statement run on `wr`/`farm` before writing. */
const WRITER = `
import sys, yaml, numpy as np
ref, out, extra = sys.argv[1], sys.argv[2], sys.argv[3]
doc = yaml.safe_load(open(ref))
site, wind, t, m = doc['site'], doc['wind'], doc['turbine'], doc['model']
wd = np.asarray(wind['wind_direction'], float)
if 'weibull' in site:
    w = site['weibull']
    gx, gy, sectors = np.asarray(w['x'], float), np.asarray(w['y'], float), np.asarray(w['wd'], float)
    width, step = sectors[1] - sectors[0], wd[1] - wd[0]
    def on_directions(v):
        # linear in direction between the sectors, 330 deg -> 360 = 0 deg (PyWake XRSite's wrap)
        v = np.asarray(v, float)
        i = np.floor(wd / width).astype(int) % len(sectors)
        f = (wd - sectors[i]) / width
        return v[:, :, i] * (1 - f) + v[:, :, (i + 1) % len(sectors)] * f
    A, K, F = on_directions(w['A']), on_directions(w['k']), on_directions(w['frequency']) * (step / width)
    wr = {
        'x': gx.tolist(), 'y': gy.tolist(),
        'wind_direction': wd.tolist(), 'wind_speed': list(wind['wind_speed']),
        'weibull_a': {'data': A.tolist(), 'dims': ['x', 'y', 'wind_direction']},
        'weibull_k': {'data': K.transpose(2, 1, 0).tolist(), 'dims': ['wind_direction', 'y', 'x']},
        'sector_probability': {'data': F.tolist(), 'dims': ['x', 'y', 'wind_direction']},
        'turbulence_intensity': wind['turbulence_intensity'],
    }
else:
    # a TI field over (x, y), transposed, beside the probability table of the case's rose
    ti = site['ti']
    gx, gy = np.asarray(ti['x'], float), np.asarray(ti['y'], float)
    wr = {
        'x': gx.tolist(), 'y': gy.tolist(),
        'wind_direction': wd.tolist(), 'wind_speed': list(wind['wind_speed']),
        'probability': {'data': wind['probability'], 'dims': wind['dims']},
        'turbulence_intensity': {'data': np.asarray(ti['values'], float).T.tolist(), 'dims': ['y', 'x']},
    }
if m['deficit'].startswith('Bastankhah'):
    analysis = {'wind_deficit_model': {'name': 'Bastankhah2014', 'k': m['k'], 'ceps': m['ceps'], 'use_effective_ws': True},
                'axial_induction_model': '1D', 'rotor_averaging': {'name': 'center'}, 'superposition_model': {'ws_superposition': 'Linear'}}
elif m['deficit'].startswith('Niayifar'):
    c = m['crespo_hernandez_c']
    analysis = {'wind_deficit_model': {'name': 'Niayifar2016', 'wake_expansion_coefficient': {'k_a': m['a'][0], 'k_b': m['a'][1], 'free_stream_ti': False},
                                       'ceps': m['ceps'], 'use_effective_ws': True},
                'axial_induction_model': '1D', 'rotor_averaging': {'name': 'center'},
                'turbulence_model': {'name': 'CrespoHernandez', 'c0': c[0], 'c1': c[1], 'c2': c[2], 'c3': c[3]},
                'superposition_model': {'ws_superposition': 'Linear', 'ti_superposition': 'SqrMaxSum'}}
else:
    analysis = {'wind_deficit_model': {'name': 'Jensen', 'k': m['k']}, 'axial_induction_model': 'Madsen',
                'rotor_averaging': {'name': 'area-overlap'}, 'superposition_model': {'ws_superposition': 'Squared'}}
farm = {
    'name': 'farm',
    'layouts': {'initial_layout': {'coordinates': {'x': doc['layout']['x'], 'y': doc['layout']['y']}}},
    'turbines': {'name': t['name'], 'hub_height': t['hub_height'], 'rotor_diameter': t['rotor_diameter'], 'performance': {
        'power_curve': {'power_wind_speeds': t['power_curve']['wind_speed'], 'power_values': t['power_curve']['power_w']},
        'Ct_curve': {'Ct_wind_speeds': t['ct_curve']['wind_speed'], 'Ct_values': t['ct_curve']['ct']},
        # the table's end values hold beyond 25 m/s (PyWake's tabular turbine): no cut-out among the case's speeds
        'cutout_wind_speed': 30.0}},
}
exec(extra)
plant = {
    'name': doc['name'],
    'site': {'name': 'site',
             'boundaries': {'polygons': [{'x': [float(v) for v in (gx[0], gx[-1], gx[-1], gx[0])], 'y': [float(v) for v in (gy[0], gy[0], gy[-1], gy[-1])]}]},
             'energy_resource': {'name': 'gridded', 'wind_resource': wr}},
    'wind_farm': farm,
    'attributes': {'analysis': analysis},
}
yaml.safe_dump(plant, open(out + '/plant.yaml', 'w'), sort_keys=False, width=120, default_flow_style=None)
`;

function plant(reference: string, extra = 'pass'): string {
  const dir = tempDir('wflo-windio-grid-');
  const r = spawnSync(PYTHON, ['-c', WRITER, path.join(REFERENCE, reference), dir, extra], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return path.join(dir, 'plant.yaml');
}

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

for (const reference of ['site-weibull-bastankhah2014.yaml', 'site-weibull-wrg-jensen1983.yaml']) {
  test(`${reference} as a windIO plant with a gridded wind_resource: PyWake's AEP and per-turbine AEP to 1e-9`, { skip }, () => {
    const file = plant(reference);
    const r = runWflo(['aep', file, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const expected = JSON.parse(
      spawnSync(PYTHON, ['-c', 'import sys, yaml, json; print(json.dumps(yaml.safe_load(open(sys.argv[1]))["expected"]))', path.join(REFERENCE, reference)], {
        encoding: 'utf8',
      }).stdout,
    );
    assert.ok(rel(out.aep_mwh, expected.aep_mwh) <= 1e-9, `${out.aep_mwh} vs PyWake ${expected.aep_mwh}`);
    assert.equal(out.per_turbine_mwh.length, expected.aep_per_turbine_mwh.length);
    expected.aep_per_turbine_mwh.forEach((v: number, i: number) =>
      assert.ok(rel(out.per_turbine_mwh[i], v) <= 1e-9, `turbine ${i}: ${out.per_turbine_mwh[i]} vs ${v}`),
    );
  });
}

test('gridded wind_resource that is not what it should be: file:line, the field, exit 2', { skip }, () => {
  const at = (field: string) => new RegExp(`plant\\.yaml:\\d+: site\\.energy_resource\\.wind_resource\\.${field}`);
  const cases: [string, RegExp][] = [
    // dims listed in an order the data do not nest in (7 x values, 6 y values)
    [
      "wr['weibull_a']['dims'] = ['y', 'x', 'wind_direction']",
      new RegExp(
        `${at('weibull_a').source}\\.data: dims \\[y, x, wind_direction\\] need shape 6 × 7 × 72, but this y level has 7 values \\(dims/shape mismatch\\)`,
      ),
    ],
    // an axis a site quantity cannot have
    [
      "wr['sector_probability'] = {'data': np.repeat(F[:, :, :, None], 2, axis=3).tolist(), 'dims': ['x', 'y', 'wind_direction', 'wind_speed']}",
      new RegExp(
        `${at('sector_probability').source}\\.dims\\[3\\]: 'wind_speed' is not an axis this quantity can depend on \\(allowed: x, y, wind_direction\\)`,
      ),
    ],
    // frequencies in percent
    [
      "wr['sector_probability']['data'] = (F * 100).tolist()",
      new RegExp(
        `${at('sector_probability').source}: at x\\[0\\], y\\[0\\], wind_direction\\[\\d+\\]: [\\d.]+ is not a sector frequency as a fraction in \\[0, 1\\]; in percent or per mille\\?`,
      ),
    ],
    // a turbine outside the grid
    [
      "farm['layouts']['initial_layout']['coordinates']['x'][3] = 2600.0",
      new RegExp(`${at('weibull_a').source}: turbine 3 at \\(2600, [-\\d.e]+\\) is outside the field's grid`),
    ],
  ];
  for (const [edit, pattern] of cases) {
    const r = runWflo(['aep', plant('site-weibull-bastankhah2014.yaml', edit), '--json']);
    assert.equal(r.status, 2, `${edit}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], pattern, edit);
  }
});

test("a gridded windIO resource named as a case's wind is refused (its per-point site would be dropped), exit 2", { skip }, () => {
  const file = plant(
    'site-weibull-bastankhah2014.yaml',
    "yaml.safe_dump({'turbine': 'v80', 'wind': 'plant.yaml', 'layout': doc['layout']}, open(out + '/case.yaml', 'w'))",
  );
  const r = runWflo(['aep', path.join(path.dirname(file), 'case.yaml'), '--json']);
  assert.equal(r.status, 2, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(
    lines[0],
    /plant\.yaml:\d+: site\.energy_resource\.wind_resource: a gridded wind_resource \(quantities over x, y\) is a per-point site, not one rose/,
  );
});

/**
 * No PyWake reference has a TI field alone (site-ti-niayifar2016 has a speed-up too, which windIO
 * cannot state): the reference without its speed-up, as wflo's inline `site: {ti}` case and as a
 * windIO plant with turbulence_intensity over (y, x), must give the same AEP per turbine (two
 * readers of one field); the same plant with one TI everywhere (the field's mean) must not.
 */
test('turbulence_intensity over x, y in a windIO plant evaluates as the same inline TI field', { skip }, () => {
  const ref = 'site-ti-niayifar2016.yaml';
  const file = plant(
    ref,
    "del doc['site']['speedup']; import copy; d = copy.deepcopy(doc); d.pop('expected'); yaml.safe_dump(d, open(out + '/case.yaml', 'w'), default_flow_style=None)",
  );
  const uniform = plant(ref, "del doc['site']['speedup']; wr['turbulence_intensity'] = float(np.mean(doc['site']['ti']['values']))");
  const aep = (f: string): { aep_mwh: number; per_turbine_mwh: number[] } => {
    const r = runWflo(['aep', f, '--json']);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const viaWindio = aep(file),
    inline = aep(path.join(path.dirname(file), 'case.yaml')),
    flat = aep(uniform);
  assert.ok(rel(viaWindio.aep_mwh, inline.aep_mwh) <= 1e-12, `${viaWindio.aep_mwh} vs ${inline.aep_mwh}`);
  inline.per_turbine_mwh.forEach((v, i) => assert.ok(rel(viaWindio.per_turbine_mwh[i], v) <= 1e-12, `turbine ${i}: ${viaWindio.per_turbine_mwh[i]} vs ${v}`));
  assert.ok(rel(flat.aep_mwh, inline.aep_mwh) > 1e-4, `one TI everywhere gives ${flat.aep_mwh}, the field ${inline.aep_mwh}`);
});
