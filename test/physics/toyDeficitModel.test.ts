/**
 * Adding a wake model is one file and one registry line (issue 27; CONTRIBUTING.md, "Adding a wake
 * model"): in a copy of the repository, examples/toy-model/toy2026.ts goes into
 * src/physics/wake/, registry.ts gets its import and its entry in BUILT_IN, the copy is compiled,
 * and then its `wflo` accepts `wake_model: toy2026` in a case file (`wflo validate`, `wflo aep`), in a
 * campaign (`wflo run`, the gradient method with the model's exact gradient), and as
 * `wflo aep --wake toy2026`. The AEP is checked against the toy's formula evaluated here, by
 * a plain loop written from the file's doc comment (not wflo's engine). The checkout's own `wflo`
 * refuses the name in one line with the known names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO, CLI, tempDir } from '../helpers.js';
import { copyRepository } from '../helpers/repoCopy.js';

const D = 130,
  K = 0.05,
  CT = 0.75,
  P_RATED = 3.35e6,
  V_IN = 4,
  V_R = 9.8,
  V_OUT = 25;
const X = [0, 500, 0, 700],
  Y = [0, 0, 600, 700];
const DIRECTIONS = [0, 90, 180, 270],
  SPEEDS = [8, 11],
  PROB = [
    [0.05, 0.05],
    [0.1, 0.1],
    [0.15, 0.15],
    [0.2, 0.2],
  ];

const CASE = `name: toy-case
turbine:
  name: cubic
  rotor_diameter: ${D}
  hub_height: 110
  performance: {rated_power: ${P_RATED}, cutin_wind_speed: ${V_IN}, cutout_wind_speed: ${V_OUT}, rated_wind_speed: ${V_R}, Ct: ${CT}}
wind:
  wind_direction: [${DIRECTIONS.join(', ')}]
  wind_speed: [${SPEEDS.join(', ')}]
  probability: [${PROB.map((r) => `[${r.join(', ')}]`).join(', ')}]
  turbulence_intensity: 0.075
boundary: {circle: {center: [0, 0], radius: 1300}}
wake_model: toy2026
layout: {x: [${X.join(', ')}], y: [${Y.join(', ')}]}
`;

/** The toy's AEP by its formula: σ = D/4 + k·dx, δ = (Ct/2)(D/4σ)² exp(−cw²/2σ²), sum of squares, free-stream reference. */
function toyAepMwh(): number {
  const power = (v: number) => (v < V_IN || v >= V_OUT ? 0 : v >= V_R ? P_RATED : P_RATED * ((v - V_IN) / (V_R - V_IN)) ** 3);
  let wh = 0;
  DIRECTIONS.forEach((deg, d) => {
    const th = (deg * Math.PI) / 180;
    const ux = -Math.sin(th),
      uy = -Math.cos(th); // where the wind blows to
    SPEEDS.forEach((u, s) => {
      for (let i = 0; i < X.length; i++) {
        let sum = 0;
        for (let j = 0; j < X.length; j++) {
          const dx = (X[i] - X[j]) * ux + (Y[i] - Y[j]) * uy;
          if (dx <= 0) continue;
          const cw = (X[i] - X[j]) * uy - (Y[i] - Y[j]) * ux;
          const sigma = D / 4 + K * dx;
          const delta = (CT / 2) * (D / (4 * sigma)) ** 2 * Math.exp(-(cw * cw) / (2 * sigma * sigma));
          sum += delta * delta;
        }
        wh += PROB[d][s] * power(u * (1 - Math.sqrt(sum))) * 8760;
      }
    });
  });
  return wh / 1e6;
}

function run(cli: string, args: string[], cwd: string) {
  return spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', timeout: 300_000 });
}

test('a toy wake model in one file and one registry line: accepted by case files, campaigns and wflo aep', { timeout: 600_000 }, () => {
  const dir = tempDir('wflo-toy-');
  fs.writeFileSync(path.join(dir, 'case.yaml'), CASE);

  // The checkout does not know it: one line, the known names.
  const before = run(CLI, ['aep', 'case.yaml'], dir);
  assert.equal(before.status, 2, before.stderr);
  assert.match(before.stderr.trim(), /^wflo: .*case\.yaml:\d+: wake_model: expected one of: iea37, .*carbajofuertes2018; got 'toy2026'$/);

  const copy = copyRepository(REPO);
  try {
    // The one file, and the one registry line (its import, and its entry in BUILT_IN).
    fs.copyFileSync(path.join(REPO, 'examples', 'toy-model', 'toy2026.ts'), path.join(copy.dir, 'src', 'physics', 'wake', 'toy2026.ts'));
    const registryFile = path.join(copy.dir, 'src', 'physics', 'wake', 'registry.ts');
    const registry = fs.readFileSync(registryFile, 'utf8');
    const edited = registry
      .replace("import { carbajofuertes2018 } from './carbajofuertes2018.js';", "$&\nimport { toy2026 } from './toy2026.js';")
      .replace(/(const BUILT_IN: readonly DeficitModel\[\] = \[[^\]]*)\]/, '$1, toy2026]');
    assert.notEqual(edited, registry);
    assert.equal(edited.split('\n').length, registry.split('\n').length + 1, 'one line added, one entry appended');
    fs.writeFileSync(registryFile, edited);
    // The sources only (the copy's tests and benchmarks are already compiled).
    fs.writeFileSync(path.join(copy.dir, 'tsconfig.src.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src/**/*.ts'] }));
    const tsc = spawnSync(process.execPath, [path.join(copy.dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.src.json'], {
      cwd: copy.dir,
      encoding: 'utf8',
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    const cli = path.join(copy.dir, 'dist', 'src', 'cli', 'main.js');

    const expected = toyAepMwh();
    const validate = run(cli, ['validate', 'case.yaml'], dir);
    assert.equal(validate.status, 0, validate.stderr);
    const aep = run(cli, ['aep', 'case.yaml', '--json'], dir);
    assert.equal(aep.status, 0, aep.stderr);
    const got = (JSON.parse(aep.stdout) as { aep_mwh: number }).aep_mwh;
    assert.ok(Math.abs(got - expected) <= 1e-9 * expected, `wflo aep ${got} MWh, the toy's formula ${expected} MWh`);
    // Its parameter, checked against the range its file declares.
    const badK = run(cli, ['aep', 'case.yaml', '--k', '2'], dir);
    assert.equal(badK.status, 2);
    assert.match(badK.stderr.trim(), /^wflo: --k: must be at most 1, got 2 \(wake width growth per metre downstream\)$/);
    // As a flag over another case.
    const flag = run(cli, ['aep', '--case', 'iea37-cs1-16', '--wake', 'toy2026', '--json'], dir);
    assert.equal(flag.status, 0, flag.stderr);
    assert.ok((JSON.parse(flag.stdout) as { aep_mwh: number }).aep_mwh > 0);

    // A campaign: a farm with the toy model, optimized by the gradient method (its exact gradient).
    fs.writeFileSync(
      path.join(dir, 'campaign.yaml'),
      `name: toy
output: out
farms:
  - {id: 0, case: iea37-cs1-16, wake_model: toy2026}
farm_types:
  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}
seeds: {start: 0, count: 2}
optimizer: {method: gradient, max_iterations: 15}
workers: 2
`,
    );
    const campaign = run(cli, ['run', 'campaign.yaml', '--quiet', '--json'], dir);
    assert.equal(campaign.status, 0, campaign.stderr);
    const summary = JSON.parse(campaign.stdout) as { done: number; total: number };
    assert.equal(summary.done, 2, campaign.stdout);
  } finally {
    copy.remove();
  }
});
