/**
 * The queue door of the gate, against a real redis-server: a plain BullMQ worker that is not
 * wflo's (hostileWorker.ts) answers the coordinator's jobs with forged results. Every forgery is
 * refused with one line naming the task, the worker and the reason; nothing forged reaches the
 * ledger or layouts.h5; the final rows equal an honest local run's, bit for bit.
 *   - forged on the first attempt (AEP ×10, a layout 1000 km away, two turbines on one spot, NaN),
 *     with spot checks off: the gate alone refuses them, the retry (honest) is committed;
 *   - a feasible layout with its correct AEP that is not the seed's result: only a recomputation
 *     can tell, and the first result of every worker is recomputed: the worker is quarantined and
 *     every task is computed by the coordinator;
 *   - the honest layout of a cost run (cs4 under LCOE) with the router's own network instead of the
 *     one the run designed: valid, so the gate takes it, but the recheck compares networks too.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { hasRedisServer, RedisServer } from '../helpers/redisServer.js';
import { auditEvents, tempDir, writeCampaign } from '../runner/runnerTestKit.js';
import { computedRows } from '../runner/bullmqKit.js';
import { layoutsRows, wflo } from './gateKit.js';
import Database from 'better-sqlite3';
import { REPO } from '../helpers.js';
import { loadCampaign } from '../../src/campaign/loadCampaign.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { economicFigures } from '../../src/optimize/economicObjective.js';

const skip = hasRedisServer() ? false : 'redis-server is not installed (apt-get install redis-server)';
const HOSTILE = fileURLToPath(new URL('./hostileWorker.js', import.meta.url));
let redis: RedisServer | null = null;
const children = new Set<ChildProcess>();

before(async () => {
  if (!skip) redis = await RedisServer.start();
});
after(async () => {
  for (const c of children) c.kill('SIGKILL');
  await redis?.stop();
});

function campaign(out: string): Record<string, unknown> {
  return {
    name: 'queue-door',
    output: out,
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 5 }],
    seeds: { start: 0, count: 10 },
    optimizer: { method: 'gradient', max_iterations: 10 },
    workers: 1,
    timeout_s: 60,
    attempts: 3,
    backoff: { initial_s: 0.05, factor: 2, max_s: 0.2 },
  };
}

async function startHostile(url: string, mode: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [HOSTILE, url, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  await new Promise<void>((resolve, reject) => {
    let out = '',
      err = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      if (out.includes('ready')) resolve();
    });
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      err += s;
    });
    child.on('exit', (code) => reject(new Error(`hostile worker exited (${code}): ${err}`)));
  });
  return child;
}

/** The honest local run of the campaign (its output folder and rows): run once, by the first test that compares with it. */
let honest: Promise<{ out: string; rows: Record<string, unknown>[] }> | null = null;
function honestRun(): Promise<{ out: string; rows: Record<string, unknown>[] }> {
  honest ??= (async () => {
    const dir = tempDir('queue-door-honest');
    const out = path.join(dir, 'honest');
    const r = await wflo(['run', writeCampaign(path.join(dir, 'honest.yaml'), campaign(out)), '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    return { out, rows: computedRows(out) };
  })();
  return honest;
}
async function honestRows(): Promise<Record<string, unknown>[]> {
  return (await honestRun()).rows;
}

test("queue door: AEP x10, a layout outside, a spacing violation and NaN are refused one line each; the retries give an honest run's rows", {
  skip,
  timeout: 120_000,
}, async () => {
  const dir = tempDir('gate-queue');
  const expected = await honestRows();
  const hostile = await startHostile(redis!.url, 'first-attempt');
  const out = path.join(dir, 'queue');
  const run = await wflo(['run', writeCampaign(path.join(dir, 'queue.yaml'), campaign(out)), '--queue', redis!.url, '--recheck', '0', '--log-every', '1000']);
  hostile.kill('SIGTERM');
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stderr.split('\n').filter((l) => l.startsWith('wflo: rejected '));
  // Seeds 0..3 and 5..8 are forged on their first attempt: 8 refusals, one line each.
  assert.equal(lines.length, 8, run.stderr);
  for (const seed of [0, 1, 2, 3, 5, 6, 7, 8]) {
    const line = lines.find((l) => l.startsWith(`wflo: rejected farm_0_type_0_seed_${seed} from queue worker `));
    assert.ok(line, `no line for seed ${seed}:\n${run.stderr}`);
    const why = [/AEP [\d.e]+ MWh differs from recomputed/, /outside the boundary/, /spacing|closer than|apart/, /malformed outcome/][seed % 5];
    assert.match(line!, why);
  }
  const audit = auditEvents(out);
  assert.equal(audit.filter((e) => e.event === 'rejected').length, 8);
  assert.deepEqual(computedRows(out), expected, 'the ledger holds exactly the honest rows');
  assert.deepEqual(await layoutsRows(path.join(out, 'layouts.h5')), await layoutsRows(path.join((await honestRun()).out, 'layouts.h5')));
});

test('queue door: escape sequences and forged lines in what a queue client says (progress, worker name, error) reach neither the terminal nor the ledger', {
  skip,
  timeout: 120_000,
}, async () => {
  const dir = tempDir('gate-queue-escapes');
  const expected = await honestRows();
  const hostile = await startHostile(redis!.url, 'escapes');
  const out = path.join(dir, 'queue');
  const run = await wflo(['run', writeCampaign(path.join(dir, 'queue.yaml'), campaign(out)), '--queue', redis!.url, '--recheck', '0', '--log-every', '1000']);
  hostile.kill('SIGTERM');
  assert.equal(run.code, 0, run.stderr);
  const text = run.stdout + run.stderr;
  assert.doesNotMatch(text, /[\u001b\r\u0007]/, 'no ESC, carriage return or BEL in what wflo printed');
  assert.ok(!text.split('\n').some((l) => /^wflo: (FAKE LINE|24\/24 done|all good)/.test(l)), `a forged line of its own:\n${text}`);
  // Seeds 0, 3, 6, 9: AEP x10 from the worker with the forged name, refused with the name made plain.
  const rejected = run.stderr.split('\n').filter((l) => l.startsWith('wflo: rejected '));
  assert.equal(rejected.length, 4, run.stderr);
  for (const l of rejected) assert.match(l, /from queue worker evil\?\?\[31mwflo: FAKE LINE\?\[0m:\d+: AEP/);
  assert.match(run.stderr, /worker h\?\[2J:1 refused it \(handed back to the queue\): \?\[31mRED\?\[0m\?\?wflo: 24\/24 done/);
  assert.deepEqual(computedRows(out), expected, 'the ledger holds exactly the honest rows');
  const status = await wflo(['status', out]);
  assert.doesNotMatch(status.stdout + status.stderr, /[\u001b\r]/);
});

test("queue door: a feasible layout with its correct AEP that is not the seed's result is caught by the recheck; the worker is quarantined", {
  skip,
  timeout: 120_000,
}, async () => {
  const dir = tempDir('gate-recheck');
  const expected = await honestRows();
  const hostile = await startHostile(redis!.url, 'wrong-seed');
  const out = path.join(dir, 'queue');
  const run = await wflo(['run', writeCampaign(path.join(dir, 'queue.yaml'), campaign(out)), '--queue', redis!.url, '--log-every', '1000']);
  hostile.kill('SIGTERM');
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /wflo: rejected farm_0_type_0_seed_\d+ from queue worker [^:]+:\d+: its layout is not the one the task's seed gives/);
  assert.match(run.stderr, /wflo: quarantined queue worker [^:]+:\d+: a result differed from the recomputation/);
  const audit = auditEvents(out);
  assert.equal(audit.filter((e) => e.event === 'quarantined').length, 1);
  assert.ok(audit.some((e) => e.event === 'recheck' && e.outcome === 'mismatch'));
  assert.deepEqual(computedRows(out), expected, 'every row is the honest one');
  const status = await wflo(['status', out]);
  assert.match(status.stdout, /quarantined/);
});

test('queue door: the honest layout with another valid network than the one the run designed is caught by the recheck; the row keeps the designed network', {
  skip,
  timeout: 300_000,
}, async () => {
  const dir = tempDir('gate-network');
  const out = path.join(dir, 'queue');
  const file = writeCampaign(path.join(dir, 'queue.yaml'), {
    name: 'queue-door-network',
    output: out,
    farms: [{ id: 0, case: path.join(REPO, 'examples', 'offshore-cs4', 'cs4-offshore.yaml') }],
    // Seed 2: a start where the router alone finds a dearer network for the run's final layout (docs/cost.md).
    farm_types: [{ id: 0, turbine: 'iea37-10mw', n_turbines: 81, objective: 'lcoe' }],
    seeds: { start: 2, count: 1 },
    optimizer: { method: 'gradient' },
    workers: 1,
    timeout_s: 200,
    attempts: 2,
  });
  const hostile = await startHostile(redis!.url, 'router-network');
  const run = await wflo(['run', file, '--queue', redis!.url, '--log-every', '1000']);
  hostile.kill('SIGTERM');
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /wflo: rejected farm_0_type_0_seed_2 from queue worker [^:]+:\d+: its collection network is not the one the task's seed gives/);
  assert.match(run.stderr, /wflo: quarantined queue worker [^:]+:\d+: a result differed from the recomputation/);
  assert.ok(auditEvents(out).some((e) => e.event === 'recheck' && e.outcome === 'mismatch'));
  // The committed row is the coordinator's recomputation: its network is the designed one, cheaper
  // than the router's own for that layout (the worker's), which the gate alone would have taken.
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  const row = (() => {
    try {
      return db.prepare('SELECT x, y, cable_to, metrics FROM results').get() as { x: Buffer; y: Buffer; cable_to: string; metrics: string };
    } finally {
      db.close();
    }
  })();
  const floats = (b: Buffer) => new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  const campaignDef = loadCampaign(file);
  const c = caseForTask(campaignDef.farms[0], campaignDef.farmTypes[0]);
  const own = economicFigures(c, floats(row.x), floats(row.y));
  const kept = JSON.parse(row.metrics) as { cable_cost: number };
  assert.notDeepEqual(JSON.parse(row.cable_to), Array.from(own.cableTo), "the row kept the router's own network, the worker's");
  assert.ok(kept.cable_cost < own.cableCost, `kept ${kept.cable_cost} vs the router's own ${own.cableCost}`);
});
