/**
 * A campaign farm's `site:` (campaign/farmSite.ts; docs/site.md): a site that is not uniform in a
 * campaign. The fields' values are part of the farm's spec hash (a netCDF file's content, written
 * here by xarray, not its name); a queue job carries the fields inline (never a path) and a worker
 * decodes the same spec hash and the same AEP bits; the verification gate evaluates on the site, so
 * a row computed without it is refused; a local `wflo run` gives, for every row, the AEP bits that
 * `wflo aep` of a case file with the same site, turbine, wind and layout gives; `wflo plot` of a
 * stored row draws the farm's speed-up under the turbines.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { PYTHON, runWflo, tempDir } from '../helpers.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { expandTasks } from '../../src/campaign/taskGrid.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { RecordVerifier } from '../../src/campaign/verifyRecord.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { JobEncoder, decodeJob, PayloadRejected } from '../../src/runner/executors/bullmq/jobPayload.js';
import { InputError } from '../../src/util/errors.js';
import { hasRedisServer, RedisServer } from '../helpers/redisServer.js';
import { killAllWorkers, startWorker, waitUntil } from '../runner/bullmqKit.js';

const dir = tempDir('wflo-site-campaign-');
let redis: RedisServer | null = null;
after(async () => {
  killAllWorkers();
  await redis?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

// A speed-up rising to the east and a TI field, on grids that cover the boundary with a margin;
// `outside: limit` as docs/site.md advises for an optimizer (the gradient method's iterates leave the boundary).
const SITE = {
  speedup: {
    x: [-100, 700, 1500],
    y: [-100, 1100],
    values: [
      [0.9, 0.95],
      [1.0, 1.05],
      [1.15, 1.2],
    ],
  },
  ti: {
    x: [-100, 1500],
    y: [-100, 1100],
    values: [
      [0.06, 0.08],
      [0.1, 0.12],
    ],
  },
  outside: 'limit',
};
const BOUNDARY = {
  polygon: [
    [0, 0],
    [1400, 0],
    [1400, 1000],
    [0, 1000],
  ],
};
const campaignDoc = (site: unknown): Record<string, unknown> => ({
  name: 'site',
  output: 'out',
  workers: 1,
  farms: [{ id: 0, boundary: BOUNDARY, wind: 'iea37-cs1', wake_model: 'niayifar2016', site }],
  farm_types: [{ id: 0, turbine: 'v80', n_turbines: 5 }],
  seeds: [1, 2],
  optimizer: { method: 'gradient', max_iterations: 8 },
});
const file = path.join(dir, 'campaign.yaml');
const parse = (doc: Record<string, unknown>) => parseCampaign(stringify(doc), file, { optimizerProblem: optimizerSettingsProblem });

/** A uniform-site copy of the farm: what a worker that ignored the site would compute. */
function uniformAep(c: ReturnType<typeof parse>, x: Float64Array, y: Float64Array): number {
  const task = caseForTask(c.farms[0], c.farmTypes[0]);
  const { site: _site, ...model } = task.model;
  return caseEvaluator({ ...task, model }).aep(x, y).aepMwh;
}

const X = Float64Array.from([100, 500, 900, 1300, 700]),
  Y = Float64Array.from([100, 900, 200, 800, 500]);

test("the site is part of the farm's spec hash: a field value changes it, a missing site is another farm", () => {
  const c = parse(campaignDoc(SITE));
  assert.ok(c.farms[0].model.site?.speedup && c.farms[0].model.site.ti);
  const edited = structuredClone(SITE);
  edited.speedup.values[1][0] = 1.01;
  assert.notEqual(parse(campaignDoc(edited)).farms[0].hash, c.farms[0].hash);
  const { site: _s, ...farm } = (campaignDoc(SITE).farms as Record<string, unknown>[])[0];
  assert.notEqual(parse({ ...campaignDoc(SITE), farms: [farm] }).farms[0].hash, c.farms[0].hash);
  // The site changes the AEP (else the tests below could not tell).
  const onSite = caseEvaluator(caseForTask(c.farms[0], c.farmTypes[0])).aep(X, Y).aepMwh;
  assert.ok(Math.abs(onSite / uniformAep(c, X, Y) - 1) > 1e-3, `${onSite} vs ${uniformAep(c, X, Y)}`);
});

const hasXarray = spawnSync(PYTHON, ['-c', 'import xarray, h5netcdf'], { encoding: 'utf8' }).status === 0;

test('a netCDF site file (xarray): hashed by content, not by name; equal to the same fields inline', {
  skip: hasXarray ? false : 'needs python3-xarray and python3-h5netcdf (Debian)',
}, () => {
  const write = (name: string, speedupCentre: number): void => {
    const r = spawnSync(
      PYTHON,
      [
        '-c',
        `
import sys, json, numpy as np, xarray as xr
site, out, centre = json.loads(sys.argv[1]), sys.argv[2], float(sys.argv[3])
s, t = site['speedup'], site['ti']
s['values'][1][0] = centre
ds = xr.Dataset({'Speedup': (('x', 'y'), np.array(s['values'], float))}, coords={'x': np.array(s['x'], float), 'y': np.array(s['y'], float)})
ds.to_netcdf(out, engine='h5netcdf')
`,
        JSON.stringify(SITE),
        path.join(dir, name),
        String(speedupCentre),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
  };
  write('a.nc', 1.0);
  write('b.nc', 1.0);
  write('c.nc', 1.01);
  const inline = parse(campaignDoc({ speedup: SITE.speedup })).farms[0].hash;
  assert.notEqual(parse(campaignDoc({ speedup: SITE.speedup, outside: 'limit' })).farms[0].hash, inline, 'outside is hashed');
  const a = parse(campaignDoc({ file: 'a.nc' })).farms[0].hash;
  assert.equal(a, inline, 'the same values from a file or inline');
  assert.equal(parse(campaignDoc({ file: 'b.nc' })).farms[0].hash, a, 'another file name, the same content');
  assert.notEqual(parse(campaignDoc({ file: 'c.nc' })).farms[0].hash, a, 'one value changed in the file');
  // The queue payload carries the values, not the path: a worker decodes it with the file gone.
  const c = parse(campaignDoc({ file: 'c.nc' }));
  fs.renameSync(path.join(dir, 'c.nc'), path.join(dir, 'gone.nc'));
  const enc = new JobEncoder({ farms: c.farms, farmTypes: c.farmTypes, optimizer: c.optimizer, timeoutS: c.timeoutS, campaignName: c.name, campaignHash: 'h' });
  const task = expandTasks(c)[0];
  const text = JSON.stringify(enc.encode({ task, attempt: 1 }));
  assert.ok(!text.includes('.nc'), 'no file name in the payload');
  const decoded = decodeJob(JSON.parse(text), task.taskId);
  assert.equal(decoded.data.specHash, task.specHash);
  assert.equal(
    caseEvaluator(caseForTask(decoded.farm, decoded.type)).aep(X, Y).aepMwh,
    caseEvaluator(caseForTask(c.farms[0], c.farmTypes[0])).aep(X, Y).aepMwh,
  );
});

test('a queue job carries the site inline: same spec hash and AEP bits on the worker; an altered field or a file path is refused', () => {
  const c = parse(campaignDoc({ ...SITE, shear: { power: { h_ref: 100, alpha: 0.14 } } }));
  const enc = new JobEncoder({ farms: c.farms, farmTypes: c.farmTypes, optimizer: c.optimizer, timeoutS: c.timeoutS, campaignName: c.name, campaignHash: 'h' });
  const coordinatorAep = caseEvaluator(caseForTask(c.farms[0], c.farmTypes[0])).aep(X, Y).aepMwh;
  for (const task of expandTasks(c)) {
    const json = JSON.parse(JSON.stringify(enc.encode({ task, attempt: 1 })));
    const decoded = decodeJob(json, task.taskId);
    assert.equal(decoded.data.specHash, task.specHash);
    assert.equal(caseEvaluator(caseForTask(decoded.farm, decoded.type)).aep(X, Y).aepMwh, coordinatorAep);

    const altered = structuredClone(json);
    altered.farm.model.site.speedup.values[2][1] = 1.3;
    assert.throws(
      () => decodeJob(altered, task.taskId),
      (err: unknown) => err instanceof PayloadRejected && /spec hash/.test((err as Error).message),
    );
    const pointing = structuredClone(json);
    pointing.farm.model.site = { file: '/etc/passwd' };
    assert.throws(
      () => decodeJob(pointing, task.taskId),
      (err: unknown) => err instanceof PayloadRejected && /farm\.model\.site/.test((err as Error).message),
    );
    const ragged = structuredClone(json);
    ragged.farm.model.site.speedup.values[0] = [0.9];
    assert.throws(
      () => decodeJob(ragged, task.taskId),
      (err: unknown) => err instanceof PayloadRejected && /farm\.model\.site: .*speedup\.values/.test((err as Error).message),
    );
  }
});

test("the gate evaluates on the site: the row's own AEP passes, the uniform-site AEP of the same layout is refused", () => {
  const c = parse(campaignDoc(SITE));
  const task = expandTasks(c)[0];
  const gate = new RecordVerifier(c);
  const onSite = caseEvaluator(caseForTask(c.farms[0], c.farmTypes[0])).aep(X, Y).aepMwh;
  const ok = gate.verify(task, { x: X, y: Y, aep: onSite });
  assert.ok(ok.ok, JSON.stringify(ok));
  const forged = gate.verify(task, { x: X, y: Y, aep: uniformAep(c, X, Y) });
  assert.equal(forged.ok, false);
  assert.match((forged as { reason: string }).reason, /AEP/);
});

test('a grid short of the boundary, a bad field: refused at load, one line naming the campaign field', () => {
  const bad = (site: unknown, re: RegExp): void => {
    assert.throws(
      () => parse(campaignDoc(site)),
      (err: unknown) => {
        assert.ok(err instanceof InputError, String(err));
        assert.ok(!(err as Error).message.includes('\n'));
        assert.match((err as Error).message, re);
        return true;
      },
    );
  };
  bad({ speedup: { ...SITE.speedup, x: [100, 700, 1500] } }, /campaign\.yaml:\d+: farms\[0\]\.site\.speedup: the boundary reaches outside the field's grid/);
  bad(
    {
      speedup: {
        ...SITE.speedup,
        values: [
          [0.9, 0.95],
          [1.0, -1],
          [1.15, 1.2],
        ],
      },
    },
    /campaign\.yaml:\d+: .*speedup\.values\[1\]\[1\]: -1 is not a speed-up/,
  );
  bad(
    {
      ti: {
        ...SITE.ti,
        values: [
          [6, 8],
          [10, 12],
        ],
      },
    },
    /ti\.values\[0\]\[0\]: 6 is not .*a TI in percent\? write 0\.06/,
  );
  // The site with a combination no solver takes (issue 41 lifted TurbOPark and blockage on a site: they parse).
  const farm = (extra: object) => ({ ...campaignDoc(SITE), farms: [{ ...(campaignDoc(SITE).farms as object[])[0], ...extra }] });
  assert.doesNotThrow(() => parse(farm({ wake_model: 'turbopark2022' })));
  assert.doesNotThrow(() => parse(farm({ blockage: 'selfsimilarity2020' })));
  assert.throws(
    () => parse(farm({ blockage: 'selfsimilarity2020', ground: 'mirror' })),
    /farms\[0\]\.ground: the ground mirror is not supported with blockage/,
  );
});

/** Every row of a run: task, layout and AEP. */
let localRows: ReturnType<typeof rows> | null = null;

function rows(out: string): { task_id: string; aep: number; x: Float64Array; y: Float64Array }[] {
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const all = db.prepare('SELECT task_id, aep, x, y FROM results ORDER BY task_id').all() as { task_id: string; aep: number; x: Buffer; y: Buffer }[];
    const f64 = (b: Buffer) => new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    return all.map((r) => ({ task_id: r.task_id, aep: r.aep, x: f64(r.x), y: f64(r.y) }));
  } finally {
    db.close();
  }
}

test("a local run on the site: every row's AEP is, to the bit, what `wflo aep` gives for its layout on the same case; `wflo plot` draws the field", {
  timeout: 240_000,
}, () => {
  fs.writeFileSync(file, stringify(campaignDoc(SITE)));
  const out = path.join(dir, 'out');
  const r = runWflo(['run', file, '--quiet'], { timeoutMs: 220_000 });
  assert.equal(r.status, 0, r.stderr);
  const done = rows(out);
  assert.equal(done.length, 2);
  localRows = done;
  for (const row of done) {
    const caseFile = path.join(dir, `${row.task_id}.yaml`);
    fs.writeFileSync(
      caseFile,
      stringify({
        name: row.task_id,
        turbine: 'v80',
        wind: 'iea37-cs1',
        boundary: BOUNDARY,
        wake_model: 'niayifar2016',
        site: SITE,
        layout: { x: Array.from(row.x), y: Array.from(row.y) },
      }),
    );
    const a = runWflo(['aep', caseFile, '--json']);
    assert.equal(a.status, 0, a.stderr);
    assert.equal((JSON.parse(a.stdout) as { aep_mwh: number }).aep_mwh, row.aep, row.task_id);
  }
  // A stored row plots on its site: the ledger keeps the fields inline and the plot draws the speed-up.
  const svg = path.join(dir, 'row.svg');
  const p = runWflo(['plot', out, '--task', done[0].task_id, '-o', svg]);
  assert.equal(p.status, 0, p.stderr);
  const drawn = fs.readFileSync(svg, 'utf8');
  const tag = /<image class="site-field" data-field="speedup" data-min="([^"]*)" data-max="([^"]*)"/.exec(drawn);
  assert.ok(tag, 'the speed-up drawn');
  assert.ok(Number(tag[1]) >= 0.9 - 1e-12 && Number(tag[2]) <= 1.2 + 1e-12 && Number(tag[2]) - Number(tag[1]) > 0.2, `${tag[1]}–${tag[2]}`);
  // The AEP the plot recomputes is the row's (a plot without the site would print another and a note).
  assert.ok(p.stdout.includes(`AEP ${done[0].aep.toFixed(1)} MWh`), p.stdout);
  assert.doesNotMatch(p.stdout, /note: the source records/);

  // The report marks the farm as on a site; its gross is the mean of each layout's own (on a site it depends on the layout: views/layoutFigures.ts).
  const html = path.join(dir, 'report.html');
  const rep = runWflo(['report', out, '-o', html]);
  assert.equal(rep.status, 0, rep.stderr);
  const text = fs.readFileSync(html, 'utf8');
  const data = JSON.parse(/<script type="application\/json" id="wflo-data">([\s\S]*?)<\/script>/.exec(text)![1]) as {
    view: {
      cells: {
        label: string;
        site?: { speedupMin: number; speedupMax: number; ti: boolean };
        grossAepMwh: number | null;
        grossPerLayout: boolean;
        wakeLossMean: number | null;
      }[];
    };
  };
  const cell = data.view.cells[0];
  assert.deepEqual(cell.site, { speedupMin: 0.9, speedupMax: 1.2, ti: true, shear: null });
  assert.match(cell.label, /on a site: speed-up 0\.90–1\.20, TI field/);
  assert.equal(cell.grossPerLayout, true);
  assert.ok(
    cell.grossAepMwh! > done.reduce((sum, r) => sum + r.aep, 0) / done.length && cell.wakeLossMean! > 0,
    `gross ${cell.grossAepMwh}, wake loss ${cell.wakeLossMean}`,
  );
});

test('a BullMQ coordinator and a queue worker (a redis-server of its own) give the local rows to the bit', {
  skip: hasRedisServer() ? false : 'redis-server is not installed',
  timeout: 300_000,
}, async () => {
  assert.ok(localRows, 'the local run ran first');
  redis = await RedisServer.start();
  const worker = startWorker(['--queue', redis.url, '--concurrency', '1']);
  assert.ok(await waitUntil(() => /job process(es)?, queue/.test(worker.log()), 30_000), worker.log());
  const out = path.join(dir, 'queue');
  const r = runWflo(['run', file, '--out', out, '--quiet'], { env: { WFLO_QUEUE: redis.url }, timeoutMs: 280_000 });
  assert.equal(r.status, 0, r.stderr);
  const queued = rows(out);
  assert.deepEqual(
    queued.map((q) => q.task_id),
    localRows!.map((l) => l.task_id),
  );
  queued.forEach((q, k) => {
    assert.equal(q.aep, localRows![k].aep, q.task_id);
    assert.deepEqual(Array.from(q.x), Array.from(localRows![k].x), q.task_id);
    assert.deepEqual(Array.from(q.y), Array.from(localRows![k].y), q.task_id);
  });
});
