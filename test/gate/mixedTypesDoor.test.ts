/**
 * A campaign with a farm type of several turbine models (fixed counts), one whose models the
 * optimizer chooses (`turbine_choice`), and a farm beside fixed neighbours, end to end through the
 * real `wflo run`: the gate accepts the honest rows, h5py (an independent reader) finds each
 * turbine's model in `/turbine_type` with the names in `/types/<id>`, every pair of every layout
 * keeps the larger of its two spacings, and `wflo plot` marks each stored turbine's model. Then
 * the collect door: a shard ledger edited with SQL so that a row's turbine models are wrong (a
 * fixed-count turbine given another model, a chosen model swapped, a model that does not exist)
 * is rejected one line each; the unedited copy collects whole.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { hasH5py } from '../helpers.js';
import { tempDir, writeCampaign } from '../runner/runnerTestKit.js';
import { computedRows } from '../runner/bullmqKit.js';
import { python, wflo } from './gateKit.js';

const noH5py = hasH5py() ? false : 'python3-h5py is not installed';

function campaign(out: string): Record<string, unknown> {
  return {
    name: 'mixed-door',
    output: out,
    farms: [
      {
        id: 0,
        case: 'iea37-cs1-16',
        neighbours: [
          { x: -1700, y: -600, turbine: 'iea37-3.35mw' },
          { x: -1700, y: 0, turbine: 'iea37-3.35mw' },
          { x: -1700, y: 600, turbine: 'v80' },
        ],
      },
    ],
    farm_types: [
      {
        id: 0,
        turbines: [
          { turbine: 'iea37-3.35mw', n: 4 },
          { turbine: 'v80', n: 3, min_spacing_diameters: 2 },
        ],
      },
      { id: 1, n_turbines: 6, turbine_choice: ['iea37-3.35mw', 'v80'] },
    ],
    seeds: { start: 0, count: 2 },
    optimizer: { method: 'gradient', max_iterations: 10 },
    workers: 2,
    timeout_s: 120,
    attempts: 1,
  };
}

const H5_TYPES = `
import h5py, json, sys, numpy as np
with h5py.File(sys.argv[1], 'r') as f:
    t = f['turbine_type']
    out = {'dtype': str(t.dtype), 'shape': list(t.shape), 'dims': [list(t.dims[k].keys())[0] for k in range(2)],
           'format_version': int(f.attrs['format_version']), 'description': str(t.attrs.get('description', '')),
           'rows': []}
    names = {k: [str(s) for s in f['types'][k].attrs['turbine_names']] if 'turbine_names' in f['types'][k].attrs else [] for k in f['types']}
    spacing = {k: json.loads(f['types'][k].attrs['json']).get('models', {}).get('min_spacing_m') for k in f['types']}
    for i, tid in enumerate(f['task_id'].asstr()[:]):
        n = int(f['n_turbines'][i])
        out['rows'].append({'task_id': tid, 'farm_type': int(f['farm_type'][i]), 'types': t[i, :].tolist(), 'n': n,
                            'layout': f['layout'][i, :n, :].tolist()})
    out['names'] = names
    out['spacing'] = spacing
print(json.dumps(out))
`;

test('mixed farm types and neighbours through wflo run: honest rows pass, /turbine_type read by h5py, every pair spaced; forged models rejected at collect', {
  skip: noH5py,
  timeout: 240_000,
}, async () => {
  const dir = tempDir('gate-mixed');
  const out = path.join(dir, 'out');
  const file = writeCampaign(path.join(dir, 'c.yaml'), campaign(out));
  const r = await wflo(['run', file, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const rows = computedRows(out);
  assert.equal(rows.length, 4);

  const h5 = JSON.parse(python(H5_TYPES, [path.join(out, 'layouts.h5')])) as {
    dtype: string;
    shape: number[];
    format_version: number;
    description: string;
    dims: string[];
    rows: { task_id: string; farm_type: number; types: number[]; n: number; layout: number[][] }[];
    names: Record<string, string[]>;
    spacing: Record<string, number[]>;
  };
  assert.equal(h5.format_version, 5);
  assert.equal(h5.dtype, 'int32');
  assert.deepEqual(h5.shape, [4, 7]);
  assert.deepEqual(h5.dims, ['task', 'turbine']);
  assert.match(h5.description, /model/);
  assert.deepEqual(h5.names['0'], ['iea37-3.35mw', 'v80']);
  assert.deepEqual(h5.names['1'], ['iea37-3.35mw', 'v80']);
  for (const row of h5.rows) {
    if (row.farm_type === 0) assert.deepEqual(row.types, [0, 0, 0, 0, 1, 1, 1], row.task_id);
    else {
      assert.equal(row.n, 6);
      assert.equal(row.types[6], -1, `${row.task_id}: padding past n_turbines`);
      assert.ok(
        row.types.slice(0, 6).every((t) => t === 0 || t === 1),
        `${row.task_id}: ${row.types}`,
      );
    }
    // Every pair at least the larger of its two models' spacings (2 D: 260 m and 160 m).
    const s = h5.spacing[String(row.farm_type)];
    assert.deepEqual(s, [260, 160]);
    for (let i = 0; i < row.n; i++) {
      for (let j = i + 1; j < row.n; j++) {
        const d = Math.hypot(row.layout[i][0] - row.layout[j][0], row.layout[i][1] - row.layout[j][1]);
        assert.ok(d >= Math.max(s[row.types[i]], s[row.types[j]]) - 1e-6, `${row.task_id}: turbines ${i} and ${j} ${d} m apart`);
      }
    }
  }

  // The plots of the stored rows mark each turbine with the model /turbine_type holds, from the
  // ledger and from layouts.h5 alike, and draw the farm's three neighbours.
  for (const row of h5.rows) {
    for (const source of [out, path.join(out, 'layouts.h5')]) {
      const svgFile = path.join(dir, `${row.task_id}-${path.basename(source)}.svg`);
      const p = await wflo(['plot', source, '--task', row.task_id, '-o', svgFile]);
      assert.equal(p.code, 0, p.stderr);
      const svg = fs.readFileSync(svgFile, 'utf8');
      const models = [...svg.matchAll(/class="turbine"[^>]*data-model="(\d+)"/g)].map((m) => Number(m[1]));
      assert.deepEqual(models, row.types.slice(0, row.n), `${row.task_id} from ${source}`);
      assert.equal([...svg.matchAll(/<g class="neighbour" /g)].length, 3);
    }
  }

  // The collect door: a copy of the run's folder as a shard ledger, edited with SQL.
  const forged = path.join(dir, 'forged');
  fs.mkdirSync(forged);
  fs.copyFileSync(path.join(out, 'ledger.sqlite'), path.join(forged, 'ledger.sqlite'));
  const honestCopy = path.join(dir, 'honest');
  fs.mkdirSync(honestCopy);
  fs.copyFileSync(path.join(out, 'ledger.sqlite'), path.join(honestCopy, 'ledger.sqlite'));
  const db = new Database(path.join(forged, 'ledger.sqlite'));
  const edit = (taskId: string, types: string) =>
    assert.equal(db.prepare('UPDATE results SET turbine_types = ? WHERE task_id = ?').run(types, taskId).changes, 1);
  edit('farm_0_type_0_seed_0', '[0,0,0,1,1,1,0]');
  const chosen = JSON.parse(db.prepare("SELECT turbine_types FROM results WHERE task_id = 'farm_0_type_1_seed_0'").pluck().get() as string) as number[];
  edit('farm_0_type_1_seed_0', JSON.stringify(chosen.map((t, i) => (i === 0 ? 1 - t : t))));
  edit('farm_0_type_1_seed_1', '[0,0,0,0,0,2]');
  db.close();

  const collectFile = writeCampaign(path.join(dir, 'collect.yaml'), campaign(path.join(dir, 'final')));
  const c = await wflo(['collect', collectFile, '--from', forged]);
  assert.equal(c.code, 3, `${c.stdout}\n${c.stderr}`);
  const lines = c.stderr.split('\n').filter((l) => l.startsWith('wflo: collect: rejected '));
  assert.equal(lines.length, 3, c.stderr);
  assert.match(lines.find((l) => l.includes('farm_0_type_0_seed_0 '))!, /turbine 3 is model 1, farm type 0 fixes it to model 0 \(iea37-3\.35mw\)/);
  // A swapped model moves the AEP (or, a v80 becoming large, the spacing): either way refused.
  assert.match(lines.find((l) => l.includes('farm_0_type_1_seed_0 '))!, /differs from recomputed|closer than|apart/);
  assert.match(lines.find((l) => l.includes('farm_0_type_1_seed_1 '))!, /turbine 5 has model 2, not one of the 2 of farm type 1/);
  assert.deepEqual(
    computedRows(path.join(dir, 'final')).map((row) => row.task_id),
    ['farm_0_type_0_seed_1'],
  );

  // The unedited ledger collects whole into a fresh folder, rows equal to the run's.
  const again = writeCampaign(path.join(dir, 'collect2.yaml'), campaign(path.join(dir, 'final2')));
  const h = await wflo(['collect', again, '--from', honestCopy]);
  assert.equal(h.code, 0, `${h.stdout}\n${h.stderr}`);
  assert.deepEqual(computedRows(path.join(dir, 'final2')), rows);
});
