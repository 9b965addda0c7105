/**
 * `--json` on the commands that end with a summary (`run`, `shards merge`, `report`, `export`,
 * `plot`, `ledger rebuild`): stdout holds exactly one JSON object, the human line goes to stderr,
 * and the numbers in it are what the files hold, counted by h5py (Debian's python3-h5py) or the
 * file system, not by wflo.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { PYTHON, hasH5py, runWflo, tempDir } from '../helpers.js';
import { DEFAULT_ADOPTION_CAMPAIGN, writeAdoptionIncident } from '../shards/helpers/adoptionIncident.js';

let dir: string;
const campaignFile = () => path.join(dir, 'campaign.yaml');
const out = () => path.join(dir, 'out');

before(() => {
  dir = tempDir('wflo-json-');
  fs.writeFileSync(
    campaignFile(),
    stringify({
      name: 'json',
      output: 'out',
      farms: [
        { id: 0, case: 'iea37-cs1-16' },
        {
          id: 1,
          boundary: {
            polygon: [
              [0, 0],
              [3000, 0],
              [3000, 2000],
              [0, 2000],
            ],
          },
          wind: 'iea37-cs1',
        },
      ],
      farm_types: [
        { id: 0, turbine: 'iea37-3.35mw', n_turbines: 6 },
        { id: 1, turbine: 'iea37-3.35mw', n_turbines: 4 },
      ],
      seeds: { start: 0, count: 3 },
      optimizer: { method: 'noop' },
      workers: 2,
    }),
  );
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** stdout must be one JSON object on one line. */
function oneObject(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `stdout holds ${lines.length} lines:\n${stdout}`);
  const v = JSON.parse(lines[0]) as unknown;
  assert.ok(v !== null && typeof v === 'object' && !Array.isArray(v));
  return v as Record<string, unknown>;
}

/** Rows of an HDF5 file's /task_id as h5py reads them. */
function h5pyRows(file: string): number {
  const r = spawnSync(PYTHON, ['-c', 'import h5py, sys\nwith h5py.File(sys.argv[1], "r") as f: print(len(f["task_id"]))', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout.trim());
}

test('run --json: the summary as one object, the line on stderr; --dry-run --json the dry-run report', (t) => {
  const dry = runWflo(['run', campaignFile(), '--dry-run', '--json']);
  assert.equal(dry.status, 0, dry.stderr);
  assert.equal(oneObject(dry.stdout).kind, 'campaign');
  const r = runWflo(['run', campaignFile(), '--json', '--quiet']);
  assert.equal(r.status, 0, r.stderr);
  const s = oneObject(r.stdout);
  assert.deepEqual([s.campaign, s.total, s.done, s.doneThisRun, s.failed, s.stopReason], ['json', 12, 12, 12, 0, 'complete']);
  assert.match(r.stderr, /json: 12\/12 done \(12 this run\)/);
  const layouts = s.layoutsFile as string;
  assert.equal(path.resolve(layouts), path.resolve(out(), 'layouts.h5'));
  if (!hasH5py()) {
    t.diagnostic('h5py not importable: rows not counted independently');
    return;
  }
  assert.equal(h5pyRows(layouts), 12);
  assert.equal((s.exported as { rows: number }).rows, 12);
});

test('report, export, plot and ledger rebuild --json: what was written, as the files say', (t) => {
  const report = runWflo(['report', out(), '-o', path.join(dir, 'r.html'), '--json']);
  assert.equal(report.status, 0, report.stderr);
  const r = oneObject(report.stdout);
  assert.equal(r.bytes, fs.statSync(path.join(dir, 'r.html')).size);
  assert.deepEqual([r.done, r.total, r.failed], [12, 12, 0]);
  assert.match(report.stderr, /^wrote /);
  const exported = runWflo(['export', out(), '-o', path.join(dir, 'copy.h5'), '--json']);
  assert.equal(exported.status, 0, exported.stderr);
  const e = oneObject(exported.stdout);
  assert.equal(e.bytes, fs.statSync(path.join(dir, 'copy.h5')).size);
  if (hasH5py()) assert.equal(h5pyRows(path.join(dir, 'copy.h5')), e.rows);
  else t.diagnostic('h5py not importable: export rows not counted independently');
  const plot = runWflo(['plot', out(), '--task', 'farm_0_type_0_seed_1', '-o', path.join(dir, 'p.svg'), '--json']);
  assert.equal(plot.status, 0, plot.stderr);
  const p = oneObject(plot.stdout) as { file: string; layouts: { nTurbines: number }[] };
  assert.ok(fs.statSync(p.file).size > 0);
  assert.deepEqual(
    p.layouts.map((l) => l.nTurbines),
    [6],
  );
  const ledger = runWflo(['ledger', 'rebuild', out(), '--json']);
  assert.equal(ledger.status, 0, ledger.stderr);
  assert.deepEqual(oneObject(ledger.stdout), { dir: out(), rebuilt: false, problem: null });
});

test('shards merge --json: one object on stdout (exit 3: problems left), the text summary on stderr', (t) => {
  if (!hasH5py()) {
    t.skip('h5py not importable (apt-get install python3-h5py)');
    return;
  }
  const rescue = path.join(dir, 'rescue');
  fs.mkdirSync(rescue);
  const campaign = path.join(rescue, 'campaign.yaml');
  fs.writeFileSync(campaign, stringify(DEFAULT_ADOPTION_CAMPAIGN));
  writeAdoptionIncident(path.join(rescue, 'workers'), campaign);
  const files = fs.readdirSync(path.join(rescue, 'workers')).length;
  const output = path.join(rescue, 'rescued.h5');
  const r = runWflo(['shards', 'merge', path.join(rescue, 'workers'), '-o', output, '--on-invalid', 'skip', '--expect', campaign, '--json']);
  assert.equal(r.status, 3, r.stderr);
  const m = oneObject(r.stdout) as { outcome: string; files: unknown[]; summary: { rows: number; problems: boolean } };
  assert.equal(m.outcome, 'merged');
  assert.equal(m.files.length, files);
  assert.equal(m.summary.problems, true);
  assert.equal(m.summary.rows, h5pyRows(output));
  assert.match(r.stderr, /wflo shards merge, /);
});
