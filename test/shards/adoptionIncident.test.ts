/**
 * Issue 8's rescue incident (helpers/adoptionIncident.ts, written by h5py): `shards check
 * --expect` names every bad file and every bad record with its reason; `merge --expect` keeps
 * exactly the good records (values as `wflo run` computes them), reports each bad one, takes
 * files and folders together and exits 3 because it left problems; `missing --expect` lists
 * exactly the tasks left to compute. Without --expect only the non-finite record is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { writeAdoptionIncident } from './helpers/adoptionIncident.js';
import { H5PY_SKIP_MESSAGE, dumpWithH5py, h5pyPython } from './helpers/python.js';
import { wflo } from './helpers/runCli.js';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

test('incident folder: check --expect names each problem, merge --expect keeps exactly the good records', async (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-adopt-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, 'shards');
  const incident = writeAdoptionIncident(dir, path.join(root, 'campaign.yaml'));
  // A second input: the killed worker's file moved to another folder, named on its own.
  const late = path.join(root, 'late');
  fs.mkdirSync(late);
  for (const name of incident.recoveredFiles) fs.renameSync(path.join(dir, name), path.join(late, name));
  const inputs = [dir, ...incident.recoveredFiles.map((name) => path.join(late, name))];
  const before = new Map(fs.readdirSync(dir).map((name) => [name, digest(path.join(dir, name))]));
  const lateBefore = incident.recoveredFiles.map((name) => digest(path.join(late, name)));

  // check --expect: exit 3, every file with its class, every rejected record on its own line.
  const check = await wflo(['shards', 'check', ...inputs, '--expect', incident.campaignFile]);
  assert.equal(check.code, 3, check.stderr);
  for (const [name, cls] of incident.classes) {
    if (cls !== 'valid')
      assert.match(check.stdout, new RegExp(`^  (late/|shards/)?${escapeRegExp(name)}: ${cls} - `, 'm'), `${name} is ${cls}\n${check.stdout}`);
  }
  for (const r of incident.rejected) {
    const line = check.stdout.split('\n').find((l) => l.startsWith(`  ${r.taskId}: `));
    assert.ok(line, `${r.taskId} listed\n${check.stdout}`);
    const reason = line.slice(`  ${r.taskId}: `.length).replace(/ \(shards\/worker_\d+\.h5, optimized_layouts\/\S+\)$/, '');
    assert.match(reason, r.reason, line);
  }
  assert.match(check.stdout, new RegExp(`rejected records \\(${incident.rejected.length}\\):`));
  assert.match(check.stdout, new RegExp(`  ${incident.duplicateTaskId}: identical in `));
  for (const name of incident.recoveredFiles) assert.match(check.stdout, new RegExp(`late/${escapeRegExp(name)}: valid \\(2 records\\) - .*as h5clear -s`));
  assert.match(
    check.stdout,
    new RegExp(`records: ${incident.good.size + 1} usable \\(${incident.good.size} distinct tasks\\), 0 unusable, ${incident.rejected.length} rejected`),
  );

  // Without --expect the farm model is unknown: only the non-finite coordinate is refused.
  const plain = await wflo(['shards', 'check', ...inputs, '--json']);
  assert.equal(plain.code, 3, plain.stderr + plain.stdout);
  const plainReport = JSON.parse(plain.stdout) as { files: Array<{ lost: Array<{ taskId?: string; rejected?: boolean }> }> };
  const plainRejected = plainReport.files.flatMap((f) => f.lost.filter((l) => l.rejected).map((l) => l.taskId)).sort();
  assert.deepEqual(
    plainRejected,
    incident.rejected
      .filter((r) => r.rejectedWithoutExpect)
      .map((r) => r.taskId)
      .sort(),
  );

  // merge --expect, default --on-invalid abort: nothing written, exit 3.
  const merged = path.join(root, 'rescued.h5');
  const aborted = await wflo(['shards', 'merge', ...inputs, '--expect', incident.campaignFile, '-o', merged]);
  assert.equal(aborted.code, 3, aborted.stderr);
  assert.match(aborted.stderr, /merge aborted: \d+ invalid files/);
  assert.equal(fs.existsSync(merged), false);

  // --on-invalid quarantine: the good records only, each bad one reported, exit 3 (problems left).
  const merge = await wflo(['shards', 'merge', ...inputs, '--expect', incident.campaignFile, '-o', merged, '--on-invalid', 'quarantine']);
  assert.equal(merge.code, 3, merge.stderr);
  for (const r of incident.rejected) assert.match(merge.stdout, new RegExp(`^  ${r.taskId}: .* \\(shards/worker_05\\.h5, `, 'm'));
  assert.match(merge.stdout, new RegExp(`output:  ${escapeRegExp(merged)}: ${incident.good.size} rows, .*verified`));
  assert.match(merge.stdout, /problems found \(exit 3\)/);
  const { records } = await readLayoutsFile(merged);
  assert.deepEqual(records.map((r) => r.taskId).sort(), [...incident.good.keys()].sort());
  for (const r of records) {
    const expected = incident.good.get(r.taskId)!;
    assert.equal(r.aep, expected.aep, r.taskId);
    assert.deepEqual(r.x, expected.x, r.taskId);
    assert.deepEqual(r.y, expected.y, r.taskId);
  }
  const dump = dumpWithH5py(merged);
  assert.equal(dump.attrs.campaign_name.value, 'adoption');
  assert.equal(dump.attrs.n_expected.value, incident.tasks.length);
  assert.equal(dump.attrs.complete.value, 0);
  assert.equal((dump.datasets.aep.shape as number[])[0], incident.good.size);

  // Only the empty and the truncated file moved to quarantine (byte-identical); nothing else touched.
  const invalid = [...incident.classes]
    .filter(([, c]) => c === 'empty' || c === 'truncated')
    .map(([n]) => n)
    .sort();
  assert.deepEqual(fs.readdirSync(path.join(dir, 'quarantine')).sort(), invalid);
  for (const name of invalid) assert.equal(digest(path.join(dir, 'quarantine', name)), before.get(name));
  for (const [name, hash] of before) if (!invalid.includes(name)) assert.equal(digest(path.join(dir, name)), hash, `${name} untouched`);
  assert.deepEqual(
    incident.recoveredFiles.map((name) => digest(path.join(late, name))),
    lateBefore,
    'the killed file is never modified',
  );

  // missing --expect: exactly the tasks with no good record.
  const missing = await wflo(['shards', 'missing', '--expect', incident.campaignFile, '--from', merged]);
  assert.equal(missing.code, 3, missing.stderr);
  assert.deepEqual(missing.stdout.trim().split('\n').sort(), incident.missing);
});
