/**
 * `wflo run --adopt` of results another pipeline wrote with h5py, in three layouts that are not
 * wflo's (records at the file's root; records under `results/<task>/`; flat rows with other
 * column names), read with the shard doctor's mapping options, with AEPs from another model.
 *
 * The numbers are PyWake's (test/data/reference/, SOURCE.md there): the campaign's farm model is
 * PyWake's Bastankhah 2014 case (V80, Horns Rev 1 wind table), the layouts are the reference
 * cases' random16 and grid5x5 layouts, and each file reports the AEP another PyWake model gives
 * for that layout (NOJ/Jensen, Niayifar 2016, TurbOPark). So:
 * - `--aep recompute` keeps every feasible layout exactly as written, stores wflo's AEP as `/aep`
 *   (which must equal PyWake's Bastankhah AEP of that layout) and the file's as `/aep_reported`;
 *   the one infeasible record is refused with its reason and its task computed;
 * - `--aep verify` (the default) refuses all of them, each with a line naming the task, the file
 *   and both AEPs.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse, stringify } from 'yaml';
import { REPO, hasH5py, PYTHON } from '../helpers.js';
import { runWflo, tempDir, writeCampaign } from './runnerTestKit.js';

const REFERENCE = path.join(REPO, 'test', 'data', 'reference');

interface ReferenceCase {
  turbine: {
    rotor_diameter: number;
    hub_height: number;
    power_curve: { wind_speed: number[]; power_w: number[] };
    ct_curve: { wind_speed: number[]; ct: number[] };
  };
  wind: { wind_direction: number[]; wind_speed: number[]; probability: number[][] };
  layout: { x: number[]; y: number[] };
  expected: { aep_mwh: number };
}

const reference = (name: string): ReferenceCase => parse(fs.readFileSync(path.join(REFERENCE, `${name}.yaml`), 'utf8')) as ReferenceCase;

/** The campaign: PyWake's Bastankhah 2014 reference case as a farm; 16 and 25 V80s; seeds 0-1. */
function writeFiles(dir: string, output: string): string {
  const ref = reference('bastankhah2014-random16');
  const t = ref.turbine;
  // PyWake's table gives the table value (2 MW) at exactly 25 m/s; a native turbine stops at its
  // cut-out, so the cut-out sits just above the last table speed.
  fs.writeFileSync(
    path.join(dir, 'v80.yaml'),
    stringify({
      name: 'V80',
      rotor_diameter: t.rotor_diameter,
      hub_height: t.hub_height,
      performance: {
        rated_power: 2e6,
        cutin_wind_speed: 3,
        cutout_wind_speed: 25.001,
        power_curve: { power_wind_speeds: t.power_curve.wind_speed, power_values: t.power_curve.power_w },
        Ct_curve: { Ct_wind_speeds: t.ct_curve.wind_speed, Ct_values: t.ct_curve.ct },
      },
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'wind.yaml'),
    stringify({
      wind_resource: {
        wind_direction: ref.wind.wind_direction,
        wind_speed: ref.wind.wind_speed,
        probability: { data: ref.wind.probability, dims: ['wind_direction', 'wind_speed'] },
        turbulence_intensity: { data: 0.1 },
      },
    }),
  );
  return writeCampaign(path.join(dir, 'campaign.yaml'), {
    name: 'foreign',
    output,
    farms: [
      {
        id: 0,
        boundary: {
          polygon: [
            [-100, -100],
            [2100, -100],
            [2100, 2100],
            [-100, 2100],
          ],
        },
        wind: 'wind.yaml',
        wake_model: 'bastankhah2014',
        superposition: 'linear',
        wake_params: { k: 0.0324555 },
      },
    ],
    farm_types: [
      { id: 0, turbine: 'v80.yaml', n_turbines: 16 },
      { id: 1, turbine: 'v80.yaml', n_turbines: 25 },
    ],
    seeds: [0, 1, 2],
    // Cheap, feasible results for the tasks that are computed.
    optimizer: { method: 'gradient', max_iterations: 3, outer_iterations: 1, wec: [1] },
    workers: 2,
    timeout_s: 120,
    attempts: 2,
    backoff: { initial_s: 0.05, factor: 2, max_s: 0.1 },
  });
}

interface ForeignRecord {
  file: string;
  farm: number;
  type: number;
  seed: number;
  x: number[];
  y: number[];
  /** The AEP the other pipeline reported (another model's). */
  aep: number;
  /** PyWake's Bastankhah 2014 AEP of this layout: what wflo must store as /aep. */
  campaignAep: number;
  feasible: boolean;
}

/** h5py writes the three layouts; every value comes in on stdin. */
const WRITER = String.raw`
import h5py, json, sys
import numpy as np
spec = json.load(sys.stdin)
by_file = {}
for r in spec['records']:
    by_file.setdefault(r['file'], []).append(r)
xy = lambda r: np.stack([np.array(r['x'], dtype='f8'), np.array(r['y'], dtype='f8')], axis=1)
key = lambda r: 'farm_%d_type_%d_seed_%d' % (r['farm'], r['type'], r['seed'])

# 1. Records at the file's root, beside the file's other contents: a (T, 2) dataset with its AEP as
#    an attribute, or a group holding 'layout' and 'aep'.
with h5py.File(by_file['root.h5'][0]['path'], 'w') as h:
    h.attrs['written_by'] = 'my_pipeline 2.1'
    h.create_group('metadata').attrs['model'] = 'another wake model'
    for i, r in enumerate(by_file['root.h5']):
        if i % 2 == 0:
            h.create_dataset(key(r), data=xy(r)).attrs['aep'] = r['aep']
        else:
            g = h.create_group(key(r))
            g.create_dataset('layout', data=xy(r))
            g.create_dataset('aep', data=r['aep'])

# 2. Records under results/<task>/: an 'xy' dataset and an 'AEP_MWh' scalar.
with h5py.File(by_file['nested.h5'][0]['path'], 'w') as h:
    for r in by_file['nested.h5']:
        g = h.create_group('results/' + key(r))
        g.create_dataset('xy', data=xy(r))
        g.create_dataset('AEP_MWh', data=r['aep'])

# 3. Flat rows with other column names; coordinates as (N, Tmax) x and y, NaN-padded.
rows = by_file['flat.h5']
tmax = max(len(r['x']) for r in rows)
px = np.full((len(rows), tmax), np.nan)
py = np.full((len(rows), tmax), np.nan)
for i, r in enumerate(rows):
    px[i, :len(r['x'])] = r['x']
    py[i, :len(r['y'])] = r['y']
with h5py.File(rows[0]['path'], 'w') as h:
    h.create_dataset('wf', data=np.array([r['farm'] for r in rows], dtype='i8'))
    h.create_dataset('ft', data=np.array([r['type'] for r in rows], dtype='i8'))
    h.create_dataset('rs', data=np.array([r['seed'] for r in rows], dtype='i8'))
    h.create_dataset('AEP_MWh', data=np.array([r['aep'] for r in rows], dtype='f8'))
    h.create_dataset('turbine_x', data=px)
    h.create_dataset('turbine_y', data=py)
`;

/** The mapping options that read all three files in one run (candidates: the first present wins). */
const MAPPING = [
  '--field',
  'group=results',
  '--field',
  'layout=xy,layout',
  '--field',
  'aep=AEP_MWh,aep',
  '--field',
  'farm_id=wf',
  '--field',
  'farm_type=ft',
  '--field',
  'seed=rs',
  '--field',
  'x=turbine_x',
  '--field',
  'y=turbine_y',
];

function foreignRecords(dir: string): ForeignRecord[] {
  const layouts = { 0: reference('bastankhah2014-random16'), 1: reference('bastankhah2014-grid5x5') } as const;
  const other = (model: string, type: 0 | 1) => reference(`${model}-${type === 0 ? 'random16' : 'grid5x5'}`).expected.aep_mwh;
  const record = (file: string, type: 0 | 1, seed: number, model: string, feasible = true): ForeignRecord => {
    const x = [...layouts[type].layout.x];
    if (!feasible) x[3] = 2600; // 500 m outside the site
    return { file, farm: 0, type, seed, x, y: layouts[type].layout.y, aep: other(model, type), campaignAep: layouts[type].expected.aep_mwh, feasible };
  };
  return [
    record('root.h5', 0, 0, 'jensen1983'),
    record('root.h5', 1, 0, 'jensen1983'),
    record('nested.h5', 0, 1, 'turbopark2022'),
    record('nested.h5', 1, 1, 'turbopark2022'),
    record('flat.h5', 0, 2, 'niayifar2016'),
    record('flat.h5', 1, 2, 'niayifar2016', false),
  ].map((r) => ({ ...r, path: path.join(dir, r.file) }));
}

const taskOf = (r: ForeignRecord) => `farm_${r.farm}_type_${r.type}_seed_${r.seed}`;

/** Every row of a layouts file, read by h5py. */
function readWithH5py(file: string): { task: string; source: string; aep: number; aepReported: number | null; x: number[]; y: number[] }[] {
  const py = spawnSync(
    PYTHON,
    [
      '-c',
      String.raw`
import h5py, json, math, sys
f = h5py.File(sys.argv[1], 'r')
rows = []
for i in range(len(f['task_id'])):
    n = int(f['n_turbines'][i])
    rep = float(f['aep_reported'][i]) if 'aep_reported' in f else None
    rows.append({'task': f['task_id'][i].decode(), 'source': f['source'][i].decode(), 'aep': float(f['aep'][i]),
                 'aepReported': None if rep is None or math.isnan(rep) else rep,
                 'x': f['layout'][i, :n, 0].tolist(), 'y': f['layout'][i, :n, 1].tolist()})
print(json.dumps(rows))
`,
      file,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);
  return JSON.parse(py.stdout);
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

test('--aep recompute keeps every feasible foreign layout with both AEPs; --aep verify refuses them with reasons', async (t) => {
  if (!hasH5py()) return t.skip('python3-h5py not installed');
  const dir = tempDir('adopt-foreign');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const records = foreignRecords(dir);
  const py = spawnSync(PYTHON, ['-c', WRITER], { input: JSON.stringify({ records }), encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  const files = ['root.h5', 'nested.h5', 'flat.h5'].map((f) => path.join(dir, f));

  await t.test('--aep recompute', async () => {
    const out = path.join(dir, 'recompute');
    const campaign = writeFiles(dir, out);
    const r = await runWflo(['run', campaign, '--quiet', '--adopt', ...files, ...MAPPING, '--aep', 'recompute'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const infeasible = records.find((x) => !x.feasible)!;
    const refused = r.stderr.split('\n').filter((l) => l.startsWith('wflo: not adopted: '));
    assert.equal(refused.length, 1, r.stderr);
    assert.match(refused[0], new RegExp(`${taskOf(infeasible)} from .*flat\\.h5.*: turbine 3 is 5\\d\\d(\\.\\d+)? m outside the boundary`));
    const rows = readWithH5py(path.join(out, 'layouts.h5'));
    assert.equal(rows.length, 6);
    for (const rec of records.filter((x) => x.feasible)) {
      const row = rows.find((x) => x.task === taskOf(rec))!;
      assert.equal(row.source, `adopted:${path.join(dir, rec.file)}`, row.task);
      assert.deepEqual([row.x, row.y], [rec.x, rec.y], `${row.task}: the layout as the file holds it`);
      assert.equal(row.aepReported, rec.aep, `${row.task}: the file's own AEP kept as /aep_reported`);
      assert.ok(rel(row.aep, rec.campaignAep) < 1e-9, `${row.task}: /aep ${row.aep} is the campaign model's (PyWake ${rec.campaignAep})`);
      assert.ok(rel(row.aep, rec.aep) > 1e-3, `${row.task}: the two AEPs differ (another model)`);
    }
    const computed = rows.find((x) => x.task === taskOf(infeasible))!;
    assert.equal(computed.source, 'computed');
  });

  await t.test('--aep verify (the default)', async () => {
    const out = path.join(dir, 'verify');
    const campaign = writeFiles(dir, out);
    const r = await runWflo(['run', campaign, '--quiet', '--adopt', ...files, ...MAPPING], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const refused = r.stderr.split('\n').filter((l) => l.startsWith('wflo: not adopted: '));
    assert.equal(refused.length, 6, r.stderr);
    for (const rec of records) {
      const line = refused.find((l) => l.includes(`${taskOf(rec)} from `) && l.includes(rec.file));
      assert.ok(line, `${taskOf(rec)}: no refusal line in\n${r.stderr}`);
      if (!rec.feasible) assert.match(line, /outside the boundary/);
      else assert.match(line, new RegExp(`AEP ${rec.aep.toFixed(2)} MWh differs from recomputed ${rec.campaignAep.toFixed(2)} MWh`), line);
    }
    const rows = readWithH5py(path.join(out, 'layouts.h5'));
    assert.equal(rows.length, 6);
    assert.deepEqual(
      rows.map((x) => x.source),
      new Array(6).fill('computed'),
    );
  });
});
