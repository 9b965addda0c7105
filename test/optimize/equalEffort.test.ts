/**
 * An LCOE run is the AEP run of the same start and settings plus one stage (optimizeLayout.ts): the
 * gradient method runs the wake-expansion stages and a restart stage on energy for both, then, under
 * a cost objective, one stage on the objective itself, kept only when it is no worse by it. On a small
 * offshore farm with the real DTU cost model (IEA37 cs1-16, a sloping sea floor, one substation, two
 * 66 kV cable types; docs/cost.md), from the same seeds: the runs share every stage but the cost
 * stage (the same evaluation counts after each), the LCOE run's layout never has a higher LCOE than
 * the AEP run's (each LCOE the cost model's on a fresh routing of the returned layout), and in some
 * seed the cost stage lowers it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadCase } from '../../src/io/caseFile.js';
import { optimizeCase } from '../../src/optimize/optimizeCase.js';
import type { Case } from '../../src/case/case.js';
import { tempDir } from '../helpers.js';

function smallOffshoreCase(): Case {
  const dir = tempDir('wflo-equal-effort-');
  const rows = ['x,y,depth'];
  for (let i = -2; i <= 2; i++) {
    for (let j = -2; j <= 2; j++) rows.push(`${i * 800},${j * 800},${30 + 0.006 * i * 800 - 0.004 * j * 800 + 3 * ((((i + j) % 2) + 2) % 2)}`);
  }
  fs.writeFileSync(path.join(dir, 'depth.csv'), rows.join('\n') + '\n');
  fs.writeFileSync(
    path.join(dir, 'small.yaml'),
    [
      'name: small-offshore',
      'base: iea37-cs1-16',
      'economics:',
      '  energy_price_eur_per_mwh: 60',
      '  discount_rate: 0.06',
      '  project_years: 25',
      '  distance_from_shore_km: 22',
      '  bathymetry: depth.csv',
      '  substations: [[0, 0]]',
      '  cables:',
      '    - {name: xlpe-66kv-240, capacity: 3, cost_per_m: 350}',
      '    - {name: xlpe-66kv-500, capacity: 5, cost_per_m: 520}',
      '  rated_rpm: 12',
      '',
    ].join('\n'),
  );
  const c = loadCase(path.join(dir, 'small.yaml'));
  fs.rmSync(dir, { recursive: true, force: true });
  return c;
}

test('an LCOE run is the AEP run plus a cost stage: never a higher LCOE, lower in some seed', { timeout: 600_000 }, (t) => {
  const c = smallOffshoreCase();
  const seeds = [0, 1, 2];
  let lower = 0;
  for (const seed of seeds) {
    const stages: Record<string, number[]> = { aep: [], lcoe: [] };
    const run = (objective: 'aep' | 'lcoe') =>
      optimizeCase({ ...c, objective }, { method: 'gradient' }, seed, { onGradientStage: (e) => stages[objective].push(e.evaluations) });
    const byAep = run('aep'),
      byLcoe = run('lcoe');
    assert.ok(byAep.feasible && byLcoe.feasible);
    // The default five wake-expansion stages and the restart stage on energy for both, the same
    // computation (the same evaluation counts after each); the LCOE run has one stage more.
    assert.equal(stages.aep.length, 6);
    assert.equal(stages.lcoe.length, 7);
    assert.deepEqual(stages.lcoe.slice(0, 6), stages.aep);
    const a = byAep.economics!,
      l = byLcoe.economics!;
    t.diagnostic(
      `seed ${seed}: LCOE ${a.lcoe.toFixed(5)} (aep run) vs ${l.lcoe.toFixed(5)} (lcoe run); cables ${(a.cableLengthM / 1000).toFixed(2)} vs ${(l.cableLengthM / 1000).toFixed(2)} km, ${(a.cableCost / 1e6).toFixed(3)} vs ${(l.cableCost / 1e6).toFixed(3)} M€; AEP ${byAep.aep.toFixed(1)} vs ${byLcoe.aep.toFixed(1)} MWh`,
    );
    assert.ok(l.lcoe <= a.lcoe, `seed ${seed}: LCOE ${l.lcoe} (lcoe run) above ${a.lcoe} (aep run)`);
    if (l.lcoe < a.lcoe) lower++;
  }
  assert.ok(lower > 0, 'the cost stage lowered the LCOE in no seed');
});
