/**
 * `wflo run --dry-run` counts what the run would adopt back first: after a lost ledger it says how
 * many finished tasks layouts.h5 and audit.jsonl still hold (verified, as the run would), and the
 * real run then adopts exactly those and computes only the rest; the dry run writes nothing.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { noopCampaign, tempDir, writeCampaign } from './runnerTestKit.js';
import { wflo } from '../gate/gateKit.js';

function folderBytes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of fs.readdirSync(dir)) {
    const p = path.join(dir, f);
    if (fs.statSync(p).isFile()) out.set(f, fs.readFileSync(p).toString('base64'));
  }
  return out;
}

test('dry run after a lost ledger: counts the tasks the run adopts back, and the run agrees', { timeout: 120_000 }, async () => {
  const dir = tempDir('dry-recover');
  const out = path.join(dir, 'out');
  const file = writeCampaign(path.join(dir, 'c.yaml'), noopCampaign(out, 6));
  const first = await wflo(['run', file, '--quiet']);
  assert.equal(first.code, 0, first.stderr);
  for (const f of ['ledger.sqlite', 'ledger.sqlite-wal', 'ledger.sqlite-shm']) fs.rmSync(path.join(out, f), { force: true });
  const before = folderBytes(out);
  const dry = await wflo(['run', file, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual(folderBytes(out), before, 'the dry run wrote nothing');
  const m = /a run would adopt back (\d+) from layouts\.h5 and (\d+) from audit\.jsonl \(verified, not recomputed\)/.exec(dry.stdout);
  assert.ok(m, dry.stdout);
  assert.equal(Number(m[1]) + Number(m[2]), 24);
  assert.match(dry.stdout, /a run would compute 0 tasks/);
  const run = await wflo(['run', file, '--log-every', '1000']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, new RegExp(`adopted back ${m[1]} from layouts\\.h5 and ${m[2]} from audit\\.jsonl`));
  assert.match(run.stdout, /24\/24 done \(0 this run\)/);
});
