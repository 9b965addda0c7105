/**
 * A cost run whose start cannot be cabled is reported before any optimization, naming the turbines
 * (optimizeLayout.ts, geometry/collection/uncablable.ts). The farm: IEA37 cs1-16 (a circle of
 * radius 1300 m) cut by a shipping lane (an exclusion zone from y = 300 to 500 m, wider than the
 * site) with the one substation south of it: every turbine north of the lane is cut off, whatever
 * the layout. Under LCOE the failure comes before the first stage (no stage hook fires), is
 * permanent (a campaign does not retry it) and names exactly the turbines north of the lane; under
 * AEP the layout is still the result, without economics and with the reason in a note.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadCase } from '../../src/io/caseFile.js';
import { optimizeCase } from '../../src/optimize/optimizeCase.js';
import { initialLayout } from '../../src/optimize/initialLayout.js';
import { prepareBoundary } from '../../src/geometry/preparedBoundary.js';
import { createRng } from '../../src/util/rng.js';
import { routeCollection } from '../../src/geometry/collection/index.js';
import type { Case } from '../../src/case/case.js';
import { tempDir } from '../helpers.js';

/** The router's failure (geometry/collection/uncablable.ts), by its name and fields. */
interface Uncablable {
  name: string;
  message: string;
  permanent?: boolean;
  turbines: readonly number[];
}
function isUncablable(err: unknown): err is Uncablable {
  return err instanceof Error && err.name === 'UncablableLayout' && Array.isArray((err as { turbines?: unknown }).turbines);
}
import { LANE_CASE, SHADOW_CASE } from './laneCase.js';

function laneCase(text = LANE_CASE): Case {
  const dir = tempDir('wflo-lane-');
  fs.writeFileSync(path.join(dir, 'lane.yaml'), text);
  const c = loadCase(path.join(dir, 'lane.yaml'));
  fs.rmSync(dir, { recursive: true, force: true });
  return c;
}

/** The turbines of the method's random start (seed) north of the lane: the ones no cable can reach. */
function northOfLane(c: Case, seed: number): number[] {
  const start = initialLayout('random', prepareBoundary(c.boundary!), c.nTurbines, c.minSpacing, createRng(seed), null);
  return Array.from(start.y, (y, i) => (y > 400 ? i : -1)).filter((i) => i >= 0);
}

test('an LCOE run from an uncablable random start fails before the first stage, naming the turbines cut off', () => {
  const c = { ...laneCase(), objective: 'lcoe' as const };
  const seed = 1;
  const north = northOfLane(c, seed);
  assert.ok(north.length > 0 && north.length < c.nTurbines, `north of the lane: ${north}`);
  let stages = 0;
  assert.throws(
    () =>
      optimizeCase(c, { method: 'gradient' }, seed, {
        onGradientStage: () => {
          stages++;
        },
      }),
    (err: unknown) => {
      assert.ok(isUncablable(err), String(err));
      assert.equal((err as { permanent?: boolean }).permanent, true);
      assert.deepEqual([...err.turbines], north);
      assert.match(
        err.message,
        /^lane: the start layout \(initial random, seed 1\) cannot be cabled, so nothing was optimized: economics: found no valid network: turbines [0-9, ]+ \(0-based\) cannot reach a substation: .*exclusion zone "shipping lane"$/,
      );
      assert.ok(err.message.includes(`turbines ${north.join(', ')} (0-based)`), err.message);
      assert.ok(!err.message.includes('\n'));
      return true;
    },
  );
  assert.equal(stages, 0, 'optimization stages ran before the failure');
});

test('an AEP run of the same farm keeps its optimized layout and says why it has no economics', () => {
  const c = { ...laneCase(), objective: 'aep' as const };
  const r = optimizeCase(c, { method: 'gradient' }, 1);
  assert.equal(r.feasible, true);
  assert.ok(r.aep > r.aepInitial, `${r.aep} vs ${r.aepInitial}`);
  assert.equal(r.economics, undefined);
  assert.equal(r.notes?.length, 1);
  assert.match(
    r.notes![0],
    /^no economics: the layout cannot be cabled \(economics: found no valid network: turbines [0-9, ]+ \(0-based\) cannot reach a substation/,
  );
  const cut = Array.from(r.y, (y, i) => (y > 400 ? i : -1)).filter((i) => i >= 0);
  assert.ok(r.notes![0].includes(`turbines ${cut.join(', ')} (0-based)`), r.notes![0]);
});

test('the router names the turbines a capacity leaves unconnected', () => {
  // Three turbines in a pocket behind a wall; only turbine 0 sees the substation, a feeder holds 2.
  const wall = {
    name: 'wall',
    vertices: [
      [-500, 90],
      [90, 90],
      [90, 110],
      [-500, 110],
    ] as [number, number][],
  };
  const wall2 = {
    name: 'wall 2',
    vertices: [
      [110, 90],
      [500, 90],
      [500, 110],
      [110, 110],
    ] as [number, number][],
  };
  assert.throws(
    () =>
      routeCollection({
        turbines: { x: [100, 0, -100], y: [200, 300, 300] },
        substations: [[100, 0]],
        cables: [{ name: 'c', capacity: 2, costPerMetre: 1 }],
        exclusions: [wall, wall2],
        source: 'pocket',
      }),
    (err: unknown) => {
      assert.ok(isUncablable(err), String(err));
      assert.equal(
        err.message,
        "pocket: found no valid network: turbines 1, 2 (0-based) cannot reach a substation within the cable capacity: their group of 3 turbines has 1 with an open cable to a substation (past the exclusion zones), and a feeder carries at most 2 (the largest cable's capacity)",
      );
      return true;
    },
  );
});

test('an LCOE run whose energy optimum cannot be cabled returns its cabled start, and says so', () => {
  // Seed 4 of the shadow farm: the random start can be cabled, the energy optimum puts turbines 1
  // and 8 in the platform's shadow (before: the cost stage threw after every energy stage).
  const c = { ...laneCase(SHADOW_CASE), objective: 'lcoe' as const };
  const r = optimizeCase(c, { method: 'gradient' }, 4);
  assert.equal(r.feasible, true);
  assert.deepEqual(Array.from(r.x), Array.from(r.xInitial));
  assert.deepEqual(Array.from(r.y), Array.from(r.yInitial));
  assert.equal(r.aep, r.aepInitial);
  assert.equal(r.economics!.value, r.objectiveInitial);
  assert.equal(r.economics!.cableEdges.length, 16);
  const why =
    "economics: found no valid network: turbines 1, 8 (0-based) cannot reach a substation within the cable capacity: their group of 16 turbines has 14 with an open cable to a substation (past the exclusion zones), and a feeder carries at most 1 (the largest cable's capacity)";
  assert.deepEqual(r.notes, [
    `the energy optimum cannot be cabled (${why}); the cost stage did not run`,
    `the optimized layout cannot be cabled (${why}); the start layout, which can, is returned`,
  ]);
});
