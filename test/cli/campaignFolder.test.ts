/**
 * `wflo status`, `report`, `missing` and `dashboard` take the campaign file as well as its output
 * folder (src/runner/campaignFolder.ts), as `wflo slurm status` and `collect` do: the file's
 * `output:` is the folder. A campaign file that names no output, or a file that is not there,
 * is one line and exit 2.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { runWflo, tempDir } from '../helpers.js';

let dir: string;
const campaign = {
  name: 'folder-of',
  output: 'results/here',
  farms: [{ id: 0, case: 'iea37-cs1-16' }],
  farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 5 }],
  seeds: { start: 0, count: 4 },
  optimizer: { method: 'noop' },
  workers: 1,
};
before(() => {
  dir = tempDir('wflo-folder-of-');
  fs.writeFileSync(path.join(dir, 'c.yaml'), stringify(campaign));
  const r = runWflo(['run', path.join(dir, 'c.yaml'), '--quiet']);
  assert.equal(r.status, 0, r.stderr);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('status, missing and report of the campaign file read its output folder', () => {
  const folder = path.join(dir, 'results', 'here');
  const byFile = runWflo(['status', path.join(dir, 'c.yaml'), '--json']);
  const byFolder = runWflo(['status', folder, '--json']);
  assert.equal(byFile.status, 0, byFile.stderr);
  const s = JSON.parse(byFile.stdout) as { campaign: string; done: number; total: number };
  assert.deepEqual([s.campaign, s.done, s.total], ['folder-of', 4, 4]);
  // The same status, but for the clock (how long ago the last run's heartbeat was).
  const steady = (out: string) => {
    const v = JSON.parse(out) as { run?: { heartbeatAgeS?: number } };
    delete v.run?.heartbeatAgeS;
    return v;
  };
  assert.deepEqual(steady(byFile.stdout), steady(byFolder.stdout));
  const missing = runWflo(['missing', path.join(dir, 'c.yaml'), '--json']);
  assert.equal(missing.status, 0, missing.stderr);
  assert.deepEqual(JSON.parse(missing.stdout), []);
  const html = path.join(dir, 'r.html');
  const report = runWflo(['report', path.join(dir, 'c.yaml'), '-o', html]);
  assert.equal(report.status, 0, report.stderr);
  assert.ok(fs.readFileSync(html, 'utf8').includes('folder-of'));
});

test('a campaign file without output:, and a file that is not there: one line, exit 2', () => {
  const { output: _, ...noOutput } = campaign;
  fs.writeFileSync(path.join(dir, 'no-output.yaml'), stringify(noOutput));
  for (const [args, message] of [
    [['status', path.join(dir, 'no-output.yaml')], /no-output\.yaml: output: missing/],
    [['report', path.join(dir, 'gone.yaml')], /gone\.yaml: no such file/],
    [['dashboard', path.join(dir, 'gone.yaml')], /gone\.yaml: no such file/],
  ] as const) {
    const r = runWflo([...args]);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, message);
  }
});
