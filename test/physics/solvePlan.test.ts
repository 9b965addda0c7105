/**
 * physics/solvePlan.ts, the one place that chooses how a farm is evaluated: for a matrix of farm
 * shapes and models, the solver, the kernel and why; the evaluator carries the plan it was built
 * from, and the native runner of every native plan equals the JavaScript kernel; a combination no solver covers
 * is refused in one line with exit 2 by `wflo aep` and by `wflo validate` (before the plan, the
 * waked setup threw a plain Error: exit 1, and `validate` passed the file); `wflo aep --explain`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { solvePlan, farmConflict } from '../../src/physics/solvePlan.js';
import type { FarmShape, SolveNeeds } from '../../src/physics/solvePlanTypes.js';
import { FarmConflictError } from '../../src/physics/farmConflictError.js';
import { SUPERPOSITION_NAMES, WAKE_MODEL_NAMES, type FarmModelSpec } from '../../src/physics/farmModel.js';
import { builtinTurbine, builtinWind } from '../../src/io/builtinCases.js';
import { windFromSeries } from '../../src/physics/windSeries.js';
import { createFarmEvaluator, createNativeRunner } from '../../src/physics/aep.js';
import type { WindResource } from '../../src/physics/windResource.js';
import { REPO, runWflo, tempDir } from '../helpers.js';

const constant = builtinTurbine('iea37-3.35mw'),
  table = builtinTurbine('v80');
const rose = builtinWind('iea37-cs1');
const series = windFromSeries({ directionsDeg: [270, 280, 90], speeds: [8, 9, 10], weights: [1, 2, 1] });
const one = (turbine = constant, wind: FarmShape['wind'] = rose): FarmShape => ({ types: [turbine], neighbours: false, wind });

test('the plan of a matrix of farms: solver, kernel and why', () => {
  const rows: [string, FarmShape, FarmModelSpec, SolveNeeds, string, string, RegExp, RegExp][] = [
    ['IEA37 case study', one(), { wake: 'iea37', superposition: 'sos' }, {}, 'free-stream', 'native', /free-stream form/, /covers every option/],
    [
      'jensen free stream',
      one(),
      { wake: 'jensen', superposition: 'sos' },
      {},
      'free-stream',
      'js',
      /free-stream form/,
      /Gaussian, and jensen's free-stream form is not/,
    ],
    ['Ct table', one(table), { wake: 'bastankhah2014', superposition: 'linear' }, {}, 'waked', 'native', /tabulated Ct/, /covers every option/],
    [
      'no free-stream form',
      one(),
      { wake: 'niayifar2016', superposition: 'linear' },
      { gradient: true },
      'waked',
      'native',
      /niayifar2016 has no free-stream form/,
      /covers/,
    ],
    ['time series', one(constant, series), { wake: 'iea37', superposition: 'sos' }, {}, 'waked', 'native', /time series/, /covers every option/],
    ['ground', one(table), { wake: 'bastankhah2014', superposition: 'linear', ground: 'mirror' }, {}, 'waked', 'native', /tabulated Ct/, /covers every option/],
    [
      'rotor average',
      one(table),
      { wake: 'bastankhah2014', superposition: 'linear', rotorAverage: 'cgi4' },
      {},
      'waked',
      'native',
      /tabulated Ct/,
      /covers every option/,
    ],
    [
      'added-turbulence ct2a',
      one(table),
      { wake: 'niayifar2016', superposition: 'linear', turbulenceCt2a: 'madsen' },
      {},
      'waked',
      'native',
      /niayifar2016 has no free-stream form/,
      /covers every option/,
    ],
    [
      'ground, rotor average, ct2a, time series',
      one(table, series),
      { wake: 'niayifar2016', superposition: 'linear', ground: 'mirror', rotorAverage: 'cgi4', turbulenceCt2a: 'madsen' },
      {},
      'waked',
      'native',
      /time series/,
      /covers every option/,
    ],
    [
      'hub-height gradient with the ground',
      one(table),
      { wake: 'bastankhah2014', superposition: 'linear', ground: 'mirror' },
      { hubHeightGradient: true },
      'waked',
      'js',
      /tabulated Ct/,
      /ground mirror/,
    ],
    [
      'two models',
      { types: [constant, table], neighbours: false, wind: rose },
      { wake: 'bastankhah2014', superposition: 'linear' },
      {},
      'waked',
      'js',
      /several turbine models/,
      /one turbine model without neighbours/,
    ],
    [
      'neighbours',
      { types: [constant], neighbours: true, wind: rose },
      { wake: 'iea37', superposition: 'sos' },
      {},
      'waked',
      'js',
      /neighbouring turbines/,
      /has neighbours/,
    ],
    [
      'blockage',
      one(),
      { wake: 'bastankhah2014', superposition: 'linear', blockage: 'selfsimilarity2020' },
      {},
      'blockage',
      'js',
      /selfsimilarity2020/,
      /JavaScript only/,
    ],
    [
      'blockage, two models and neighbours',
      { types: [constant, table], neighbours: true, wind: rose },
      { wake: 'bastankhah2014', superposition: 'linear', blockage: 'selfsimilarity2020' },
      {},
      'blockage',
      'js',
      /selfsimilarity2020/,
      /JavaScript only/,
    ],
    [
      'blockage with the weighted sum',
      one(table),
      { wake: 'niayifar2016', superposition: 'weighted', blockage: 'selfsimilarity2020' },
      {},
      'blockage',
      'js',
      /selfsimilarity2020/,
      /JavaScript only/,
    ],
    ['weighted sum', one(table), { wake: 'niayifar2016', superposition: 'weighted' }, {}, 'weighted-sum', 'js', /'weighted'/, /JavaScript only/],
    [
      'hub-height gradient',
      one(table),
      { wake: 'bastankhah2014', superposition: 'linear' },
      { hubHeightGradient: true },
      'waked',
      'native',
      /tabulated Ct/,
      /covers every option/,
    ],
    [
      'hub-height gradient, free stream',
      one(),
      { wake: 'iea37', superposition: 'sos' },
      { hubHeightGradient: true },
      'free-stream',
      'js',
      /free-stream form/,
      /∂AEP\/∂h/,
    ],
    [
      'per-turbine weights',
      one(table),
      { wake: 'bastankhah2014', superposition: 'linear' },
      { perTurbineWeights: true },
      'waked',
      'native',
      /tabulated Ct/,
      /covers every option/,
    ],
    [
      'per-turbine weights, two models',
      { types: [constant, table], neighbours: false, wind: rose },
      { wake: 'bastankhah2014', superposition: 'linear' },
      { perTurbineWeights: true },
      'waked',
      'js',
      /several turbine models/,
      /one turbine model without neighbours/,
    ],
    [
      'kernel asked for',
      one(),
      { wake: 'iea37', superposition: 'sos' },
      { kernel: 'js' },
      'free-stream',
      'js',
      /free-stream form/,
      /caller asks for the JavaScript kernel/,
    ],
  ];
  for (const [what, farm, model, needs, solver, kernel, whySolver, whyKernel] of rows) {
    const plan = solvePlan(farm, model, needs);
    assert.equal(plan.solver, solver, `${what}: solver (${plan.why.solver})`);
    assert.equal(plan.kernel, kernel, `${what}: kernel (${plan.why.kernel})`);
    assert.match(plan.why.solver, whySolver, what);
    assert.match(plan.why.kernel, whyKernel, what);
  }
});

test('a combination no solver covers is a FarmConflictError naming the field, the same as farmConflict', () => {
  const cases: [FarmShape, FarmModelSpec, string, RegExp][] = [
    [
      one(table),
      { wake: 'bastankhah2014', superposition: 'linear', rotorAverage: 'area-overlap' },
      'rotorAverage',
      /area-overlap rotor average needs a top-hat wake model \(jensen\), not bastankhah2014/,
    ],
    // The weighted sum takes a time series since issue 41, but not a rotor average.
    [
      one(table, series),
      { wake: 'niayifar2016', superposition: 'weighted', rotorAverage: 'cgi4' },
      'superposition',
      /rotor centre only, not with the 'cgi4' rotor average/,
    ],
    [one(table), { wake: 'jensen', superposition: 'weighted', blockage: 'selfsimilarity2020' }, 'superposition', /needs a Gaussian wake model, not jensen/],
    [
      { types: [table], neighbours: true, wind: rose },
      { wake: 'bastankhah2014', superposition: 'weighted', blockage: 'selfsimilarity2020' },
      'superposition',
      /one turbine model without neighbours/,
    ],
    [one(table), { wake: 'jensen', superposition: 'weighted' }, 'superposition', /needs a Gaussian wake model, not jensen/],
  ];
  for (const [farm, model, field, message] of cases) {
    const conflict = farmConflict(model, farm);
    assert.equal(conflict?.field, field);
    assert.match(conflict!.message, message);
    assert.throws(
      () => solvePlan(farm, model),
      (e: unknown) => e instanceof FarmConflictError && e.exitCode === 2 && e.conflict.field === field && !e.message.includes('\n'),
    );
  }
  // Jensen's top hat averages over the rotor's area: covered.
  assert.equal(farmConflict({ wake: 'jensen', superposition: 'linear', rotorAverage: 'area-overlap' }, one(table)), null);
});

test('every plan naming the native kernel is run by the native runner, equal to the JavaScript kernel, on every wake × superposition × turbine × wind', () => {
  const tiBins: WindResource = { ...rose, turbulenceIntensityByBin: Float64Array.from(rose.probability, (_, i) => 0.06 + 0.001 * i) };
  // Five turbines 3–6 D apart, so that every pair is waked in some direction.
  const x = Float64Array.of(0, 400, 900, 300, 800),
    y = Float64Array.of(0, 100, -50, 700, 650);
  let native = 0,
    js = 0;
  for (const wake of WAKE_MODEL_NAMES) {
    for (const superposition of SUPERPOSITION_NAMES) {
      for (const extra of [{}, { ground: 'mirror' as const }, { rotorAverage: 'cgi4' }, { turbulenceCt2a: 'madsen' as const }, { inflow: 'waked' as const }]) {
        for (const turbine of [constant, table]) {
          for (const wind of [rose, series, tiBins]) {
            const model: FarmModelSpec = { wake, superposition, ...extra };
            if (farmConflict(model, one(turbine, wind))) continue;
            const what = `${JSON.stringify(model)} ${turbine.name} ${wind.series ? 'series' : wind.turbulenceIntensityByBin ? 'ti bins' : 'rose'}`;
            const plan = solvePlan(one(turbine, wind), model, { kernel: 'native' });
            const evaluator = createFarmEvaluator(turbine, wind as WindResource, model, 'native');
            assert.deepEqual(evaluator.plan, plan, `${what}: the evaluator carries its plan`);
            if (plan.kernel !== 'native') {
              js++;
              assert.throws(() => createNativeRunner(turbine, wind as WindResource, plan), /no native runner/, what);
              continue;
            }
            native++;
            const a = evaluator.aep(x, y).aepMwh;
            const b = createFarmEvaluator(turbine, wind as WindResource, model, 'js').aep(x, y).aepMwh;
            assert.ok(Math.abs(a - b) <= 1e-12 * b, `${what}: native ${a} vs JavaScript ${b} (${plan.why.kernel})`);
          }
        }
      }
    }
  }
  assert.ok(native > 20 && js > 20, `${native} native, ${js} js`);
});

test('wflo aep and wflo validate refuse a combination no solver covers in one line, exit 2', () => {
  const dir = tempDir('wflo-solveplan-');
  try {
    const source = fs.readFileSync(path.join(REPO, 'test', 'data', 'reference', 'rotor-bastankhah2014-grid-random16.yaml'), 'utf8');
    const changed = source.replace(/rotor_average: Grid\s*\n\s*\(GridRotorAvg\(\)\)/, 'rotor_average: area_overlap');
    assert.notEqual(changed, source);
    const file = path.join(dir, 'area-overlap-gaussian.yaml');
    const changedLine = changed.split('\n').findIndex((l) => /rotor_average: area_overlap/.test(l)) + 1;
    fs.writeFileSync(file, changed);
    for (const args of [
      ['aep', file],
      ['validate', file],
    ]) {
      const r = runWflo(args);
      const lines = r.stderr.split('\n').filter((l) => l.length > 0);
      assert.equal(r.status, 2, `${args[0]}: exit ${r.status}: ${r.stderr}`);
      assert.equal(lines.length, 1, `${args[0]}: ${r.stderr}`);
      assert.equal(
        lines[0],
        `wflo: ${file}:${changedLine}: model.rotor_average: the area-overlap rotor average needs a top-hat wake model (jensen), not bastankhah2014`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('wflo aep --explain names the solver and kernel with why; --json carries the plan', () => {
  const r = runWflo(['aep', 'iea37-cs1-16', '--explain']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.ok(
    lines.includes(
      "solver      free-stream: iea37 has a free-stream form and the turbine a constant Ct (inflow free-stream), every other option at the model's default, one turbine model, a rose",
    ),
    r.stdout,
  );
  assert.ok(lines.includes('kernel      native: the native kernel covers every option of this farm and model'), r.stdout);
  const j = runWflo(['aep', 'iea37-cs3', '--wake', 'niayifar2016', '--blockage', 'selfsimilarity2020', '--json']);
  assert.equal(j.status, 0, j.stderr);
  assert.deepEqual(JSON.parse(j.stdout).solve_plan, {
    solver: 'blockage',
    kernel: 'js',
    why_solver: 'the model has the blockage model selfsimilarity2020',
    why_kernel: 'blockage is solved in JavaScript only',
  });
});
