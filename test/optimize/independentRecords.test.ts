/**
 * The record layouts checked by a separate implementation: test/optimize/iea37Independent.py (numpy,
 * no wflo code) computes the IEA37 case-study AEP from the case studies' own description (Gaussian
 * wake of Bastankhah with k* = 0.0324555, Ct = 8/9, losses as the root of the sum of squares, the
 * cubic power curve) on the published roses of test/data/iea37/facts.yaml. The checker is itself
 * checked first: it must give the published AEPs of the five IEA37 baseline layouts (cs1 16 / 36 /
 * 64 turbines on the 16-direction rose, cs3 and cs4 on the 20 × 20 rose) to 1e-9, and every
 * direction's AEP to 1e-4 MWh (the published figures have 5 decimals). Then every layout file of
 * examples/results (and examples/results/cs3-cs4): its recorded AEP equals the checker's to 1e-9
 * relative on the measure the file records (cs3/cs4 on the 360 × 20 rose, or on the 20 × 20 rose
 * when the file carries it; a robust record, `wflo.directions: {spread: n}`, on its rose with every
 * bin spread over n sub-directions: robustRecords.test.ts checks those against their targets),
 * every turbine is inside the site within 1e-6 m and
 * every pair at least 2D apart (1e-6 m), and a record (`*-best.yaml`) beats the best known feasible
 * AEP of its case (examples/records/best-known.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PYTHON, REPO } from '../helpers.js';

interface Baseline {
  name: string;
  aep: number;
  published: number;
  by_direction: number[];
  published_by_direction: number[];
}
interface FileCheck {
  file: string;
  case: string;
  n: number;
  aep: number;
  recorded: number;
  min_spacing_m: number;
  required_spacing_m: number;
  max_outside_m: number;
  best_known: number | null;
}

const SCRIPT = path.join(REPO, 'test', 'optimize', 'iea37Independent.py');
const usable = spawnSync(PYTHON, ['-c', 'import numpy, yaml'], { encoding: 'utf8' }).status === 0;

test('records are checked by an independent implementation of the IEA37 AEP (numpy)', { skip: usable ? false : `${PYTHON} lacks numpy or PyYAML` }, () => {
  const r = spawnSync(PYTHON, [SCRIPT, REPO], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { baselines: Baseline[]; files: FileCheck[] };

  // The checker against the published baseline AEPs.
  assert.deepEqual(
    out.baselines.map((b) => b.name),
    ['ex16', 'ex36', 'ex64', 'ex-opt3', 'ex-opt4'],
  );
  for (const b of out.baselines) {
    assert.ok(Math.abs(b.aep - b.published) / b.published < 1e-9, `${b.name}: checker ${b.aep} vs published ${b.published}`);
    assert.equal(b.by_direction.length, b.published_by_direction.length);
    b.by_direction.forEach((v, d) =>
      assert.ok(Math.abs(v - b.published_by_direction[d]!) < 1e-4, `${b.name} direction ${d}: ${v} vs ${b.published_by_direction[d]}`),
    );
  }

  // Every layout file was checked.
  const dir = path.join(REPO, 'examples', 'results');
  const listed = [
    ...fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')),
    ...(fs.existsSync(path.join(dir, 'cs3-cs4'))
      ? fs
          .readdirSync(path.join(dir, 'cs3-cs4'))
          .filter((f) => f.endsWith('.yaml'))
          .map((f) => `cs3-cs4/${f}`)
      : []),
  ].sort();
  assert.deepEqual(out.files.map((f) => f.file).sort(), listed);
  for (const name of ['iea37-cs1-16-best.yaml', 'iea37-cs1-36-best.yaml', 'iea37-cs1-64-best.yaml']) assert.ok(listed.includes(name), `no ${name}`);

  for (const f of out.files) {
    assert.ok(Math.abs(f.aep - f.recorded) / f.recorded < 1e-9, `${f.file}: independent AEP ${f.aep} MWh, recorded ${f.recorded}`);
    assert.ok(f.max_outside_m <= 1e-6, `${f.file}: a turbine ${f.max_outside_m} m outside the site`);
    assert.ok(f.min_spacing_m >= f.required_spacing_m - 1e-6, `${f.file}: two turbines ${f.min_spacing_m} m apart (< ${f.required_spacing_m})`);
    if (!f.file.includes('/') && f.file.endsWith('-best.yaml')) {
      assert.equal(typeof f.best_known, 'number', `${f.file}: no best known figure for ${f.case}`);
      assert.ok(f.aep > f.best_known!, `${f.file}: ${f.aep} MWh does not beat the best known feasible ${f.best_known}`);
    }
  }
});
