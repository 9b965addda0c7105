/** Shared by the bench sections: run the wflo CLI as a child process and measure it; time a call in repeated batches. */
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

export interface MeasuredRun {
  seconds: number;
  /** Peak resident memory (VmHWM) of the wflo process, MB. */
  peakRssMb: number;
  code: number | null;
  stderr: string;
}

/** Run `wflo ARGS`; wall seconds and the peak RSS of that process. */
export function runWfloMeasured(args: string[]): Promise<MeasuredRun> {
  const start = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      /* exited */
    }
  }, 100);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ seconds: (performance.now() - start) / 1000, peakRssMb: peakKb / 1024, code, stderr });
    }),
  );
}

/** Per-call wall and CPU seconds: median of 7 batches, each ≥ 0.2 s of calls, after a warm-up. */
export function batchedTime(fn: () => void): { wall: number; cpu: number } {
  fn();
  let number = 1;
  for (;;) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < number; i++) fn();
    if (Number(process.hrtime.bigint() - t) / 1e9 > 0.2) break;
    number *= 2;
  }
  const walls: number[] = [],
    cpus: number[] = [];
  for (let r = 0; r < 7; r++) {
    const c0 = process.cpuUsage();
    const t = process.hrtime.bigint();
    for (let i = 0; i < number; i++) fn();
    walls.push(Number(process.hrtime.bigint() - t) / 1e9 / number);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1e6 / number);
  }
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { wall: walls[3], cpu: cpus[3] };
}
