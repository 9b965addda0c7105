/**
 * `site` bench section (issue 31): AEP and AEP + gradient on a site that is not uniform, wflo beside
 * DTU's PyWake `XRSite`, in one sitting: the case of siteCase.ts (100 V80, 10 × 10 grid at 400 m,
 * 360 × 23, Bastankhah 2014, a speed-up hill on a 17 × 17 grid), each figure a process of its own
 * pinned to one core (`taskset -c $BENCH_CPU`, default 0, as the realfarms section), wflo and PyWake
 * interleaved round by round (SITE_ROUNDS, default 2), CPU seconds (user + system: on a shared
 * machine the steadier figure), the median of SITE_REPEATS calls (default 5; PyWake's gradient
 * SITE_PYWAKE_GRAD_REPEATS, default 2) after a warm-up. The ratios are taken within a round. Once,
 * wflo's JavaScript kernel on the same case (what a site ran on before the native kernel took it).
 * PyWake's rows need PYWAKE_PYTHONPATH (PyWake's and autograd's source folders, plus a folder with an
 * import guard where the PyWake mirror lacks its git-lfs data); without it they say so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSiteBenchCase } from './siteCase.js';
import { pinned, pywake } from './realFarms.js';

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'siteProbe.js');
const ROUNDS = Number(process.env.SITE_ROUNDS ?? 2);
const REPEATS = Number(process.env.SITE_REPEATS ?? 5);
const PYWAKE_GRAD_REPEATS = Number(process.env.SITE_PYWAKE_GRAD_REPEATS ?? 2);

type Run = Record<string, unknown>;

function median(a: unknown): number {
  if (!Array.isArray(a) || a.length === 0) return NaN;
  const s = [...(a as number[])].sort((p, q) => p - q);
  return s[s.length >> 1];
}

function row(label: string, r: Run | null): void {
  if (r === null) {
    console.log(`${label.padEnd(44)} not run (set PYWAKE_PYTHONPATH to PyWake's and autograd's source folders)`);
    return;
  }
  if (r.error) {
    console.log(`${label.padEnd(44)} failed: ${String(r.error).slice(0, 160)}`);
    return;
  }
  const grad = median(r.grad_cpu_s);
  console.log(
    `${label.padEnd(44)}${(median(r.aep_cpu_s) * 1e3).toFixed(0).padStart(10)}${(Number.isNaN(grad) ? '—' : (grad * 1e3).toFixed(0)).padStart(14)}` +
      `   AEP ${(r.aep_mwh as number).toFixed(3)} MWh  load ${(r.load as string[]).join(' ')}`,
  );
}

export async function benchSite(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-site-'));
  try {
    const file = path.join(dir, 'site-bench.yaml');
    writeSiteBenchCase(file);
    console.log(
      `\n## Site that is not uniform: 100 V80 (10 × 10 grid at 400 m), 360 × 23, Bastankhah 2014, speed-up hill on a 17 × 17 grid (one process per figure, pinned to CPU ${process.env.BENCH_CPU ?? '0'}; load at start ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    console.log('figure'.padEnd(44) + 'CPU ms AEP'.padStart(10) + 'CPU ms AEP+grad'.padStart(16));
    const ratios: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const w = pinned(process.execPath, [PROBE, file, String(REPEATS)]);
      row(`wflo (${w.kernel ?? 'native'} kernel), round ${round}`, w);
      const p = pywake('pywake_site_time.py', [file, String(Math.max(2, Math.ceil(REPEATS / 2))), String(PYWAKE_GRAD_REPEATS)]);
      row(`PyWake XRSite, round ${round}`, p);
      if (p && !p.error && !w.error) {
        const rel = Math.abs((w.aep_mwh as number) - (p.aep_mwh as number)) / (p.aep_mwh as number);
        ratios.push(
          `round ${round}: PyWake / wflo CPU time: AEP ${(median(p.aep_cpu_s) / median(w.aep_cpu_s)).toFixed(1)}×, AEP + gradient ` +
            `${(median(p.grad_cpu_s) / median(w.grad_cpu_s)).toFixed(1)}×; AEPs differ by ${rel.toExponential(1)} relative`,
        );
      }
    }
    row('wflo (JavaScript kernel), once', pinned(process.execPath, [PROBE, file, String(Math.max(2, Math.ceil(REPEATS / 2))), 'js']));
    for (const r of ratios) console.log(r);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
