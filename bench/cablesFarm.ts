/**
 * The seeded turbine layouts of the cable-routing bench (bench/cables.ts) and tests
 * (test/geometry/collection.test.ts), one generator for both: n turbines on a square grid of
 * `spacing` metres (⌈√n⌉ per row), each moved by a uniform jitter of ±jitter/2 in x and y drawn from
 * a linear congruential generator seeded with `seed` (the same seed, the same farm).
 */
export function jitteredGridFarm(n: number, seed: number, spacing: number, jitter: number): { x: number[]; y: number[] } {
  let s = seed >>> 0;
  const rand = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const side = Math.ceil(Math.sqrt(n));
  const x: number[] = [];
  const y: number[] = [];
  for (let k = 0; k < n; k++) {
    x.push((k % side) * spacing + (rand() - 0.5) * jitter);
    y.push(Math.floor(k / side) * spacing + (rand() - 0.5) * jitter);
  }
  return { x, y };
}
