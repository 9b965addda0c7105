/**
 * `wflo cost` and `wflo cables` (src/cli/cost.ts, cables.ts, views/layoutEconomics.ts): the
 * economics and the routed network of a GIVEN layout. The network is checked on its own terms
 * (every edge's length is the distance from its turbine to its next node, every turbine reaches a
 * substation, each cable carries its subtree and is the cheapest type that can, the totals are the
 * sums); the cost is the network's and the case's AEP (`wflo aep --json`'s); --layout prices
 * another layout (the case's own written to a file: the same figures bit for bit; the layout
 * stretched by 1.2 about the substation: longer cables, a dearer LCOE); money is printed with its currency;
 * bad input exits 2 with one line naming the file or field, nothing on stdout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';

/** A 4 × 4 grid, 600 m apart, inside cs1-16's 1300 m circle; the substation between four turbines. */
const GRID = { x: Array.from({ length: 16 }, (_, i) => -900 + 600 * (i % 4)), y: Array.from({ length: 16 }, (_, i) => -900 + 600 * Math.floor(i / 4)) };
const SUB = [100, 150];

const SMALL = `name: small-cost
base: iea37-cs1-16
economics:
  energy_price_eur_per_mwh: 60
  discount_rate: 0.06
  project_years: 25
  distance_from_shore_km: 10
  water_depth_m: 30
  substations: [[100, 150]]
  cables:
    - {name: a240, capacity: 4, cost_per_m: 300}
    - {name: a630, capacity: 8, cost_per_m: 500}
  rated_rpm: 12
layout:
  x: [${GRID.x.join(', ')}]
  y: [${GRID.y.join(', ')}]
`;

interface Cables {
  n_turbines: number;
  n_substations: number;
  currency: string;
  cable_length_m: number;
  cable_cost: number;
  cable_to: number[];
  cable_type: number[];
  cable_load: number[];
  cable_length_each_m: number[];
  substations: [number, number][];
  by_type: { name: string; capacity: number; cost_per_m: number; edges: number; length_m: number; cost: number }[];
}
interface Cost {
  currency: string;
  cost_model: string;
  lcoe_per_mwh: number;
  npv: number;
  irr: number | null;
  aep_mwh: number;
  cable_length_m: number;
  cable_cost: number;
  cost_breakdown: Record<string, number>;
}

function smallCase(): { dir: string; file: string } {
  const dir = tempDir('wflo-cost-');
  const file = path.join(dir, 'small.yaml');
  fs.writeFileSync(file, SMALL);
  return { dir, file };
}

const json = <T>(args: string[]): T => {
  const r = runWflo(args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
};

/** The network's own consistency, with distances computed here from the layout. */
function checkNetwork(net: Cables, x: number[], y: number[]): void {
  const n = x.length;
  assert.equal(net.n_turbines, n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const to = net.cable_to[i];
    const [tx, ty] = to >= 0 ? [x[to], y[to]] : net.substations[-1 - to];
    const d = Math.hypot(x[i] - tx, y[i] - ty);
    assert.ok(Math.abs(net.cable_length_each_m[i] - d) <= 1e-9 * d, `turbine ${i}: cable ${net.cable_length_each_m[i]} m, distance ${d} m`);
    total += net.cable_length_each_m[i];
    // Walk to a substation; the load of an edge is the turbines upstream of it (itself included).
    let j = i,
      steps = 0;
    while (j >= 0) {
      j = net.cable_to[j];
      assert.ok(++steps <= n, `turbine ${i}: no way to a substation`);
    }
    const load =
      1 +
      net.cable_to.reduce((s, _, k) => {
        let m = k;
        while (m >= 0 && m !== i) m = net.cable_to[m];
        return s + (m === i && k !== i ? 1 : 0);
      }, 0);
    assert.equal(net.cable_load[i], load, `turbine ${i}: load`);
    const cheapest = net.by_type
      .map((t, k) => [t, k] as const)
      .filter(([t]) => t.capacity >= load)
      .sort((a, b) => a[0].cost_per_m - b[0].cost_per_m)[0][1];
    assert.equal(net.cable_type[i], cheapest, `turbine ${i}: cable type for a load of ${load}`);
  }
  assert.ok(Math.abs(net.cable_length_m - total) <= 1e-9 * total, `total ${net.cable_length_m} vs Σ ${total}`);
  const cost = net.cable_length_each_m.reduce((s, l, i) => s + l * net.by_type[net.cable_type[i]].cost_per_m, 0);
  assert.ok(Math.abs(net.cable_cost - cost) <= 1e-9 * cost, `cost ${net.cable_cost} vs Σ ${cost}`);
  assert.equal(
    net.by_type.reduce((s, t) => s + t.edges, 0),
    n,
  );
}

test("wflo cables: the network of the case's layout reaches a substation from every turbine, edge lengths are distances, cables the cheapest that carry their loads", () => {
  const { file } = smallCase();
  const net = json<Cables>(['cables', file, '--json']);
  const aep = json<{ n_turbines: number }>(['aep', file, '--json']);
  assert.equal(net.n_turbines, aep.n_turbines);
  checkNetwork(net, GRID.x, GRID.y);
  assert.equal(net.currency, 'EUR');
  assert.deepEqual(net.substations, [SUB]);
  const text = runWflo(['cables', file]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(
    text.stdout,
    new RegExp(`network     16 turbines to 1 substation: ${net.cable_length_m.toFixed(1)} m of cable, ${(net.cable_cost / 1e6).toFixed(4)} M€`),
  );
  assert.match(text.stdout, /cable       a240: \d+ edges, [\d.]+ m, [\d.]+ M€ \(capacity 4, 300 €\/m\)/);
});

test("wflo cost: the AEP is `wflo aep`'s, the cable cost the routed network's, money printed with its currency; --layout of the same layout gives the same JSON bit for bit", () => {
  const { dir, file } = smallCase();
  const cost = json<Cost>(['cost', file, '--json']);
  const aep = json<{ aep_mwh: number }>(['aep', file, '--json']);
  assert.equal(cost.aep_mwh, aep.aep_mwh);
  const net = json<Cables>(['cables', file, '--json']);
  assert.equal(cost.cable_length_m, net.cable_length_m);
  assert.ok(Math.abs(cost.cable_cost - net.cable_cost) <= 1e-12 * net.cable_cost, `${cost.cable_cost} vs ${net.cable_cost}`);
  assert.equal(cost.cost_breakdown.array_cables_eur, cost.cable_cost);
  assert.equal(cost.currency, 'EUR');
  assert.equal(cost.cost_model, 'dtu_offshore');
  assert.ok(cost.lcoe_per_mwh > 0 && Number.isFinite(cost.npv) && cost.irr !== null);
  const text = runWflo(['cost', file]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`LCOE        ${cost.lcoe_per_mwh.toFixed(4)} €/MWh`));
  assert.match(text.stdout, new RegExp(`NPV         ${(cost.npv / 1e6).toFixed(4)} M€`));
  assert.match(text.stdout, new RegExp(`IRR         ${(100 * cost.irr!).toFixed(3)} %`));
  // The same layout from a file, then the layout stretched by 1.2 about the substation.
  const base = { x_initial: GRID.x, y_initial: GRID.y };
  const same = path.join(dir, 'same.yaml');
  fs.writeFileSync(same, `layout:\n  x: [${base.x_initial.join(', ')}]\n  y: [${base.y_initial.join(', ')}]\n`);
  const again = json<Cost & { layout: string | null }>(['cost', file, '--layout', same, '--json']);
  assert.equal(again.layout, same);
  assert.deepEqual({ ...again, layout: null }, { case: 'small-cost', layout: null, ...cost });
  const wide = path.join(dir, 'wide.yaml');
  fs.writeFileSync(
    wide,
    `layout:\n  x: [${base.x_initial.map((v) => SUB[0] + 1.2 * (v - SUB[0])).join(', ')}]\n  y: [${base.y_initial.map((v) => SUB[1] + 1.2 * (v - SUB[1])).join(', ')}]\n`,
  );
  const stretched = json<Cost>(['cost', file, '--layout', wide, '--json']);
  assert.ok(stretched.cable_length_m > cost.cable_length_m, `stretched cables ${stretched.cable_length_m} m vs ${cost.cable_length_m} m`);
  assert.notEqual(stretched.aep_mwh, cost.aep_mwh);
  checkNetwork(
    json<Cables>(['cables', file, '--layout', wide, '--json']),
    base.x_initial.map((v) => SUB[0] + 1.2 * (v - SUB[0])),
    base.y_initial.map((v) => SUB[1] + 1.2 * (v - SUB[1])),
  );
});

test('wflo cost / cables: bad input exits 2 with one line naming the file or field, nothing on stdout', () => {
  const { dir, file } = smallCase();
  const bad = path.join(dir, 'bad.yaml');
  fs.writeFileSync(bad, 'layout:\n  x: [0, 1000]\n  y: [0]\n');
  const twice = path.join(dir, 'twice.yaml'),
    onSub = path.join(dir, 'on-sub.yaml');
  fs.writeFileSync(twice, 'layout:\n  x: [0, 0, 500]\n  y: [100, 100, 900]\n');
  fs.writeFileSync(onSub, 'layout:\n  x: [0, 500, 100]\n  y: [100, 900, 150]\n');
  const cases: [string[], RegExp][] = [
    [['cost', 'iea37-cs1-16'], /^wflo: iea37-cs1-16: economics: the case has none/],
    [['cables', 'iea37-cs1-16', '--json'], /^wflo: iea37-cs1-16: economics: the case has none/],
    [['cost', file, '--layout', path.join(dir, 'absent.yaml')], /absent\.yaml: file not found/],
    [['cables', file, '--layout', bad], /bad\.yaml.*layout/],
    [['cost', path.join(dir, 'nofile.yaml')], /nofile\.yaml/],
    [['cost', file, '--layout', twice], /twice\.yaml: layout: turbines 0 and 1 \(0-based\) are at the same point \(0, 100\)/],
    [['cables', file, '--layout', onSub], /on-sub\.yaml: layout: turbine 2 \(0-based\) at \(100, 150\) is on substation 0/],
  ];
  for (const [args, message] of cases) {
    const r = runWflo(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '', args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, `${args.join(' ')}: one line: ${r.stderr}`);
    assert.match(r.stderr.trim(), message, args.join(' '));
  }
});
