/**
 * The ledger, outputs and locks never follow a symbolic link out of the output folder
 * (runner/outputEntries.ts, io/noSymlink.ts): a dangling `ledger.sqlite` link used to make SQLite
 * create the ledger at its target; a link to a file outside was written through. Each is refused
 * by `wflo run` (and status, export) with one line naming the link, exit 2, and nothing is made or
 * changed outside.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { noopCampaign, runWflo, tempDir, writeCampaign } from './runnerTestKit.js';

const dir = tempDir('outlinks');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A fresh case: an output folder holding the link `name` → `target`, and its campaign file. */
function withLink(tag: string, name: string, target: string): { out: string; file: string } {
  const out = path.join(dir, tag, 'out');
  fs.mkdirSync(out, { recursive: true });
  fs.symlinkSync(target, path.join(out, name));
  return { out, file: writeCampaign(path.join(dir, tag, 'campaign.yaml'), noopCampaign(out, 1)) };
}

function oneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0], pattern);
}

test('a dangling ledger.sqlite link: run refuses it, the ledger is not created at its target', async () => {
  const target = path.join(dir, 'elsewhere', 'ledger.sqlite');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const { out, file } = withLink('dangling', 'ledger.sqlite', target);
  const r = await runWflo(['run', file, '--quiet']);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  oneLine(r.stderr, /^wflo: .*out\/ledger\.sqlite is a symbolic link \(to ".*elsewhere\/ledger\.sqlite"\): wflo does not follow links out of an output folder/);
  assert.equal(fs.existsSync(target), false, 'no ledger made outside');
  assert.deepEqual(fs.readdirSync(path.dirname(target)), [], 'nothing made beside the target');
  assert.deepEqual(fs.readdirSync(out), ['ledger.sqlite'], 'no lock, audit log or layouts.h5 left in the folder');
  // Status reads the ledger: the link is said as such, not as a missing ledger.
  const s = await runWflo(['status', out]);
  assert.equal(s.code, 2, s.stdout + s.stderr);
  oneLine(s.stderr, /out\/ledger\.sqlite is a symbolic link/);
});

test('links to files outside (audit.jsonl, run.lock, layouts.h5, the WAL): refused, the outside file unchanged', async () => {
  for (const name of ['audit.jsonl', 'run.lock', 'layouts.h5', 'ledger.sqlite-wal', 'ledger.sqlite']) {
    const outside = path.join(dir, `outside-${name}`);
    fs.writeFileSync(outside, "not wflo's\n");
    const { out, file } = withLink(name, name, outside);
    const r = await runWflo(['run', file, '--quiet']);
    assert.equal(r.code, 2, `${name}: ${r.stdout}${r.stderr}`);
    oneLine(r.stderr, new RegExp(`out/${name.replace('.', '\\.')} is a symbolic link`));
    assert.equal(fs.readFileSync(outside, 'utf8'), "not wflo's\n", `${name}: the file outside is untouched`);
    assert.equal(fs.existsSync(path.join(out, 'ledger.sqlite')) && name !== 'ledger.sqlite', false, `${name}: no ledger was begun`);
  }
});

test('export of a folder whose layouts.h5 is a link: refused before anything is read or written', async () => {
  const out = path.join(dir, 'export', 'out');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const file = writeCampaign(path.join(dir, 'export', 'campaign.yaml'), noopCampaign(out, 1));
  const r = await runWflo(['run', file, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const outside = path.join(dir, 'outside-export.h5');
  fs.writeFileSync(outside, "not wflo's\n");
  fs.rmSync(path.join(out, 'layouts.h5'));
  fs.symlinkSync(outside, path.join(out, 'layouts.h5'));
  const e = await runWflo(['export', out]);
  assert.equal(e.code, 2, e.stdout + e.stderr);
  oneLine(e.stderr, /out\/layouts\.h5 is a symbolic link/);
  assert.equal(fs.readFileSync(outside, 'utf8'), "not wflo's\n");
  assert.equal(fs.lstatSync(path.join(out, 'layouts.h5')).isSymbolicLink(), true, 'the link is left as it was');
});
