/**
 * Bad input exits 2 with one line; an unwritable output folder or a full disk exits 1 with one
 * line; in every case an existing ledger and layouts.h5 stay intact.
 */
import test, { describe, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { stringify } from 'yaml';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { EXECUTORS, executorHooks, executorUnavailable, ledgerSnapshot, noopCampaign, runWflo, tempDir, writeCampaign } from './runnerTestKit.js';

/** Tests of the executor contract (issue 9): registered once per executor, at the end. */
const contractTests: [string, (t: TestContext) => Promise<void>][] = [];
function contract(name: string, fn: (t: TestContext) => Promise<void>): void {
  contractTests.push([name, fn]);
}

function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['ledger.sqlite', 'layouts.h5']) {
    const p = path.join(dir, name);
    if (fs.existsSync(p)) out[name] = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  }
  return out;
}

function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.length > 0);
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
  assert.match(lines[0], /^wflo: /);
  return lines[0];
}

contract('bad campaign input: one line, exit 2, ledger and output untouched', async () => {
  const dir = tempDir('bad');
  const out = path.join(dir, 'out');
  const good = noopCampaign(out, 2);
  const goodFile = writeCampaign(path.join(dir, 'good.yaml'), good);
  assert.equal((await runWflo(['run', goodFile, '--quiet'])).code, 0);
  const before = digest(out);
  assert.ok(before['ledger.sqlite'] && before['layouts.h5']);

  const text = stringify(good);
  const cases: [string, string, RegExp][] = [
    ['malformed YAML', text.replace('farm_types:', 'farm_types: [\n  {'), /malformed YAML/],
    ['unknown turbine', text.replace('turbine: iea37-10mw', 'turbine: acme-15mw'), /farm_types\[1\]\.turbine: unknown turbine 'acme-15mw'/],
    [
      'self-intersecting polygon',
      stringify({
        ...good,
        farms: [
          {
            id: 0,
            boundary: {
              polygon: [
                [0, 0],
                [1000, 1000],
                [1000, 0],
                [0, 1000],
              ],
            },
            wind: 'iea37-cs1',
          },
        ],
      }),
      /bad\.yaml:\d+: farms\[0\]\.boundary: .*self-intersect/i,
    ],
    ['empty seed list', stringify({ ...good, seeds: [] }), /seeds: must contain at least one seed/],
    ['negative turbine count', text.replace('n_turbines: 4', 'n_turbines: -4'), /farm_types\[1\]\.n_turbines: must be an integer >= 1, got -4/],
    ['negative seed count', stringify({ ...good, seeds: { start: 0, count: -1 } }), /seeds\.count: must be an integer >= 1, got -1/],
  ];
  for (const [what, body, expected] of cases) {
    const file = writeCampaign(path.join(dir, 'bad.yaml'), body);
    const r = await runWflo(['run', file]);
    assert.equal(r.code, 2, `${what}: ${r.stderr}`);
    const line = oneLine(r.stderr);
    assert.match(line, /bad\.yaml(:\d+)?: /, `${what}: names the file`);
    assert.match(line, expected, what);
    assert.deepEqual(digest(out), before, `${what}: ledger and layouts.h5 unchanged`);
  }
  const usage = await runWflo(['run', goodFile, '--workers', '-1']);
  assert.equal(usage.code, 2);
  assert.match(oneLine(usage.stderr), /--workers: expected an integer >= 1, got '-1'/);
  const missing = await runWflo(['run', path.join(dir, 'nope.yaml')]);
  assert.equal(missing.code, 2);
  assert.match(oneLine(missing.stderr), /nope\.yaml: campaign file not found/);
  const otherCampaign = writeCampaign(path.join(dir, 'other.yaml'), { ...good, name: 'another' });
  const clash = await runWflo(['run', otherCampaign]);
  assert.equal(clash.code, 2);
  assert.match(oneLine(clash.stderr), /holds campaign 'test-campaign', not 'another'/);
  assert.deepEqual(digest(out), before);
});

/** Mount a tmpfs (root only); null when this machine does not allow it. */
function mountTmpfs(target: string, options: string): boolean {
  try {
    fs.mkdirSync(target, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', target], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function unmount(target: string): void {
  try {
    execFileSync('umount', ['-l', target], { stdio: 'ignore' });
  } catch {
    /* already gone */
  }
}

contract('unwritable output folder: one line, exit 1, existing ledger intact', async (t) => {
  const dir = tempDir('ro');
  const mnt = path.join(dir, 'mnt');
  if (!mountTmpfs(mnt, 'size=8m')) {
    t.skip('cannot mount a tmpfs here (needs root); read-only output folder not tested');
    return;
  }
  try {
    const out = path.join(mnt, 'out');
    const file = writeCampaign(path.join(dir, 'c.yaml'), noopCampaign(out, 2));
    assert.equal((await runWflo(['run', file, '--quiet'])).code, 0);
    const more = writeCampaign(path.join(dir, 'more.yaml'), noopCampaign(out, 4));
    execFileSync('mount', ['-o', 'remount,ro', mnt]);
    const before = digest(out);
    const r = await runWflo(['run', more]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(oneLine(r.stderr), /cannot write in output folder .*out \(EROFS\)/);
    assert.deepEqual(digest(out), before);
    const fresh = writeCampaign(path.join(dir, 'fresh.yaml'), noopCampaign(path.join(mnt, 'new-out'), 2));
    const r2 = await runWflo(['run', fresh]);
    assert.equal(r2.code, 1);
    assert.match(oneLine(r2.stderr), /cannot create output folder .*new-out \(EROFS\)/);
    execFileSync('mount', ['-o', 'remount,rw', mnt]);
    assert.equal(ledgerSnapshot(out).integrity, 'ok');
    assert.equal(ledgerSnapshot(out).done.length, 8);
  } finally {
    unmount(mnt);
  }
});

contract('disk full (ENOSPC) during a run: one line, exit 1, ledger consistent, layouts.h5 valid', async (t) => {
  const dir = tempDir('enospc');
  const mnt = path.join(dir, 'mnt');
  if (!mountTmpfs(mnt, 'size=3m')) {
    t.skip('cannot mount a small tmpfs here (needs root); disk-full handling not tested');
    return;
  }
  try {
    const out = path.join(mnt, 'out');
    const c = noopCampaign(out, 400);
    c.farms = [{ id: 0, boundary: { circle: { center: [0, 0], radius: 5000 } }, wind: 'iea37-cs1' }];
    c.farm_types = [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 150 }];
    c.export = { every_results: 50, every_s: 1 };
    const file = writeCampaign(path.join(dir, 'c.yaml'), c);
    const r = await runWflo(['run', file, '--quiet']);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.match(lines[lines.length - 1], /^wflo: .*(disk full|ENOSPC|no space left)/i);
    const snap = ledgerSnapshot(out);
    assert.equal(snap.integrity, 'ok');
    assert.ok(snap.done.length > 0 && snap.done.length < 400, `done ${snap.done.length}`);
    assert.equal(snap.resultRows, snap.done.length);
    if (fs.existsSync(path.join(out, 'layouts.h5'))) {
      const { records } = await readLayoutsFile(path.join(out, 'layouts.h5'));
      assert.ok(records.length <= snap.done.length);
    }
    const leftovers = fs.readdirSync(out).filter((n) => n.includes('.tmp-'));
    assert.deepEqual(leftovers, [], 'no temp files left behind');
  } finally {
    unmount(mnt);
  }
});

for (const executor of EXECUTORS) {
  describe(`executor contract: ${executor}`, { skip: executorUnavailable(executor) }, () => {
    executorHooks(executor);
    for (const [name, fn] of contractTests) test(name, fn);
  });
}
