/**
 * Start-up benchmarks (`node dist/bench/run.js startup`): what one wflo process costs before it
 * does the work asked, end to end as a user (or a test) starts it, process start included:
 * `--help`, `validate examples/demo.yaml`, `aep iea37-cs1-16`, `status` of a campaign folder, and
 * `run examples/demo.yaml` (16 small optimizations: coordinator, pool workers and the exporter
 * process, their CPU included) in a fresh folder and again once every task is done (a resume).
 * Wall and CPU (user + system of the process and every child it waited for, through bash's
 * `time`) seconds: best and median of 5 repeats after a warm-up. Figures only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const DEMO = fileURLToPath(new URL('../../examples/demo.yaml', import.meta.url));
const REPEATS = 5;

const q = (x: string): string => `'${x.replace(/'/g, "'\\''")}'`;

/** Wall and CPU seconds of one `wflo ARGS` run in `cwd` (after `before`, untimed). */
function timeOnce(args: string[], cwd: string, before?: () => void): { wall: number; cpu: number } {
  before?.();
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%U %S'; time ${q(process.execPath)} ${q(CLI)} ${args.map(q).join(' ')} > /dev/null 2> /dev/null`], {
    cwd,
    encoding: 'utf8',
  });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`wflo ${args.join(' ')} failed (exit ${r.status})`);
  const [user, sys] = r.stderr.trim().split('\n').pop()!.split(/\s+/).map(Number);
  return { wall, cpu: user + sys };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function measure(label: string, args: string[], cwd: string, before?: () => void): void {
  timeOnce(args, cwd, before); // warm-up: the file cache, not the process
  const runs = Array.from({ length: REPEATS }, () => timeOnce(args, cwd, before));
  const wall = runs.map((r) => r.wall),
    cpu = runs.map((r) => r.cpu);
  console.log(
    `| ${label.padEnd(34)} | ${Math.min(...wall)
      .toFixed(2)
      .padStart(5)} | ${median(wall).toFixed(2).padStart(5)} | ${Math.min(...cpu)
      .toFixed(2)
      .padStart(5)} | ${median(cpu).toFixed(2).padStart(5)} |`,
  );
}

export async function benchStartup(): Promise<void> {
  console.log('\n## startup: one wflo process, start to exit (s; best and median of 5)\n');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-startup-'));
  try {
    // demo.yaml writes to ../out/demo from its own folder: a copy in <dir>/examples writes to <dir>/out.
    fs.mkdirSync(path.join(dir, 'examples'));
    fs.copyFileSync(DEMO, path.join(dir, 'examples', 'demo.yaml'));
    const out = path.join(dir, 'out', 'demo');
    console.log('| command | wall best | wall median | CPU best | CPU median |');
    console.log('|---|---|---|---|---|');
    measure('--help', ['--help'], dir);
    measure('validate examples/demo.yaml', ['validate', 'examples/demo.yaml'], dir);
    measure('aep iea37-cs1-16', ['aep', 'iea37-cs1-16'], dir);
    measure('run examples/demo.yaml (fresh)', ['run', 'examples/demo.yaml', '--quiet'], dir, () =>
      fs.rmSync(path.join(dir, 'out'), { recursive: true, force: true }),
    );
    measure('run examples/demo.yaml (all done)', ['run', 'examples/demo.yaml', '--quiet'], dir);
    measure('status out/demo', ['status', out], dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
