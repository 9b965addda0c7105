/**
 * The BullMQ executor's pure parts: queue URLs (parsing, exit-2 errors, password redaction), the
 * job payload (JSON round trip of typed arrays, validation, spec-hash check against the task grid
 * of a real campaign, rejection of hostile payloads) and the decoding of job outcomes.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { InputError } from '../../src/util/errors.js';
import { ENGINE_VERSION } from '../../src/version.js';
import { parseQueueUrl, redactQueueUrls, queueUrlFrom } from '../../src/runner/executors/bullmq/queueUrl.js';
import { JobEncoder, decodeJob, PayloadRejected, specHashOf, type JobData } from '../../src/runner/executors/bullmq/jobPayload.js';
import { decodeOutcome } from '../../src/runner/executors/bullmq/jobOutcome.js';
import { jobIdFor, queueNameFor } from '../../src/runner/executors/bullmq/queueNames.js';
import type { ExecutorSetup } from '../../src/runner/executors/executor.js';
import { noopCampaign, tempDir, writeCampaign } from './runnerTestKit.js';

test('queue URLs: parsed, defaults, redacted; malformed ones are bad input (exit 2) without the password', () => {
  const a = parseQueueUrl('redis://alice:p%40ss:w0rd@db.lab.example:6380/3');
  assert.deepEqual(
    { host: a.host, port: a.port, db: a.db, username: a.username, password: a.password, tls: a.tls },
    { host: 'db.lab.example', port: 6380, db: 3, username: 'alice', password: 'p@ss:w0rd', tls: false },
  );
  assert.equal(a.redacted, 'redis://alice:***@db.lab.example:6380/3');
  const b = parseQueueUrl('rediss://:secret@10.0.0.5');
  assert.equal(b.tls, true);
  assert.equal(b.port, 6379);
  assert.equal(b.password, 'secret');
  assert.equal(b.redacted, 'rediss://:***@10.0.0.5:6379');
  assert.equal(parseQueueUrl('redis://127.0.0.1:7000').redacted, 'redis://127.0.0.1:7000');
  for (const bad of [
    'http://u:hunter2@host:1',
    'redis://u:hunter2@host:99999',
    'redis://u:hunter2@host:1/x',
    'not a url hunter2',
    'redis://u:hunter2@host:1/?a=b',
  ]) {
    assert.throws(
      () => parseQueueUrl(bad),
      (err: unknown) => {
        assert.ok(err instanceof InputError, String(err));
        assert.equal(err.exitCode, 2);
        assert.ok(err.message.startsWith('--queue: '), err.message);
        assert.ok(!err.message.includes('hunter2') || bad === 'not a url hunter2', err.message);
        assert.ok(!err.message.includes('\n'));
        return true;
      },
    );
  }
  assert.equal(redactQueueUrls('ECONN to redis://bob:xyz@h:1 and rediss://:p@q:2/1 ok'), 'ECONN to redis://bob:***@h:1 and rediss://:***@q:2/1 ok');
  assert.deepEqual(queueUrlFrom(undefined, { WFLO_QUEUE: 'redis://h:1' }), { url: 'redis://h:1', source: 'WFLO_QUEUE' });
  assert.deepEqual(queueUrlFrom('redis://x:2', { WFLO_QUEUE: 'redis://h:1' }), { url: 'redis://x:2', source: '--queue' });
  assert.equal(queueUrlFrom(undefined, {}), null);
  assert.ok(!queueNameFor(ENGINE_VERSION).includes(':'));
});

function setupFor(file: string): { setup: ExecutorSetup; tasks: ReturnType<typeof expandTasks> } {
  const c = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem });
  return {
    setup: { farms: c.farms, farmTypes: c.farmTypes, optimizer: c.optimizer, timeoutS: c.timeoutS, campaignName: c.name, campaignHash: 'h' },
    tasks: expandTasks(c),
  };
}

/** A campaign file with a tabulated turbine (typed-array power and Ct curves) and a Weibull wind. */
function richCampaign(dir: string): string {
  const c = noopCampaign(path.join(dir, 'out'), 3, { sleep_ms: 0 });
  c.farm_types = [
    { id: 0, turbine: 'iea37-3.35mw', n_turbines: 5 },
    {
      id: 7,
      n_turbines: 3,
      min_spacing_m: 300,
      turbine: {
        name: 'tab',
        rotor_diameter: 120,
        hub_height: 90,
        performance: {
          rated_power: 3000000,
          cutin_wind_speed: 3,
          cutout_wind_speed: 25,
          power_curve: { power_wind_speeds: [3, 6, 9, 12, 25], power_values: [0, 500000, 1800000, 3000000, 3000000] },
          Ct_curve: { Ct_wind_speeds: [3, 10, 25], Ct_values: [0.82, 0.77, 0.1] },
        },
      },
    },
  ];
  return writeCampaign(path.join(dir, 'rich.yaml'), c);
}

test('job payloads: JSON round trip restores typed arrays and the exact spec hash of every task', () => {
  const dir = tempDir('bullmq-payload');
  const { setup, tasks } = setupFor(richCampaign(dir));
  const enc = new JobEncoder(setup);
  assert.ok(tasks.length >= 12);
  for (const task of tasks) {
    const wire = JSON.parse(JSON.stringify(enc.encode({ task, attempt: 2 })));
    const d = decodeJob(wire, jobIdFor(task.taskId, task.specHash));
    assert.equal(d.data.specHash, task.specHash);
    assert.equal(d.data.attempt, 2);
    const farm = setup.farms[task.farmIndex],
      type = setup.farmTypes[task.typeIndex];
    assert.ok(d.farm.wind.probability instanceof Float64Array);
    assert.deepEqual(d.farm.wind.probability, farm.wind.probability);
    assert.deepEqual(d.farm.wind.directionsDeg, farm.wind.directionsDeg);
    assert.equal(d.farm.hash, farm.hash);
    assert.equal(d.type.hash, type.hash);
    assert.deepEqual(d.type.turbine, type.turbine);
    if (type.turbine.power.kind === 'table') assert.ok(d.type.turbine.power.kind === 'table' && d.type.turbine.power.powerW instanceof Float64Array);
  }
});

test('job payloads carry every physics option (waked inflow, turbulence, rotor averaging, Ct extrapolation, hours per year)', () => {
  const dir = tempDir('bullmq-payload-physics');
  const { setup, tasks } = setupFor(richCampaign(dir));
  const task = tasks.find((t) => setup.farmTypes[t.typeIndex].turbine.thrust.kind === 'table')!;
  const farm = setup.farms[task.farmIndex],
    type = setup.farmTypes[task.typeIndex];
  farm.model = {
    wake: 'niayifar2016',
    superposition: 'linear',
    params: { a1: 0.3837, a2: 0.003678 },
    inflow: 'waked',
    ct2a: 'madsen',
    deficitReference: 'source-effective',
    useEffectiveTi: true,
    turbulence: 'crespo-hernandez',
    turbulenceSuperposition: 'sqrmax',
    turbulenceParams: { c0: 0.73 },
    rotorAverage: 'cgi7',
  };
  farm.wind = { ...farm.wind, hoursPerYear: 8766 };
  if (type.turbine.thrust.kind === 'table') type.turbine.thrust.outside = 'zero';
  type.turbine.cutOutInclusive = true;
  const hashes = specHashOf(farm, type, setup.optimizer, task.seed);
  const changed = { ...task, specHash: hashes.specHash };
  const wire = JSON.parse(JSON.stringify(new JobEncoder(setup).encode({ task: changed, attempt: 1 })));
  const d = decodeJob(wire, jobIdFor(changed.taskId, changed.specHash));
  assert.deepEqual(d.farm.model, farm.model);
  assert.equal(d.farm.wind.hoursPerYear, 8766);
  assert.deepEqual(d.type.turbine, type.turbine);
  assert.equal(d.data.specHash, hashes.specHash);
});

test('job payloads: malformed, hostile or foreign payloads are rejected in one line before anything runs', () => {
  const dir = tempDir('bullmq-hostile');
  const { setup, tasks } = setupFor(writeCampaign(path.join(dir, 'c.yaml'), noopCampaign(path.join(dir, 'out'), 2)));
  const good = (): JobData => JSON.parse(JSON.stringify(new JobEncoder(setup).encode({ task: tasks[0], attempt: 1 })));
  const cases: [string, (j: any) => unknown, RegExp][] = [
    [
      'another engine',
      (j) => {
        j.engine = 'engine-0';
        return j;
      },
      /needs engine engine-0, this worker runs/,
    ],
    [
      'tampered seed',
      (j) => {
        j.seed += 1;
        return j;
      },
      /spec hash .* does not match its contents/,
    ],
    [
      'tampered wind',
      (j) => {
        j.farm.wind.probability[0] += 1e-12;
        return j;
      },
      /does not match/,
    ],
    [
      'NaN became null',
      (j) => {
        j.farm.wind.probability[1] = null;
        return j;
      },
      /farm\.wind\.probability\.1/,
    ],
    ['prototype key', (j) => JSON.parse(JSON.stringify(j).replace('"method"', '"__proto__":{"polluted":1},"method"')), /optimizer/],
    [
      'unexpected key',
      (j) => {
        j.farm.extra = 1;
        return j;
      },
      /farm/,
    ],
    [
      'huge turbine count',
      (j) => {
        j.type.nTurbines = 1e9;
        return j;
      },
      /type\.nTurbines/,
    ],
    [
      'negative timeout',
      (j) => {
        j.timeoutS = -1;
        return j;
      },
      /timeoutS/,
    ],
    [
      'bad task id',
      (j) => {
        j.taskId = '../../etc/passwd';
        return j;
      },
      /taskId/,
    ],
    ['not an object', () => 'rm -rf /', /payload rejected/],
    ['null', () => null, /payload rejected/],
  ];
  for (const [name, mutate, expected] of cases) {
    assert.throws(
      () => decodeJob(mutate(good()), 'j1'),
      (err: unknown) => {
        assert.ok(err instanceof PayloadRejected, `${name}: ${String(err)}`);
        assert.match(err.message, expected, name);
        assert.ok(err.message.startsWith('job j1: '), name);
        assert.ok(!err.message.includes('\n'), name);
        return true;
      },
      name,
    );
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('job outcomes: results decode to Float64Arrays; malformed or invalid ones become errors', () => {
  const worker = { host: 'h', pid: 1 };
  const output = {
    x: [1, 2],
    y: [3, 4],
    xInitial: [1, 2],
    yInitial: [3, 4],
    aep: 10,
    aepInitial: 9,
    iterations: 0,
    evaluations: 1,
    feasible: true,
    maxViolationM: 0,
  };
  const ok = decodeOutcome({ v: 1, kind: 'result', attempt: 1, wallS: 0.1, worker, output }, 2);
  assert.equal(ok.kind, 'result');
  assert.ok(ok.kind === 'result' && ok.output.x instanceof Float64Array && ok.output.y[1] === 4);
  assert.equal(decodeOutcome(JSON.stringify({ v: 1, kind: 'result', attempt: 1, wallS: 0.1, worker, output }), 2).kind, 'result');
  const short = decodeOutcome({ v: 1, kind: 'result', attempt: 1, wallS: 0.1, worker, output }, 3);
  assert.ok(short.kind === 'error' && /expected 3/.test(short.message));
  const infeasible = decodeOutcome({ v: 1, kind: 'result', attempt: 1, wallS: 0.1, worker, output: { ...output, feasible: false } }, 2);
  assert.equal(infeasible.kind, 'error');
  assert.equal(decodeOutcome({ v: 1, kind: 'result', attempt: 1, wallS: 0.1, worker, output: { ...output, x: [1, null] } }, 2).kind, 'error');
  assert.equal(decodeOutcome('{not json', 2).kind, 'error');
  assert.equal(decodeOutcome(42, 2).kind, 'error');
  const t = decodeOutcome({ v: 1, kind: 'timeout', attempt: 2, message: 'timed out after 1 s', worker }, 2);
  assert.deepEqual(t, { kind: 'timeout', message: 'timed out after 1 s', worker });
  const e = decodeOutcome({ v: 1, kind: 'error', attempt: 1, message: 'boom\nstack', wallS: 1, permanent: true, worker }, 2);
  assert.deepEqual(e, { kind: 'error', message: 'boom', wallS: 1, permanent: true, worker });
});
