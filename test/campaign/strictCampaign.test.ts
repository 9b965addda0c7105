/**
 * Campaign files under the strict rules: snake_case optimizer keys (camelCase kept as aliases,
 * same spec hashes), unknown keys at every depth with did-you-mean, holes and exclusion zones,
 * the capacity check per farm × farm type, and the task limit refused before anything is expanded.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCampaign, MAX_CAMPAIGN_TASKS } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { InputError } from '../../src/util/errors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-strict-campaign-'));
const file = path.join(dir, 'campaign.yaml');

const BASE = `name: strict
farms:
  - id: 0
    case: iea37-cs1-16
  - id: 1
    label: lanes
    boundary:
      polygon: [[0, 0], [4000, 0], [4000, 4000], [0, 4000]]
      holes:
        - [[1000, 1000], [1400, 1000], [1400, 1400], [1000, 1400]]
      exclusions:
        - name: shipping lane
          polygon: [[0, 2000], [4000, 2000], [4000, 2300], [0, 2300]]
    wind: iea37-cs1
farm_types:
  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}
seeds: {start: 0, count: 2}
optimizer:
  method: gradient
  max_iterations: 40
  hop_wec: [2, 1]
`;

const load = (text: string) => parseCampaign(text, file, { optimizerProblem: optimizerSettingsProblem });

function errorOf(text: string): string {
  try {
    load(text);
  } catch (err) {
    assert.ok(err instanceof InputError, String(err));
    assert.equal(err.message.includes('\n'), false);
    return err.message;
  }
  assert.fail('accepted');
}

test('snake_case optimizer keys reach the optimizer in camelCase; both spellings hash the same', () => {
  const snake = load(BASE);
  assert.deepEqual(snake.optimizer, { method: 'gradient', maxIterations: 40, hopWec: [2, 1] });
  const camel = load(BASE.replace('max_iterations', 'maxIterations').replace('hop_wec', 'hopWec'));
  assert.deepEqual(
    expandTasks(camel).map((t) => t.specHash),
    expandTasks(snake).map((t) => t.specHash),
  );
  assert.match(
    errorOf(BASE.replace('max_iterations', 'max_iteration')),
    /campaign\.yaml:20: optimizer\.max_iteration: unknown optimizer setting 'max_iteration'; did you mean 'max_iterations'\?$/,
  );
  assert.match(errorOf(BASE.replace('hop_wec: [2, 1]', 'hop_wec: [2, 1.5]')), /campaign\.yaml:21: optimizer\.hop_wec: .*last factor must be 1/);
});

test("holes and exclusion zones reach the farm's boundary and its spec hash", () => {
  const c = load(BASE);
  assert.deepEqual(
    c.farms[1].boundary.exclusions?.map((e) => e.name),
    ['hole 1', 'shipping lane'],
  );
  const without = load(BASE.replace(/      holes:\n.*\n/, ''));
  assert.notEqual(without.farms[1].hash, c.farms[1].hash, 'a hole changes the farm');
  assert.equal(without.farms[0].hash, c.farms[0].hash);
});

test('unknown keys at every depth: line, full path, nearest key', () => {
  assert.match(
    errorOf(BASE.replace('      holes:', '      hole:')),
    /campaign\.yaml:9: farms\[1\]\.boundary\.hole: unknown field 'hole'; did you mean 'holes'\?$/,
  );
  assert.match(
    errorOf(BASE.replace('        - name: shipping lane', '        - nam: shipping lane')),
    /campaign\.yaml:12: farms\[1\]\.boundary\.exclusions\[0\]\.nam: unknown field 'nam'; did you mean 'name'\?$/,
  );
  assert.match(
    errorOf(BASE.replace('    wind: iea37-cs1', '    wind: {wind_direction: [0, 90], wind_speed: [8], probability: [[0.5], [0.5]], turbulence_intensty: 0.1}')),
    /campaign\.yaml:14: farms\[1\]\.wind\.turbulence_intensty: unknown field 'turbulence_intensty'; did you mean 'turbulence_intensity'\?$/,
  );
  assert.match(
    errorOf(BASE.replace('seeds: {start: 0, count: 2}', 'seeds: {start: 0, count: 2, step: 1}')),
    /campaign\.yaml:17: seeds\.step: unknown field 'step'/,
  );
});

test('a farm too small for a farm type is refused before any task, naming both', () => {
  const text = BASE.replace(
    '  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}',
    '  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}\n  - {id: 3, label: big, turbine: iea37-3.35mw, n_turbines: 200}',
  );
  // cs1-16's circle (radius 1300 m) holds at most 107 turbines at 260 m by Oler's bound; the 4 km square more.
  assert.match(
    errorOf(text),
    /campaign\.yaml:17: farm_types\[1\]\.n_turbines: farm 0 \(iea37-cs1-16, farms\[0\]\) × farm type 3 \(big\): cannot place 200 turbines at spacing 260 m in a circle of radius 1300 m: at most 107 fit/,
  );
});

test('more tasks than the limit: refused at once, the limit named', () => {
  const t0 = performance.now();
  const message = errorOf(BASE.replace('count: 2', 'count: 100000000'));
  assert.ok(performance.now() - t0 < 30_000);
  assert.match(
    message,
    new RegExp(`seeds\\.count: 2 farms × 1 farm types × 100000000 seeds = 200000000 tasks, over the limit of ${MAX_CAMPAIGN_TASKS} tasks per campaign`),
  );
});
