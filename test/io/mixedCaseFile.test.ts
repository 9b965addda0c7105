/**
 * Case files with several turbine models and fixed neighbours (io/caseFile.ts through
 * io/farmTurbines.ts): a case file written from a PyWake reference case (test/data/reference/,
 * SOURCE.md there) gives PyWake's own AEP through `wflo aep` to 1e-9; examples/mixed-farm.yaml
 * reads as written; the file `wflo optimize --out` writes for a farm whose models were chosen
 * (reordered by model) reads back with every turbine's model and the same AEP; bad input is one
 * line naming the file, line and field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { PYWAKE_REFERENCE, REPO, runWflo, tempDir } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { caseFromDocument, loadCase } from '../../src/io/caseFile.js';
import { layoutResultYaml, nativeTurbine, nativeWind } from '../../src/io/layoutResultYaml.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import type { Turbine } from '../../src/physics/turbine.js';

const dir = tempDir('wflo-mixed-case-');

/**
 * A reference turbine as a native turbine mapping. The reference tables give the table value at
 * exactly 25 m/s (the last speed of the rose); a native turbine stops at its cut-out speed, so the
 * cut-out is written a hair above it (no speed of the rose lies between). Below the table both give
 * Ct 0 (the first table value).
 */
function nativeOf(t: Turbine): Record<string, unknown> {
  const n = nativeTurbine(t) as { performance: Record<string, unknown> };
  return { ...n, performance: { ...n.performance, cutout_wind_speed: t.cutOut + 1e-6 } };
}
const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

for (const name of ['mixed-bastankhah2014', 'neighbours-bastankhah2014']) {
  test(`a case file written from the PyWake reference ${name} gives PyWake's own AEP through wflo aep (1e-9)`, () => {
    const refFile = path.join(PYWAKE_REFERENCE, `${name}.yaml`);
    const ref = caseFromReferenceDocument(readYamlFile(refFile), refFile);
    const types = ref.turbines ? ref.turbines.types : [ref.turbine];
    const typeOf = ref.turbines ? ref.turbines.typeOf : new Int32Array(ref.layout!.x.length);
    // The case-file form lists each model with its count: the layout in the order of the models.
    const order = Array.from(typeOf.keys()).sort((a, b) => typeOf[a] - typeOf[b] || a - b);
    const counts = types.map((_, k) => typeOf.filter((t) => t === k).length);
    const doc: Record<string, unknown> = {
      name,
      ...(ref.turbines
        ? { turbines: types.map((t, k) => ({ turbine: nativeOf(t), n: counts[k] })).filter((e) => e.n > 0) }
        : { turbine: nativeOf(ref.turbine) }),
      wind: nativeWind(ref.wind),
      wake_model: 'bastankhah2014',
      superposition: 'linear',
      wake_params: { k: 0.0324555 },
      layout: { x: order.map((i) => ref.layout!.x[i]), y: order.map((i) => ref.layout!.y[i]) },
    };
    if (ref.neighbours) {
      const nb = ref.neighbours;
      doc.neighbours = Array.from(nb.x, (x, j) => ({ x, y: nb.y[j], turbine: nativeOf(nb.types[nb.typeOf[j]]) }));
    }
    const file = path.join(dir, `${name}.yaml`);
    fs.writeFileSync(file, stringify(doc));
    const r = runWflo(['aep', file, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { aep_mwh: number; per_turbine_mwh: number[] };
    assert.ok(rel(out.aep_mwh, ref.expected!.aepMwh) <= 1e-9, `${name}: case file ${out.aep_mwh} vs PyWake ${ref.expected!.aepMwh}`);
    order.forEach((i, k) => assert.ok(rel(out.per_turbine_mwh[k], ref.expected!.perTurbineMwh[i]) <= 1e-9, `${name}: turbine ${i}`));
  });
}

test('examples/mixed-farm.yaml: models with counts and own spacings, neighbours outside the site', () => {
  const c = loadCase(path.join(REPO, 'examples', 'mixed-farm.yaml'));
  assert.deepEqual(
    c.turbines!.types.map((t) => t.name),
    ['iea37-3.35mw', 'v80'],
  );
  assert.deepEqual(Array.from(c.turbines!.typeOf), [...Array(10).fill(0), ...Array(6).fill(1)]);
  assert.deepEqual(Array.from(c.turbines!.minSpacingByType), [260, 240]);
  assert.equal(c.turbines!.choice, false);
  assert.equal(c.nTurbines, 16);
  assert.equal(c.minSpacing, 260);
  assert.deepEqual(Array.from(c.neighbours!.x), [-2200, -2200, -2200]);
  assert.deepEqual(
    c.neighbours!.types.map((t) => t.name),
    ['iea37-3.35mw', 'v80'],
  );
  assert.deepEqual(Array.from(c.neighbours!.typeOf), [0, 0, 1]);
});

test('the file wflo optimize --out writes for chosen models: reordered by model, same AEP, every model kept', () => {
  const c = loadCase(path.join(REPO, 'examples', 'mixed-farm.yaml'));
  const chosen = Int32Array.from([1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0]);
  const { x, y } = c.layout!;
  const r = caseEvaluator(c, c.model, chosen).aep(x, y);
  const text = layoutResultYaml({
    case: { ...c, turbines: { ...c.turbines!, choice: true } },
    caseSpec: 'examples/mixed-farm.yaml',
    seed: 0,
    method: 'gradient',
    settings: {},
    x,
    y,
    aepMwh: r.aepMwh,
    perDirectionMwh: r.perDirectionMwh,
    aepInitialMwh: NaN,
    iterations: 0,
    evaluations: 1,
    wallS: 0,
    feasible: true,
    maxViolationM: 0,
    typeOf: chosen,
  });
  const file = path.join(dir, 'chosen.yaml');
  fs.writeFileSync(file, text);
  const back = caseFromDocument(readYamlFile(file), file);
  assert.deepEqual(
    back.turbines!.types.map((t) => t.name),
    ['iea37-3.35mw', 'v80'],
  );
  assert.deepEqual(Array.from(back.turbines!.typeOf), [...Array(12).fill(0), ...Array(4).fill(1)]);
  assert.equal(back.neighbours!.x.length, 3);
  // Turbine i of model m is where the writer put it: the first model's turbines first, in their order.
  const order = [1, 2, 4, 5, 6, 8, 9, 10, 11, 13, 14, 15, 0, 3, 7, 12];
  assert.deepEqual(
    Array.from(back.layout!.x),
    order.map((i) => x[i]),
  );
  const again = caseEvaluator(back).aep(back.layout!.x, back.layout!.y).aepMwh;
  assert.ok(rel(again, r.aepMwh) <= 1e-12, `${again} vs ${r.aepMwh}`);
  assert.ok(rel(again, caseEvaluator(c).aep(x, y).aepMwh) > 1e-4, 'the models matter: the counts assignment gives another AEP');
});

function expectBadCase(name: string, text: string, pattern: RegExp): void {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const r = runWflo(['aep', file]);
  assert.equal(r.status, 2, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], pattern);
}

test('bad case files with models or neighbours: one line, file:line: field', () => {
  const head = 'base: iea37-cs1-16\n';
  expectBadCase(
    'both.yaml',
    `${head}turbine: v80\nturbines: [{turbine: v80, n: 16}]\n`,
    /both\.yaml:\d+: turbines: give one of turbine, turbines and turbine_choice/,
  );
  expectBadCase('typo.yaml', `${head}turbines:\n  - {turbine: v80, count: 16}\n`, /typo\.yaml:\d+: turbines\[0\]\.count: unknown field 'count'/);
  expectBadCase(
    'inside.yaml',
    `${head}turbines: [{turbine: v80, n: 16}]\nneighbours:\n  - {x: 100, y: 0, turbine: v80}\n`,
    /inside\.yaml:\d+: neighbours\[0\]: neighbour 0 at \(100, 0\) m is inside the site/,
  );
  expectBadCase('one.yaml', `${head}turbine_choice: [v80]\nn_turbines: 16\n`, /one\.yaml:\d+: turbine_choice: must list at least two turbine models/);
  expectBadCase(
    'count.yaml',
    `${head}turbines: [{turbine: v80, n: 3}]\nlayout: {x: [0, 500], y: [0, 0]}\n`,
    /count\.yaml:\d+: layout: 2 turbines in the layout, 3 in turbines/,
  );
});
