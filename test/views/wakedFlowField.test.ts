/**
 * The flow field of the models only the waked engine has (Niayifar, TurbOPark, Carbajo Fuertes,
 * the ground mirror, a tabulated-Ct turbine): `wflo plot --flow` draws them (it used to end with
 * "unexpected error: unknown wake model 'niayifar2016'"), and the speed at a point equals the
 * effective speed the engine gives a turbine placed there with a point rotor.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { builtinTurbine } from '../../src/io/builtinCases.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import { wakedFlow } from '../../src/physics/wakedAep.js';
import { wakedSpeedsAt } from '../../src/physics/wakedField.js';

const dir = tempDir('wflo-waked-flow-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test("the field at a point equals the engine's effective speed of a turbine put there (rotor centre)", () => {
  const turbine = builtinTurbine('v80');
  // Three turbines in a staggered line (the second in the first's wake, so its speed, Ct and TI are
  // its own), points behind them, wind from 250°.
  const x = Float64Array.from([0, 420, 860]),
    y = Float64Array.from([0, 150, -40]);
  const points: [number, number][] = [
    [1300, 60],
    [1250, -200],
    [1700, 300],
    [2400, 100],
    [900, 40],
  ];
  const specs: FarmModelSpec[] = [
    { wake: 'niayifar2016', superposition: 'linear' },
    { wake: 'turbopark2022', superposition: 'sos' },
    { wake: 'carbajofuertes2018', superposition: 'linear', ground: 'mirror' },
    { wake: 'bastankhah2014', superposition: 'max', ground: 'mirror' },
    { wake: 'zong2020', superposition: 'linear' },
  ];
  for (const spec of specs) {
    const field = wakedSpeedsAt(
      turbine,
      spec,
      x,
      y,
      250,
      9,
      0.08,
      Float64Array.from(points, (p) => p[0]),
      Float64Array.from(points, (p) => p[1]),
    );
    points.forEach(([px, py], k) => {
      const flow = wakedFlow(turbine, spec, Float64Array.of(...x, px), Float64Array.of(...y, py), 250, 9, 0.08);
      const engine = flow.wsEff[3];
      assert.ok(Math.abs(field[k] - engine) <= 1e-12 * engine, `${JSON.stringify(spec)} at (${px}, ${py}): field ${field[k]}, engine ${engine}`);
    });
    assert.ok(Math.min(...field) < 9 - 0.5, `${spec.wake}: some point is in a wake`);
  }
});

test('wflo plot --flow draws a Niayifar case and a mirrored TurbOPark case; the weighted sum is one line, exit 2', () => {
  for (const [name, body] of [
    ['niayifar', 'wake_model: niayifar2016\nsuperposition: linear\n'],
    ['turbopark', 'wake_model: turbopark2022\nground: mirror\n'],
  ]) {
    fs.writeFileSync(path.join(dir, `${name}.yaml`), `base: iea37-cs1-16\n${body}`);
    const out = path.join(dir, `${name}.svg`);
    const r = runWflo(['plot', `${name}.yaml`, '--flow', '270', '-o', out], { cwd: dir });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(fs.readFileSync(out, 'utf8'), /Hub-height speed/);
  }
  fs.writeFileSync(path.join(dir, 'weighted.yaml'), 'base: iea37-cs1-16\nwake_model: zong2020\nsuperposition: weighted\n');
  const r = runWflo(['plot', 'weighted.yaml', '--flow', '270', '-o', path.join(dir, 'weighted.svg')], { cwd: dir });
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /--flow: the flow field of the weighted-sum superposition is not drawn/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});
