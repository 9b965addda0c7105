/**
 * Bench section `cables`: the collection-system router (src/geometry/collection) on 200 turbines,
 * one core (the router is single-threaded): seeded layouts on a jittered grid (cablesFarm.ts, 600 m spacing), one
 * substation in the middle or at the edge, capacity 8 with three cable types (and capacity 4 with
 * one). Prints the wall and CPU time of routeCollection (median of 3 runs after one warm-up; target ≤ 1 s;
 * on a loaded machine the CPU time is the fairer figure), the cost,
 * length and feeders, and whether the network checks out (connected, capacity, crossing-free).
 */
import { checkNetwork, kickCount, routeCollection, type CableType } from '../src/geometry/collection/index.js';
import { jitteredGridFarm } from './cablesFarm.js';

const layout = (n: number, seed: number): { x: number[]; y: number[] } => jitteredGridFarm(n, seed, 600, 200);

const THREE: CableType[] = [
  { name: 'small', capacity: 3, costPerMetre: 240 },
  { name: 'medium', capacity: 5, costPerMetre: 330 },
  { name: 'large', capacity: 8, costPerMetre: 460 },
];
const ONE: CableType[] = [{ name: 'only', capacity: 4, costPerMetre: 300 }];

export async function benchCables(): Promise<void> {
  console.log(
    `\n## cables: routing 200 turbines (Esau–Williams and sweep starts, re-attachment and swaps, ${kickCount(200)} kicks of iterated local search), one core`,
  );
  const n = 200;
  const { x, y } = layout(n, 29);
  const side = Math.ceil(Math.sqrt(n)) * 600;
  const cases: [string, [number, number][], CableType[]][] = [
    ['centre substation, 3 types (cap 8)', [[side / 2 - 300, side / 2 - 300]], THREE],
    ['edge substation, 3 types (cap 8)', [[side / 2, -600]], THREE],
    ['centre substation, 1 type (cap 4)', [[side / 2 - 300, side / 2 - 300]], ONE],
  ];
  for (const [label, substations, cables] of cases) {
    const times: number[] = [];
    const cpu: number[] = [];
    let net = routeCollection({ turbines: { x, y }, substations, cables });
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      net = routeCollection({ turbines: { x, y }, substations, cables });
      const c1 = process.cpuUsage(c0);
      times.push((performance.now() - t0) / 1000);
      cpu.push((c1.user + c1.system) / 1e6);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const problems = checkNetwork(net, cables, x, y, substations);
    const feeders = net.edges.filter((e) => e.to >= n).length;
    console.log(
      `${label}: ${times[1].toFixed(3)} s wall, ${cpu[1].toFixed(3)} s CPU (target ≤ 1 s), cost ${net.totalCost.toFixed(0)}, length ${(net.totalLength / 1000).toFixed(2)} km, ${feeders} feeders, ${problems.length === 0 ? 'valid' : `INVALID: ${problems[0]}`}`,
    );
  }
}
