/**
 * The collection-system router against proven optima: every instance in test/data/cables (written
 * by bench/peers/cables_milp.py, CBC solving a capacitated crossing-free MILP to gap 0) is routed;
 * each network must be connected, within capacity and crossing-free (checked from scratch), and its
 * cost within 1 % of the optimum in the median and 3 % at worst (issue 29's acceptance). One small instance is re-solved
 * live with the generator (Debian's python3-pulp + coinor-cbc) and must match the stored optimum.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO, PYTHON } from '../helpers.js';
import { checkNetwork, routeCollection, ROUTING_LAMBDAS, type CableType } from '../../src/geometry/collection/index.js';

const DATA = path.join(REPO, 'test', 'data', 'cables');

interface Reference {
  name: string;
  turbines: [number, number][];
  substations: [number, number][];
  cables: CableType[];
  optimum: { length: number; cost: number; edges: { from: number; to: number | string; cable: number; load: number }[] };
  solver: { status: string; solutionStatus: string; seconds: number };
}

const load = (file: string): Reference => JSON.parse(fs.readFileSync(path.join(DATA, file), 'utf8')) as Reference;
const files = fs
  .readdirSync(DATA)
  .filter((f) => f.endsWith('.json'))
  .sort();

/** The router's own network of each instance, routed once for the tests that need it. */
const routed = new Map<string, ReturnType<typeof routeCollection>>();
function ownNetwork(f: string, r: Reference): ReturnType<typeof routeCollection> {
  let net = routed.get(f);
  if (!net) {
    net = routeCollection({
      turbines: { x: r.turbines.map((p) => p[0]), y: r.turbines.map((p) => p[1]) },
      substations: r.substations,
      cables: r.cables,
      source: f,
    });
    routed.set(f, net);
  }
  return net;
}

test('at least 20 reference instances, 10 to 60 turbines, capacities 3 to 8, each proven optimal', () => {
  assert.ok(files.length >= 20, `${files.length} instances`);
  const sizes = files.map((f) => load(f).turbines.length);
  assert.ok(Math.min(...sizes) >= 10 && Math.max(...sizes) <= 60, `sizes ${sizes}`);
  for (const f of files) {
    const r = load(f);
    assert.equal(r.solver.status, 'Optimal', f);
    assert.equal(r.solver.solutionStatus, 'Optimal Solution Found', f);
    const cap = Math.max(...r.cables.map((c) => c.capacity));
    assert.ok(cap >= 3 && cap <= 8, `${f}: capacity ${cap}`);
    assert.equal(r.optimum.edges.length, r.turbines.length, f);
  }
  assert.ok(
    files.some((f) => load(f).cables.length >= 2),
    'some instances have several cable types',
  );
});

test('every routed network is valid and within 1 % (median) / 3 % (worst) of the MILP optimum', () => {
  const gaps: number[] = [];
  const lines: string[] = [];
  for (const f of files) {
    const r = load(f);
    const x = r.turbines.map((p) => p[0]);
    const y = r.turbines.map((p) => p[1]);
    const net = ownNetwork(f, r);
    assert.deepEqual(checkNetwork(net, r.cables, x, y, r.substations), [], f);
    const gap = (net.totalCost - r.optimum.cost) / r.optimum.cost;
    gaps.push(gap);
    lines.push(
      `${r.name}: cost ${net.totalCost.toFixed(2)} vs optimum ${r.optimum.cost.toFixed(2)} (${(100 * gap).toFixed(3)} %), length ${net.totalLength.toFixed(1)} vs ${r.optimum.length.toFixed(1)}`,
    );
  }
  const sorted = [...gaps].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  const worst = sorted[sorted.length - 1];
  console.log(lines.join('\n'));
  console.log(`cost gap to the optimum over ${gaps.length} instances: median ${(100 * median).toFixed(3)} %, worst ${(100 * worst).toFixed(3)} %`);
  assert.ok(median <= 0.01, `median gap ${(100 * median).toFixed(3)} %`);
  assert.ok(worst <= 0.03, `worst gap ${(100 * worst).toFixed(3)} %`);
});

const hasPulp = spawnSync(PYTHON, ['-c', 'import pulp, shutil; assert shutil.which("cbc")'], { encoding: 'utf8' }).status === 0;

test('the generator re-solves a small instance live and finds the stored optimum', {
  skip: hasPulp ? false : `${PYTHON} has no pulp or no cbc (Debian: python3-pulp coinor-cbc)`,
}, () => {
  const name = 'c10-cap4-edge-2t';
  const run = spawnSync(PYTHON, [path.join(REPO, 'bench', 'peers', 'cables_milp.py'), '--solve', name], { encoding: 'utf8', timeout: 300_000 });
  assert.equal(run.status, 0, run.stderr);
  const live = JSON.parse(run.stdout) as Reference;
  const stored = load(`${name}.json`);
  assert.ok(stored.turbines.length <= 10);
  assert.deepEqual(live.turbines, stored.turbines);
  assert.deepEqual(live.cables, stored.cables);
  assert.equal(live.solver.solutionStatus, 'Optimal Solution Found');
  assert.ok(Math.abs(live.optimum.cost - stored.optimum.cost) <= 1e-9 * stored.optimum.cost, `${live.optimum.cost} vs ${stored.optimum.cost}`);
  // The stored optimum's own edges, read back: a valid network of exactly that cost.
  const n = stored.turbines.length;
  const parent = Int32Array.from(
    stored.optimum.edges.sort((a, b) => a.from - b.from),
    (e) => (typeof e.to === 'number' ? e.to : n),
  );
  const cable = Int32Array.from(stored.optimum.edges, (e) => e.cable);
  const loadArr = Int32Array.from(stored.optimum.edges, (e) => e.load);
  const x = stored.turbines.map((p) => p[0]);
  const y = stored.turbines.map((p) => p[1]);
  assert.deepEqual(checkNetwork({ parent, cable, load: loadArr }, stored.cables, x, y, stored.substations), []);
});

/** Kicks of the iterated search in the start test (the router's default is up to 400). */
const START_KICKS = 10;

/** A reference's proven optimum as a router's parent array (its one substation is node n). */
function optimumParent(r: Reference): Int32Array {
  const n = r.turbines.length;
  const edges = [...r.optimum.edges].sort((a, b) => a.from - b.from);
  return Int32Array.from(edges, (e) => (typeof e.to === 'number' ? e.to : n));
}

test('a start is checked, never trusted: the proven optimum comes back at its cost, routing again returns it unchanged, broken starts are ignored', () => {
  let tried = 0,
    beaten = 0; // beaten: the router alone above the optimum
  for (const f of files) {
    const r = load(f);
    if (r.substations.length !== 1) continue;
    const x = r.turbines.map((p) => p[0]);
    const y = r.turbines.map((p) => p[1]);
    const input = { turbines: { x, y }, substations: r.substations, cables: r.cables, source: f };
    // A short iterated search (START_KICKS kicks) keeps this test cheap: how a start is handled does not depend on the kicks.
    const route = (start?: Int32Array) => routeCollection(start ? { ...input, start } : input, ROUTING_LAMBDAS, START_KICKS);
    const own = route();
    const optimum = optimumParent(r);
    const fromOptimum = route(optimum);
    assert.deepEqual(checkNetwork(fromOptimum, r.cables, x, y, r.substations), [], f);
    // The start is valid, so the router returns it (polished) or a cheaper network of its own:
    // never above the optimum (which is proven over a restricted candidate graph, SOURCE.md, so
    // the router may go below it), and below its own network wherever that was above the optimum.
    assert.ok(fromOptimum.totalCost <= r.optimum.cost * (1 + 1e-9), `${f}: ${fromOptimum.totalCost} from the optimum ${r.optimum.cost}`);
    assert.ok(fromOptimum.totalCost <= own.totalCost * (1 + 1e-12), f);
    if (own.totalCost > r.optimum.cost * (1 + 1e-9)) beaten++;
    // Idempotent: its own answer as the start gives the same network back (what the gate relies on).
    for (const net of [own, fromOptimum]) {
      const again = route(net.parent);
      assert.deepEqual(Array.from(again.parent), Array.from(net.parent), `${f}: routing again from its own network changed it`);
      assert.deepEqual(Array.from(again.cable), Array.from(net.cable), f);
    }
    tried++;
    // Broken starts (a cycle, an edge to no node, the wrong length, a feeder over capacity) are ignored.
    const n = x.length;
    const cycle = optimum.slice();
    cycle[0] = 1;
    cycle[1] = 0;
    const nowhere = optimum.slice();
    nowhere[0] = n + 5;
    const star = new Int32Array(n).fill(0);
    star[0] = n; // every turbine on turbine 0: far over any capacity
    for (const start of [cycle, nowhere, optimum.subarray(1), star]) {
      const net = route(start);
      assert.deepEqual(Array.from(net.parent), Array.from(own.parent), `${f}: a broken start changed the network`);
    }
  }
  assert.ok(tried >= 20, `${tried} instances with one substation`);
  // The start must have mattered somewhere: instances where the router alone stays above the optimum.
  assert.ok(beaten >= 1, 'the router alone reached every optimum: this test no longer shows that a start is used');
  console.log(`the proven optimum as the start: at or below its cost in ${tried} instances, ${beaten} of them above it without the start`);
});
