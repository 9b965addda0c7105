/** The README's demo: examples/demo.yaml runs end to end (into a temp folder via --out). */
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { runWflo, tempDir } from './runnerTestKit.js';

const DEMO = path.resolve(fileURLToPath(new URL('../../../examples/demo.yaml', import.meta.url)));

test('examples/demo.yaml runs end to end with the real optimizer', { timeout: 300_000 }, async () => {
  const out = path.join(tempDir('demo'), 'out');
  const r = await runWflo(['run', DEMO, '--out', out, '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const { info, records } = await readLayoutsFile(path.join(out, 'layouts.h5'));
  assert.equal(records.length, 16);
  assert.equal(info.complete, true);
  assert.equal(info.campaignName, 'demo');
  for (const rec of records) {
    assert.equal(rec.nTurbines, rec.farmType === 0 ? 9 : 16);
    assert.ok(rec.aep > rec.aepInitial, `${rec.taskId}: optimized AEP ${rec.aep} above its start ${rec.aepInitial}`);
    const radius = rec.farmId === 0 ? 1300 : 2000;
    for (let i = 0; i < rec.nTurbines; i++) assert.ok(Math.hypot(rec.x[i], rec.y[i]) <= radius + 1e-6, `${rec.taskId} turbine ${i} inside the site`);
  }
});
