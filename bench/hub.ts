/**
 * `hub` bench section (issue 41): the hub height as a design variable under shear
 * (optimize/hubHeight.ts) on the JavaScript kernel (where every hub-height evaluation ran before the
 * native kernel gave ∂AEP/∂h, wakedNative.ts) and on the native kernel, side by side in one run:
 *   1. AEP + ∂AEP/∂(x, y, h) of examples/hub-height-shear.yaml's site, turbine and rose on a larger
 *      farm (HUB_TURBINES turbines, default 49, on a square grid over the example's square) and the
 *      example's 3 × 3 grid: CPU ms per call, median of HUB_REPEATS (default 5) after 20 warm-up
 *      calls; the two kernels' AEP and Σ∂AEP/∂h beside each other.
 *   2. The whole `wflo optimize examples/hub-height-shear.yaml --method gradient --seed 1` (with and
 *      without `--wec 1`; optimizeLayout in this process, as the CLI calls it): CPU s, evaluations,
 *      the chosen height and AEP on each kernel, after one warm-up run each, HUB_ROUNDS (default 5)
 *      rounds alternating the kernels, and the median of the rounds' ratios.
 * The kernel is chosen as a user would, by WFLO_KERNEL (the solve plan reads it at every plan), so
 * the JavaScript rows are what the same code computes without the native kernel (a little faster
 * than before the native kernel took the hub height: a new height no longer re-plans the farm). CPU seconds (user +
 * system of this process: on a shared machine the steadier figure); compare the ratios, not the
 * absolute times.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCase } from '../src/io/caseFile.js';
import { optimizeLayout } from '../src/optimize/optimizeLayout.js';
import type { OptimizerSettings } from '../src/optimize/settings.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import type { Case } from '../src/case/case.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const EXAMPLE = path.join(ROOT, 'examples', 'hub-height-shear.yaml');
const REPEATS = Number(process.env.HUB_REPEATS ?? 5);
const TURBINES = Number(process.env.HUB_TURBINES ?? 49);
const ROUNDS = Number(process.env.HUB_ROUNDS ?? 5);
/** Calls before the timed ones (the JIT compiles the JavaScript kernel's loops on the first few). */
const WARMUP = 20;

type Kernel = 'js' | 'native';

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Runs f with WFLO_KERNEL set for the kernel (unset for native), restoring it after. */
function withKernel<T>(kernel: Kernel, f: () => T): T {
  const before = process.env.WFLO_KERNEL;
  if (kernel === 'js') process.env.WFLO_KERNEL = 'js';
  else delete process.env.WFLO_KERNEL;
  try {
    return f();
  } finally {
    if (before === undefined) delete process.env.WFLO_KERNEL;
    else process.env.WFLO_KERNEL = before;
  }
}

function median(a: number[]): number {
  const s = [...a].sort((p, q) => p - q);
  return s[s.length >> 1];
}

/** A k × k grid over the example's 1300 m square (its boundary), inset by 50 m. */
function grid(count: number): { x: Float64Array; y: Float64Array } {
  const k = Math.ceil(Math.sqrt(count));
  const x = new Float64Array(count),
    y = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    x[i] = 50 + ((i % k) * 1200) / (k - 1);
    y[i] = 50 + (Math.floor(i / k) * 1200) / (k - 1);
  }
  return { x, y };
}

/** CPU ms of AEP + ∂AEP/∂(x, y, h) at the case's hub height, and its AEP and Σ∂AEP/∂h. */
function gradientCall(c: Case, x: Float64Array, y: Float64Array, kernel: Kernel): { ms: number; aep: number; dh: number } {
  return withKernel(kernel, () => {
    const ev = createFarmEvaluator(c.turbine, c.wind, c.model, undefined, 'best', { hubHeightGradient: true });
    let r = ev.aepWithGradient(x, y) as ReturnType<typeof ev.aepWithGradient> & { gradH?: Float64Array };
    for (let k = 0; k < WARMUP; k++) r = ev.aepWithGradient(x, y);
    const times: number[] = [];
    for (let k = 0; k < REPEATS; k++) {
      const t0 = cpuSeconds();
      r = ev.aepWithGradient(x, y);
      times.push((cpuSeconds() - t0) * 1e3);
    }
    return { ms: median(times), aep: r.aepMwh, dh: (r.gradH ?? new Float64Array(0)).reduce((a, b) => a + b, 0) };
  });
}

export async function benchHub(): Promise<void> {
  const c = loadCase(EXAMPLE);
  console.log(
    `\n## Hub height under shear (examples/hub-height-shear.yaml: IEA37 3.35 MW, ${c.wind.directionsDeg.length} × ${c.wind.speeds.length} rose, ` +
      `speed-up over h under a power-law shear; load at start ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
  );
  console.log(
    'AEP + ∂AEP/∂(x, y, h)'.padEnd(34) +
      'CPU ms JS'.padStart(12) +
      'CPU ms native'.padStart(15) +
      'ratio'.padStart(8) +
      '   AEP MWh (JS / native), Σ∂AEP/∂h MWh/m',
  );
  for (const [label, layout] of [
    [`${TURBINES} turbines on a grid`, grid(TURBINES)],
    ['9 turbines (3 × 3 grid)', grid(9)],
  ] as const) {
    const js = gradientCall(c, layout.x, layout.y, 'js');
    const native = gradientCall(c, layout.x, layout.y, 'native');
    console.log(
      label.padEnd(34) +
        js.ms.toFixed(2).padStart(12) +
        native.ms.toFixed(2).padStart(15) +
        `${(js.ms / native.ms).toFixed(1)}×`.padStart(8) +
        `   ${js.aep.toFixed(6)} / ${native.aep.toFixed(6)}, ${js.dh.toExponential(9)} / ${native.dh.toExponential(9)}`,
    );
  }
  // The whole optimization, as `wflo optimize` runs it: once each to warm up (the JIT compiles the
  // optimizer's code on whichever kernel runs first), then HUB_ROUNDS rounds alternating the kernels.
  const runs: [string, OptimizerSettings][] = [
    ['--seed 1 (WEC continuation)', { method: 'gradient' }],
    ['--wec 1 --seed 1', { method: 'gradient', wec: [1] }],
  ];
  for (const [label, settings] of runs) {
    console.log(`\nwflo optimize examples/hub-height-shear.yaml --method gradient ${label}`);
    console.log(
      '  round'.padEnd(34) + 'CPU s JS'.padStart(11) + 'CPU s native'.padStart(14) + 'ratio'.padStart(8) + '   evaluations, hub height, AEP (JS / native)',
    );
    const once = (kernel: Kernel) =>
      withKernel(kernel, () => {
        const t0 = cpuSeconds();
        const result = optimizeLayout(c, settings, 1);
        return { s: cpuSeconds() - t0, result };
      });
    once('js');
    once('native');
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const js = once('js'),
        native = once('native');
      ratios.push(js.s / native.s);
      const what = (r: ReturnType<typeof once>) => `${r.result.evaluations}, ${r.result.hubHeight?.toFixed(3)} m, ${r.result.aep.toFixed(2)} MWh`;
      console.log(
        `  ${round}`.padEnd(34) +
          js.s.toFixed(3).padStart(11) +
          native.s.toFixed(3).padStart(14) +
          `${(js.s / native.s).toFixed(1)}×`.padStart(8) +
          `   ${what(js)} / ${what(native)}`,
      );
    }
    console.log(`  JavaScript / native CPU time, median of ${ROUNDS} rounds: ${median(ratios).toFixed(1)}×`);
  }
}
