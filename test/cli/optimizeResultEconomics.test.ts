/**
 * `wflo optimize --out FILE` under a cost objective writes, beside the layout, the objective and
 * the layout's economics (LCOE, NPV, IRR, cable length and cost, cost items) and its collection
 * network (`wflo.economics.cable_to`, `cable_type`) in the file's own turbine order (a farm that
 * chose its models is written grouped by model). Read back by Debian's python3-yaml: the network is
 * a tree from the case's substation, within the cable's capacity, and its length recomputed from
 * the written layout equals the written cable_length_m (1e-9 relative); the figures are the ones
 * `--json` prints.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PYTHON, REPO, runWflo, tempDir } from '../helpers.js';

const hasYaml = spawnSync(PYTHON, ['-c', 'import yaml'], { encoding: 'utf8' }).status === 0;

test('optimize --out with economics: the objective, the figures and the cable network in the result file', { skip: hasYaml ? false : 'python3-yaml is not installed', timeout: 300_000 }, () => {
  const dir = tempDir('optimize-economics-');
  const out = path.join(dir, 'best.yaml');
  const caseFile = path.join(REPO, 'examples', 'mixed-choice-cost.yaml');
  const r = runWflo(['optimize', caseFile, '--method', 'gradient', '--objective', 'lcoe', '--max-iterations', '8', '--out', out, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const printed = JSON.parse(r.stdout) as { economics: { lcoe: number; npv: number; cable_length_m: number; cable_cost: number }; turbine_types: number[] };
  const py = spawnSync(PYTHON, ['-c', `
import yaml, json, math, sys
doc = yaml.safe_load(open(sys.argv[1]))
case = yaml.safe_load(open(sys.argv[2]))
w = doc['wflo']
e = w['economics']
x, y = doc['layout']['x'], doc['layout']['y']
n = len(x)
subs = case['economics']['substations']
caps = {c['name']: c['capacity'] for c in case['economics']['cables']}
to, types = e['cable_to'], e['cable_type']
assert len(to) == n and len(types) == n
load = [1] * n
for i in range(n):
    j, steps = to[i], 0
    while j >= 0:
        assert j < n and j != i
        load[j] += 1
        j = to[j]; steps += 1
        assert steps <= n, 'cycle'
    assert -1 - j < len(subs)
assert all(load[i] <= caps[types[i]] for i in range(n)), (load, types)
total = sum(math.hypot(x[i] - (x[to[i]] if to[i] >= 0 else subs[-1 - to[i]][0]), y[i] - (y[to[i]] if to[i] >= 0 else subs[-1 - to[i]][1])) for i in range(n))
print(json.dumps({'objective': w['objective'], 'value': e['value'], 'lcoe': e['lcoe_per_mwh'], 'npv': e['npv'], 'length': e['cable_length_m'],
                  'cost': e['cable_cost'], 'recomputed': total, 'feeders': sum(1 for t in to if t < 0), 'items': sorted(e['cost_breakdown']),
                  'models': [t['n'] for t in doc['turbines']]}))
`, out, caseFile], { encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  const f = JSON.parse(py.stdout) as { objective: string; value: number; lcoe: number; npv: number; length: number; cost: number; recomputed: number; feeders: number; items: string[]; models: number[] };
  assert.equal(f.objective, 'lcoe');
  assert.equal(f.value, f.lcoe);
  assert.equal(f.lcoe, printed.economics.lcoe);
  assert.equal(f.npv, printed.economics.npv);
  assert.equal(f.length, printed.economics.cable_length_m);
  assert.equal(f.cost, printed.economics.cable_cost);
  assert.ok(Math.abs(f.recomputed - f.length) <= 1e-9 * f.length, `${f.recomputed} vs ${f.length}`);
  // 16 turbines, capacity 5: at least 4 feeders.
  assert.ok(f.feeders >= 4, String(f.feeders));
  assert.ok(f.items.includes('capex_eur'), f.items.join(','));
  // The file stands alone: its AEP reproduces, and it is read as a case again.
  assert.doesNotMatch(r.stderr, /note:/);
  assert.equal(runWflo(['aep', out]).status, 0);
  fs.rmSync(dir, { recursive: true, force: true });
});
