/**
 * The collection system's own checks: the exact gradient of the cable cost for a fixed network
 * against central differences, the validity checker on hand-made broken networks (crossing,
 * over capacity, a cycle), exclusion zones never crossed by a routed cable, the iterated local
 * search's kicks keeping the network valid, several substations,
 * determinism, and bad inputs refused with one InputError line naming the field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError, RuntimeFailure } from '../../src/util/errors.js';
import {
  cableCostGradient,
  checkNetwork,
  esauWilliams,
  kick,
  KickRandom,
  networkOf,
  prepareRouting,
  routeCollection,
  type CableType,
} from '../../src/geometry/collection/index.js';
import type { ExclusionZone } from '../../src/geometry/boundary.js';
import { jitteredGridFarm } from '../../bench/cablesFarm.js';

const CABLES: CableType[] = [
  { name: 'small', capacity: 2, costPerMetre: 200 },
  { name: 'medium', capacity: 4, costPerMetre: 290 },
  { name: 'large', capacity: 6, costPerMetre: 410 },
];

/** A seeded jittered grid of n turbines, 500 m apart (the bench's generator, bench/cablesFarm.ts). */
const farm = (n: number, seed: number): { x: number[]; y: number[] } => jitteredGridFarm(n, seed, 500, 150);

test('the cable cost gradient of a fixed network equals central differences (turbines and substations)', () => {
  const { x, y } = farm(30, 7);
  const substations: [number, number][] = [
    [1200, 1300],
    [-400, 2600],
  ];
  const net = routeCollection({ turbines: { x, y }, substations, cables: CABLES });
  assert.deepEqual(checkNetwork(net, CABLES, x, y, substations), []);
  assert.ok(new Set(net.cable).size >= 2, 'several cable types in use');
  const g = cableCostGradient(net, CABLES, x, y, substations);
  assert.ok(Math.abs(g.cost - net.totalCost) <= 1e-9 * net.totalCost);
  const cost = (xx: number[], yy: number[], ss: [number, number][]): number => cableCostGradient(net, CABLES, xx, yy, ss).cost;
  const h = 1e-3;
  let worst = 0;
  for (let i = 0; i < x.length; i++) {
    for (const axis of ['x', 'y'] as const) {
      const plus = { x: [...x], y: [...y] };
      const minus = { x: [...x], y: [...y] };
      plus[axis][i] += h;
      minus[axis][i] -= h;
      const fd = (cost(plus.x, plus.y, substations) - cost(minus.x, minus.y, substations)) / (2 * h);
      const exact = axis === 'x' ? g.dx[i] : g.dy[i];
      worst = Math.max(worst, Math.abs(fd - exact) / Math.max(1, Math.abs(exact)));
    }
  }
  for (let k = 0; k < substations.length; k++) {
    for (const axis of [0, 1]) {
      const plus = substations.map((s) => [...s] as [number, number]);
      const minus = substations.map((s) => [...s] as [number, number]);
      plus[k][axis] += h;
      minus[k][axis] -= h;
      const fd = (cost(x, y, plus) - cost(x, y, minus)) / (2 * h);
      const exact = axis === 0 ? g.dsx[k] : g.dsy[k];
      assert.ok(Math.abs(exact) > 1, `substation ${k} has cables pulling on it`);
      worst = Math.max(worst, Math.abs(fd - exact) / Math.abs(exact));
    }
  }
  assert.ok(worst < 1e-6, `worst relative difference ${worst}`);
});

test('the checker finds a crossing, an overloaded cable and a cycle', () => {
  // Turbines 0 (0,0), 1 (100,100), 2 (100,0), 3 (0,100); substation 4 at (50,-100).
  const x = [0, 100, 100, 0];
  const y = [0, 100, 0, 100];
  const sub: [number, number][] = [[50, -100]];
  const one: CableType[] = [{ name: 'c', capacity: 2, costPerMetre: 1 }];
  // 1→0 and 3→2 are the diagonals of the square: they cross at (50, 50).
  const crossing = { parent: Int32Array.from([4, 0, 4, 2]), cable: Int32Array.from([0, 0, 0, 0]), load: Int32Array.from([2, 1, 2, 1]) };
  assert.deepEqual(checkNetwork(crossing, one, x, y, sub), ['edges 1→0 and 3→2 cross']);
  const chain = { parent: Int32Array.from([4, 2, 0, 1]), cable: Int32Array.from([0, 0, 0, 0]), load: Int32Array.from([4, 2, 3, 1]) };
  assert.deepEqual(checkNetwork(chain, one, x, y, sub).filter((p) => p.includes('capacity')).length, 2);
  const cycle = { parent: Int32Array.from([1, 0, 4, 4]), cable: Int32Array.from([0, 0, 0, 0]), load: Int32Array.from([1, 1, 1, 1]) };
  assert.match(checkNetwork(cycle, one, x, y, sub)[0], /not a forest/);
});

test('no routed cable passes through an exclusion zone; the network stays valid and deterministic', () => {
  const { x, y } = farm(49, 11);
  // A zone in the middle of the farm, between two turbine rows (no turbine inside it).
  const zone: ExclusionZone = {
    name: 'wreck',
    vertices: [
      [700, 1150],
      [2300, 1150],
      [2300, 1350],
      [700, 1350],
    ],
  };
  const substations: [number, number][] = [[1500, -600]];
  const input = { turbines: { x, y }, substations, cables: CABLES, exclusions: [zone] };
  const net = routeCollection(input);
  assert.deepEqual(checkNetwork(net, CABLES, x, y, substations, [zone]), []);
  // Without the zone some cable does run through it: the zone changed the answer.
  const free = routeCollection({ ...input, exclusions: [] });
  assert.ok(checkNetwork(free, CABLES, x, y, substations, [zone]).some((p) => p.includes('wreck')));
  assert.ok(net.totalCost > free.totalCost);
  assert.deepEqual(routeCollection(input).parent, net.parent);
});

test('every kick of the iterated local search leaves a valid network (capacity, crossings, zones, two substations)', () => {
  const { x, y } = farm(49, 11);
  const zone: ExclusionZone = {
    name: 'wreck',
    vertices: [
      [700, 1150],
      [2300, 1150],
      [2300, 1350],
      [700, 1350],
    ],
  };
  const substations: [number, number][] = [
    [1500, -600],
    [3600, 2800],
  ];
  const input = { turbines: { x, y }, substations, cables: CABLES, exclusions: [zone] };
  const problem = prepareRouting(input);
  const start = esauWilliams(problem, 1);
  assert.ok(start !== null);
  const par = start.slice();
  const random = new KickRandom(5);
  let kicked = 0;
  let changed = 0;
  for (let k = 0; k < 200; k++) {
    const before = par.slice();
    const focus = kick(problem, par, random, 5);
    if (focus === null) {
      assert.deepEqual(par, before);
      continue;
    }
    kicked++;
    // The focus covers every turbine whose edge the kick changed.
    for (let i = 0; i < x.length; i++)
      if (par[i] !== before[i]) {
        changed++;
        assert.equal(focus[i], 1, `turbine ${i}`);
      }
    assert.deepEqual(checkNetwork(networkOf(problem, par), CABLES, x, y, substations, [zone]), [], `kick ${k}`);
  }
  assert.ok(kicked >= 190 && changed > 0, `${kicked} kicks made`);
});

test('a zone that cuts half the farm off from its substation: a one-line failure, no network', () => {
  const { x, y } = farm(49, 11);
  // A band across the whole farm between two turbine rows: the upper rows have no way out.
  const wall: ExclusionZone = {
    name: 'wall',
    vertices: [
      [-500, 1200],
      [3500, 1200],
      [3500, 1300],
      [-500, 1300],
    ],
  };
  assert.throws(
    () => routeCollection({ turbines: { x, y }, substations: [[1500, -600]], cables: CABLES, exclusions: [wall], source: 'site.yaml' }),
    (err: unknown) => err instanceof RuntimeFailure && /^site\.yaml: found no valid network/.test(err.message) && !err.message.includes('\n'),
  );
});

test('several substations: every turbine reaches one, within capacity, crossing-free', () => {
  const { x, y } = farm(120, 3);
  const substations: [number, number][] = [
    [1200, 1200],
    [4000, 4000],
    [4500, 500],
  ];
  const net = routeCollection({ turbines: { x, y }, substations, cables: CABLES });
  assert.deepEqual(checkNetwork(net, CABLES, x, y, substations), []);
  const used = new Set(net.edges.filter((e) => e.to >= x.length).map((e) => e.to - x.length));
  assert.deepEqual([...used].sort(), [0, 1, 2]);
});

test('bad inputs are one InputError line naming the field', () => {
  const { x, y } = farm(9, 1);
  const zone: ExclusionZone = {
    name: 'reef',
    vertices: [
      [1900, 1900],
      [2100, 1900],
      [2100, 2100],
      [1900, 2100],
    ],
  };
  const cases: [string, () => unknown, RegExp][] = [
    [
      'substation in a zone',
      () => routeCollection({ turbines: { x, y }, substations: [[2000, 2000]], cables: CABLES, exclusions: [zone], source: 'farm.yaml' }),
      /^farm\.yaml: substations\[0\]: \(2000, 2000\) lies inside exclusion zone "reef"/,
    ],
    [
      'capacity 0',
      () => routeCollection({ turbines: { x, y }, substations: [[0, -500]], cables: [{ name: 'c', capacity: 0, costPerMetre: 100 }] }),
      /^collection: cables\[0\]\.capacity: must be a whole number of turbines >= 1, got 0$/,
    ],
    ['no cable type', () => routeCollection({ turbines: { x, y }, substations: [[0, -500]], cables: [] }), /^collection: cables: no cable type given/],
    [
      'no substation',
      () => routeCollection({ turbines: { x, y }, substations: [], cables: CABLES }),
      /^collection: substations: at least one substation is needed$/,
    ],
    [
      'a NaN coordinate',
      () => routeCollection({ turbines: { x: [0, NaN], y: [0, 1] }, substations: [[0, -500]], cables: CABLES }),
      /^collection: turbines\[1\]: coordinates must be finite/,
    ],
  ];
  for (const [what, run, message] of cases) {
    assert.throws(run, (err: unknown) => {
      assert.ok(err instanceof InputError, what);
      assert.equal(err.exitCode, 2);
      assert.ok(!err.message.includes('\n'), what);
      assert.match(err.message, message, what);
      return true;
    });
  }
});
