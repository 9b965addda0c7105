/**
 * Input parsing benchmarks (`node dist/bench/run.js parsing`): `wflo validate` as a user runs it
 * (process start included) on generated YAML, CSV and windIO inputs, printing wall seconds and
 * peak resident memory (read by the process itself at exit) per MB of input. The start-up cost
 * (a tiny file) is measured first and subtracted in the per-MB columns; time per MB is CPU time
 * (user + system, which a shared machine does not inflate as it does wall time).
 * Also the refusal of a 7 MB flat YAML list (3.5 million elements, over the element budget).
 * Median of 3 runs.
 * Figures only: compare ratios within one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI } from './benchKit.js';

const PRELOAD = fileURLToPath(new URL('../test/helpers/peakRssPreload.js', import.meta.url));
const PLANT = fileURLToPath(new URL('../../test/data/windio/plant', import.meta.url));
const REPEATS = 3;

interface Run {
  seconds: number;
  cpuS: number;
  peakMb: number;
  code: number | null;
  out: string;
}

function validate(args: string[], dir: string): Run {
  const peakFile = path.join(dir, 'peak');
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--import', PRELOAD, CLI, 'validate', ...args], {
    encoding: 'utf8',
    env: { ...process.env, WFLO_PEAK_RSS_FILE: peakFile },
    maxBuffer: 16 << 20,
  });
  const seconds = (performance.now() - start) / 1000;
  const { peakKb, cpuS } = JSON.parse(fs.readFileSync(peakFile, 'utf8')) as { peakKb: number; cpuS: number };
  return { seconds, cpuS, peakMb: peakKb / 1024, code: r.status, out: (r.stdout + r.stderr).trim().split('\n')[0] };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function measure(args: string[], dir: string): Run {
  const runs = Array.from({ length: REPEATS }, () => validate(args, dir));
  return {
    seconds: median(runs.map((r) => r.seconds)),
    cpuS: median(runs.map((r) => r.cpuS)),
    peakMb: median(runs.map((r) => r.peakMb)),
    code: runs[0].code,
    out: runs[0].out,
  };
}

export async function benchInputParsing(): Promise<void> {
  console.log('\n## parsing: wflo validate on generated inputs (median of 3; per MB: start-up subtracted)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-parsing-'));
  try {
    const tiny = path.join(dir, 'tiny.yaml');
    fs.writeFileSync(tiny, 'x: [0, 500]\ny: [0, 0]\n');
    const base = measure([tiny], dir);
    console.log(`start-up (a 2-turbine layout): ${base.seconds.toFixed(2)} s wall, ${base.cpuS.toFixed(2)} s CPU, peak ${base.peakMb.toFixed(0)} MB`);

    const cases: { label: string; file: string; args?: string[] }[] = [];
    // Parsing alone: 140 000 numbers in a flow list under a key no kind has (then "cannot tell what kind").
    const numbers = path.join(dir, 'numbers.yaml');
    fs.writeFileSync(numbers, `values: [${Array.from({ length: 140_000 }, (_, i) => ((i * 7919) % 100_000) * 0.25).join(', ')}]\n`);
    cases.push({ label: 'YAML, 140 000 numbers in one flow list (parse only)', file: numbers });
    // The largest real rose: 360 directions × 40 speeds, a probability and a turbulence table.
    const rose = path.join(dir, 'rose.yaml');
    const table = (f: (d: number, v: number) => number) =>
      Array.from({ length: 360 }, (_, d) => `  - [${Array.from({ length: 40 }, (_, v) => f(d, v)).join(', ')}]`).join('\n');
    fs.writeFileSync(
      rose,
      `wind_direction: [${Array.from({ length: 360 }, (_, d) => d).join(', ')}]\nwind_speed: [${Array.from({ length: 40 }, (_, v) => 0.5 + v * 0.75).join(', ')}]\n` +
        `probability:\n${table(() => 1 / 14_400)}\nturbulence_intensity:\n${table((d, v) => 0.06 + ((d + v) % 7) * 0.005)}\n`,
    );
    cases.push({ label: 'YAML wind rose, 360 × 40 with a turbulence table', file: rose });
    const seriesYaml = path.join(dir, 'series-wind.yaml');
    const m = 30_000;
    const col = (f: (i: number) => number) => Array.from({ length: m }, (_, i) => `    - ${f(i)}`).join('\n');
    fs.writeFileSync(
      seriesYaml,
      `wind_resource:\n  time_series:\n    wind_direction:\n${col((i) => (i * 7.3) % 360)}\n    wind_speed:\n${col((i) => 5 + (i % 13) * 0.7)}\n`,
    );
    cases.push({ label: `YAML wind time series, ${m} samples (block lists)`, file: seriesYaml });

    for (const rows of [100_000, 1_000_000]) {
      const csv = path.join(dir, `met-${rows}.csv`);
      const lines = ['time,wind_direction,wind_speed,turbulence_intensity,weight'];
      for (let i = 0; i < rows; i++) lines.push(`${i * 600},${(i * 7.3) % 360},${(5 + (i % 13) * 0.7).toFixed(2)},0.08,1`);
      fs.writeFileSync(csv, `${lines.join('\n')}\n`);
      cases.push({ label: `CSV time series, ${rows} rows`, file: csv });
    }

    // windIO: the official cs1 plant with its resource replaced by a time series of `w` samples.
    const plant = path.join(dir, 'plant');
    fs.cpSync(PLANT, plant, { recursive: true });
    const w = 30_000;
    const list = (f: (i: number) => number) => `[${Array.from({ length: w }, (_, i) => f(i)).join(', ')}]`;
    fs.writeFileSync(
      path.join(plant, 'plant_energy_resource', 'IEA37_case_study_1_2_energy_resource.yaml'),
      `name: bench series\nwind_resource:\n  time: ${list((i) => i * 600)}\n  wind_speed: ${list((i) => 5 + (i % 13) * 0.7)}\n  wind_direction: ${list((i) => (i * 7.3) % 360)}\n`,
    );
    cases.push({
      label: `windIO plant, ${w}-sample resource included`,
      file: path.join(plant, 'wind_energy_system', 'IEA37_case_study_1_2_wind_energy_system.yaml'),
    });

    const flat = path.join(dir, 'flat-7mb.yaml');
    fs.writeFileSync(flat, `x: [${'1,'.repeat(3_500_000)}1]\n`);
    cases.push({ label: '7 MB flat list (refused: over the element budget)', file: flat });

    for (const c of cases) {
      const bytes = fs.statSync(c.file).size;
      // The windIO case's input is every file of the plant it reads.
      const inputMb = (c.label.startsWith('windIO') ? bytes + plantBytes(plant, c.file) : bytes) / 1e6;
      const r = measure([c.file, ...(c.args ?? [])], dir);
      const perMbS = Math.max(0, r.cpuS - base.cpuS) / inputMb;
      const perMbMem = Math.max(0, r.peakMb - base.peakMb) / inputMb;
      console.log(
        `${c.label}: ${inputMb.toFixed(2)} MB, exit ${r.code}, ${r.seconds.toFixed(2)} s wall, ${r.cpuS.toFixed(2)} s CPU, peak ${r.peakMb.toFixed(0)} MB` +
          ` → ${perMbS.toFixed(2)} s CPU and ${perMbMem.toFixed(0)} MB of memory per MB of input`,
      );
      if (r.code !== 0) console.log(`  ${r.out.slice(0, 160)}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes of the plant's other YAML files (the top file is counted by the caller). */
function plantBytes(plant: string, top: string): number {
  let total = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p !== top && /case_study_1_2|3\.35MW/.test(e.name)) total += fs.statSync(p).size;
    }
  };
  walk(plant);
  return total;
}
