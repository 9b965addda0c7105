/**
 * The report's numbers, aggregated in SQL, against the same results read back from layouts.h5:
 * per-cell counts, min, max, mean, nearest-rank quartiles, best and worst task, histogram totals;
 * gross AEP of IEA37 cs1 cells against 3.35 MW × 8760 h per turbine (every cs1 turbine alone runs
 * at rated power); throughput totals against the audit log's done attempts.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readLayoutsFile } from '../../src/io/hdf5/index.js';
import { readCampaignView } from '../../src/views/campaignData.js';
import { readAuditLog } from '../../src/runner/auditLog.js';
import { runCampaign, runWflo, tempDir, writeNoopCampaign } from './viewsTestKit.js';

test('campaign view statistics match the exported rows', async () => {
  const dir = tempDir('wflo-view-');
  const { file, out } = writeNoopCampaign(dir, 'stats', 7, { fail_seeds: [5] });
  runCampaign(file, out);
  assert.equal(runWflo(['export', out]).status, 0);
  const { records } = await readLayoutsFile(path.join(out, 'layouts.h5'));
  const view = await readCampaignView(out);
  assert.equal(view.status.done, records.length);
  assert.equal(view.status.failed, 4);
  assert.equal(view.cells.length, 4);
  for (const cell of view.cells) {
    const rows = records.filter((r) => r.farmId === cell.farmId && r.farmType === cell.farmType).sort((a, b) => a.aep - b.aep);
    const aeps = rows.map((r) => r.aep);
    assert.equal(cell.done, 6);
    assert.equal(cell.failed, 1);
    assert.ok(cell.aep);
    assert.equal(cell.aep.n, 6);
    assert.equal(cell.aep.min, aeps[0]);
    assert.equal(cell.aep.max, aeps[5]);
    assert.ok(Math.abs(cell.aep.mean - aeps.reduce((s, a) => s + a, 0) / 6) < 1e-6);
    // Nearest rank, lower: index floor((n − 1) p).
    assert.equal(cell.aep.q1, aeps[1]);
    assert.equal(cell.aep.median, aeps[2]);
    assert.equal(cell.aep.q3, aeps[3]);
    assert.equal(cell.best?.taskId, rows[5].taskId);
    assert.equal(cell.worst?.taskId, rows[0].taskId);
    const binned = view.histogram.filter((b) => b.farmId === cell.farmId && b.farmType === cell.farmType);
    assert.equal(
      binned.reduce((s, b) => s + b.count, 0),
      6,
    );
    for (const b of binned) assert.ok(b.lo >= aeps[0] - 1e-6 && b.hi <= aeps[5] + 1e-6);
    const nTurbines = cell.farmType === 0 ? 6 : 9;
    assert.equal(cell.nTurbines, nTurbines);
    assert.ok(Math.abs(cell.grossAepMwh - nTurbines * 3.35 * 8760) < 1e-6, `gross of ${cell.label}`);
    assert.ok(Math.abs(cell.wakeLossMean! - (1 - cell.aep.mean / cell.grossAepMwh)) < 1e-12);
    assert.ok(Math.abs(cell.capacityFactorMean! - cell.aep.mean / (nTurbines * 3.35 * 8760)) < 1e-12);
  }
  const doneAttempts = readAuditLog(out).filter((e) => e.event === 'attempt' && e.outcome === 'done').length;
  assert.equal(
    view.throughput.buckets.reduce((s, b) => s + b.done, 0),
    doneAttempts,
  );
  assert.equal(
    view.throughput.buckets.reduce((s, b) => s + b.failed, 0),
    4,
  );
  assert.equal(view.failures.length, 4);
  assert.equal(view.layouts.length, 8, 'best and worst of 4 cells');
});
