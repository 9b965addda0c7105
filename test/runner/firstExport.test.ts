/**
 * A valid partial layouts.h5 exists within seconds of a run's first result, not only after the
 * configured export cadence (60 s by default): a coordinator SIGKILLed a few seconds in leaves a
 * file h5py reads, holding the results committed by then.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { hasH5py } from '../helpers.js';
import { ledgerSnapshot, noopCampaign, startWflo, tempDir, waitFor, writeCampaign } from './runnerTestKit.js';
import { layoutsRows } from '../gate/gateKit.js';

test('the first result is exported at once: SIGKILL a few seconds in leaves a valid partial layouts.h5', {
  skip: hasH5py() ? false : 'python3-h5py is not installed',
  timeout: 120_000,
}, async () => {
  const dir = tempDir('first-export');
  const out = path.join(dir, 'out');
  // 40 tasks of 1 s on one worker: the run lasts 40 s, the export cadence's 60 s is never reached.
  const c = noopCampaign(out, 10, { sleep_ms: 1000 });
  c.workers = 1;
  delete c.export; // the defaults: every 100 results or 60 s
  const child = startWflo(['run', writeCampaign(path.join(dir, 'c.yaml'), c), '--quiet']);
  const layouts = path.join(out, 'layouts.h5');
  // Timed from the first committed result (a loaded machine starts node slowly; that is not the point).
  const firstDone = () => {
    try {
      return ledgerSnapshot(out).done.length > 0;
    } catch {
      return false;
    }
  };
  assert.ok(await waitFor(firstDone, 60_000), 'no result committed within 60 s of the start');
  assert.ok(await waitFor(() => fs.existsSync(layouts), 15_000), 'no layouts.h5 within 15 s of the first result');
  child.kill('SIGKILL');
  await new Promise((r) => child.on('close', r));
  const rows = await layoutsRows(layouts);
  const done = ledgerSnapshot(out).done;
  assert.ok(rows.length >= 1 && rows.length <= done.length, `${rows.length} rows in the file, ${done.length} done`);
  assert.ok(done.length < 40, 'the run was killed before the end');
  for (const r of rows) assert.ok(done.includes(r.task_id));
});
