/**
 * `wflo run --dry-run`, `wflo validate`, `wflo cases`, and the exit-code / overwrite policy of the
 * non-shard commands (docs/inputs.md): a dry run reports done/stale/missing from an existing
 * ledger and leaves the output folder byte for byte unchanged; validate accepts every published
 * IEA37 file and says what it read; no command replaces a file wflo did not write without
 * --force; `wflo missing` exits 3 while tasks are missing; `status --watch` ends when no run is live.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { IEA37, REPO, runWflo, tempDir } from '../helpers.js';

/** Every file under `dir` with its sha256 (names and bytes: a new -wal or lock file shows). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    out[name] = fs.statSync(p).isDirectory() ? 'dir' : createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  }
  return out;
}

function campaign(out: string, seeds: number, farm1Width = 3000): Record<string, unknown> {
  return {
    name: 'dry',
    output: out,
    farms: [
      { id: 0, case: 'iea37-cs1-16' },
      {
        id: 1,
        boundary: {
          polygon: [
            [0, 0],
            [farm1Width, 0],
            [farm1Width, 2000],
            [0, 2000],
          ],
        },
        wind: 'iea37-cs1',
      },
    ],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 4 }],
    seeds: { start: 0, count: seeds },
    optimizer: { method: 'noop' },
    workers: 1,
  };
}

test('run --dry-run: counts per farm × type, done/stale/missing from the ledger, nothing written', () => {
  const dir = tempDir('wflo-dry-');
  const out = path.join(dir, 'out');
  const file = path.join(dir, 'c.yaml');
  fs.writeFileSync(file, stringify(campaign(out, 3)));
  const fresh = runWflo(['run', file, '--dry-run']);
  assert.equal(fresh.status, 0, fresh.stderr);
  assert.match(fresh.stdout, /6 tasks: 2 farms × 1 farm types × 3 seeds/);
  assert.match(fresh.stdout, /does not exist yet: every task would run/);
  assert.equal(fs.existsSync(out), false, 'no output folder created');

  assert.equal(runWflo(['run', file, '--quiet']).status, 0);
  // One more seed everywhere, and farm 1 edited: its 3 done tasks become stale.
  fs.writeFileSync(file, stringify(campaign(out, 4, 3500)));
  const before = snapshot(out);
  for (const args of [
    ['run', file, '--dry-run'],
    ['validate', file],
    ['validate', file, '--json'],
  ]) {
    const r = runWflo(args);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(snapshot(out), before, `${args.join(' ')}: the output folder is unchanged`);
  }
  const r = runWflo(['validate', file, '--json']);
  const report = JSON.parse(r.stdout);
  assert.deepEqual([report.tasks, report.done, report.stale, report.failed, report.missing], [8, 3, 3, 0, 2]);
  assert.deepEqual(
    report.groups.map((g: { farmId: number; done: number; stale: number; missing: number }) => [g.farmId, g.done, g.stale, g.missing]),
    [
      [0, 3, 0, 1],
      [1, 0, 3, 1],
    ],
  );
  assert.match(runWflo(['run', file, '--dry-run']).stdout, /a run would compute 5 tasks \(3 stale\); dry run: nothing written/);
});

test("validate detects the kind of every published IEA37 file and of wflo's own files", () => {
  const files: [string, RegExp][] = [
    [path.join(IEA37, 'cs1-2', 'iea37-335mw.yaml'), /valid turbine .*D = 130 m, hub 110 m, rated 3\.35 MW/],
    [path.join(IEA37, 'cs3-4', 'iea37-10mw.yaml'), /valid turbine .*D = 198 m, hub 119 m, rated 10 MW/],
    [path.join(IEA37, 'cs1-2', 'iea37-windrose.yaml'), /valid wind resource: 16 directions × 1 speeds/],
    [path.join(IEA37, 'cs3-4', 'iea37-windrose-cs4.yaml'), /valid wind resource: 360 directions × 20 speeds/],
    [path.join(IEA37, 'cs3-4', 'iea37-boundary-cs4.yaml'), /valid boundary: multipolygon/],
    [path.join(IEA37, 'cs1-2', 'iea37-ex16.yaml'), /valid layout of 16 turbines/],
    [path.join(REPO, 'examples', 'demo.yaml'), /campaign demo .*: valid/],
    // windIO's published IEA37 files (test/data/windio), read by io/windio/.
    [path.join(REPO, 'test', 'data', 'windio', 'plant', 'wind_energy_system', 'IEA37_case_study_3_wind_energy_system.yaml'), /valid case .*25 turbines/],
    [
      path.join(REPO, 'test', 'data', 'windio', 'plant', 'plant_energy_site', 'IEA37_case_study_1_2_energy_site.yaml'),
      /valid windIO site: circle boundary, 16 directions × 1 speeds wind/,
    ],
    [path.join(REPO, 'test', 'data', 'windio', 'plant', 'plant_energy_turbine', 'IEA37_15MW_turbine.yaml'), /valid turbine .*D = 240 m, hub 150 m/],
  ];
  for (const [f, re] of files) {
    const r = runWflo(['validate', f]);
    assert.equal(r.status, 0, `${f}: ${r.stderr}`);
    assert.match(r.stdout, re, f);
  }
  const dir = tempDir('wflo-validate-');
  const c = path.join(dir, 'case.yaml');
  fs.writeFileSync(
    c,
    'base: iea37-cs1-16\nboundary: {polygon: [[-1500, -1500], [1500, -1500], [1500, 1500], [-1500, 1500]], holes: [[[-100, -100], [100, -100], [100, 100]]]}\n',
  );
  const r = runWflo(['validate', c, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.kind, 'case');
  assert.deepEqual(j.boundary.exclusions, ['hole 1']);
  assert.equal(runWflo(['validate', c, '--kind', 'bogus']).status, 2);
});

test('cases lists the built-in cases with the published parameters', () => {
  const r = runWflo(['cases', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const cs1 = j.cases.find((c: { name: string }) => c.name === 'iea37-cs1-16');
  // IEA Wind Task 37 case study 1: 16 turbines in a 1300 m circle, D = 130 m, 3.35 MW.
  assert.equal(cs1.n_turbines, 16);
  assert.equal(cs1.boundary.radius_m, 1300);
  const t = j.turbines.find((x: { name: string }) => x.name === 'iea37-3.35mw');
  assert.deepEqual([t.rotor_diameter_m, t.hub_height_m, t.rated_power_w], [130, 110, 3.35e6]);
  assert.equal(j.winds.find((w: { name: string }) => w.name === 'iea37-cs3').directions, 20);
  assert.match(runWflo(['cases']).stdout, /iea37-cs4 +81 × iea37-10mw/);
});

test('overwrite policy, missing exits 3, status --watch ends when no run is live', () => {
  const dir = tempDir('wflo-policy-');
  const out = path.join(dir, 'out');
  const file = path.join(dir, 'c.yaml');
  // Seed 1 fails (noop's fault injection) and is not retried: 2 of 4 tasks stay not done.
  fs.writeFileSync(file, stringify({ ...campaign(out, 2), optimizer: { method: 'noop', fail_seeds: [1] }, attempts: 1 }));
  assert.equal(runWflo(['run', file, '--quiet']).status, 1);
  const missing = runWflo(['missing', out]);
  assert.equal(missing.status, 3, missing.stderr);
  assert.match(missing.stderr, /2 of 4 tasks not done \(0 pending, 0 stale, 2 failed\)/);

  // Someone's file: not replaced without --force.
  const theirs = path.join(dir, 'theirs.h5');
  fs.writeFileSync(theirs, 'precious');
  const refused = runWflo(['export', out, '-o', theirs]);
  assert.equal(refused.status, 2, refused.stderr);
  assert.match(refused.stderr, /^wflo: -o .*theirs\.h5: the file exists and was not written by wflo; not replaced \(give --force to replace it\)\n$/);
  assert.equal(fs.readFileSync(theirs, 'utf8'), 'precious');
  assert.equal(runWflo(['export', out, '-o', theirs, '--force']).status, 0);
  assert.equal(runWflo(['export', out, '-o', theirs]).status, 0, 'a file wflo wrote may be rewritten');
  const notes = path.join(dir, 'notes.yaml');
  fs.writeFileSync(notes, 'my: notes\n');
  const opt = runWflo(['optimize', 'iea37-cs1-16', '--method', 'none', '--out', notes]);
  assert.equal(opt.status, 2, opt.stderr);
  assert.equal(fs.readFileSync(notes, 'utf8'), 'my: notes\n');
  const mine = path.join(dir, 'mine.yaml');
  assert.equal(runWflo(['optimize', 'iea37-cs1-16', '--method', 'none', '--out', mine]).status, 0);
  assert.equal(runWflo(['optimize', 'iea37-cs1-16', '--method', 'none', '--out', mine]).status, 0, 'its own output is replaced');
  const write = runWflo(['missing', out, '--write', notes]);
  assert.equal(write.status, 2, write.stderr);

  const watch = runWflo(['status', out, '--watch', '--interval', '0.2'], { timeoutMs: 20_000 });
  assert.equal(watch.status, 0, watch.stderr);
  assert.match(watch.stdout, /--watch ends/);
});
