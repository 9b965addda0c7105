/**
 * Views benchmarks (`npm run bench` section "views", or `node dist/bench/run.js views`):
 * - `wflo report` (whole command, a fresh process each time) on a 3000-task campaign and on a
 *   100 000-task no-op campaign, with the HTML file size;
 * - dashboard first data: start the server on a warm 100 000-task ledger and GET /api/data.
 * Targets from issue 11: report ≤ 2 s (3000 tasks), ≤ 10 s and ≤ 10 MB (100 000 tasks); first
 * data ≤ 1 s. Warm-up run first, then 5 repeats, median. Figures only, no pass/fail.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const REPEATS = 5;

/** A no-op campaign of farms × types × seeds (IEA37 cs1 sites, 9 and 16 turbines). */
function campaign(out: string, name: string, farms: number, seeds: number): Record<string, unknown> {
  const cases = ['iea37-cs1-16', 'iea37-cs1-36', 'iea37-cs1-64'];
  return {
    name,
    output: out,
    farms: Array.from({ length: farms }, (_, id) => ({ id, case: cases[id % cases.length], label: `site ${id} (${cases[id % cases.length]})` })),
    farm_types: [
      { id: 0, turbine: 'iea37-3.35mw', n_turbines: 9 },
      { id: 1, turbine: 'iea37-3.35mw', n_turbines: 16 },
    ],
    seeds: { start: 0, count: seeds },
    optimizer: { method: 'noop' },
    workers: 2,
    export: { every_results: 10_000_000, every_s: 1_000_000 },
  };
}

function run(args: string[]): Promise<{ seconds: number; code: number | null; stderr: string }> {
  const start = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ seconds: (performance.now() - start) / 1000, code, stderr })));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function makeCampaign(dir: string, name: string, farms: number, seeds: number): Promise<string> {
  const out = path.join(dir, name);
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, stringify(campaign(out, name, farms, seeds)));
  const r = await run(['run', file, '--quiet']);
  if (r.code !== 0) throw new Error(`${name} run failed: ${r.stderr.trim()}`);
  return out;
}

async function benchReport(out: string, label: string, target: string): Promise<void> {
  const html = path.join(path.dirname(out), `${path.basename(out)}.html`);
  const times: number[] = [];
  for (let k = 0; k <= REPEATS; k++) {
    const r = await run(['report', out, '-o', html]);
    if (r.code !== 0) throw new Error(`report failed: ${r.stderr.trim()}`);
    if (k > 0) times.push(r.seconds);
  }
  console.log(
    `wflo report, ${label}: median ${median(times).toFixed(2)} s (whole command, min ${Math.min(...times).toFixed(2)}, max ${Math.max(...times).toFixed(2)}, ${REPEATS} runs after a warm-up); ` +
      `${(fs.statSync(html).size / 1e6).toFixed(2)} MB  [target ${target}]`,
  );
  // The same in this process (modules loaded): wall and CPU time, to tell work from waiting on a shared machine.
  const { writeReport } = await import('../src/views/writeReport.js');
  const walls: number[] = [],
    cpus: number[] = [];
  for (let k = 0; k <= REPEATS; k++) {
    const t0 = performance.now(),
      c0 = process.cpuUsage();
    await writeReport(out, html);
    const c = process.cpuUsage(c0);
    if (k > 0) {
      walls.push((performance.now() - t0) / 1000);
      cpus.push((c.user + c.system) / 1e6);
    }
  }
  console.log(`  in-process, modules loaded: median wall ${median(walls).toFixed(2)} s, CPU ${median(cpus).toFixed(2)} s`);
}

function getJson(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let bytes = 0;
        res.on('data', (b: Buffer) => {
          bytes += b.length;
        });
        res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`HTTP ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

/** Milliseconds until the first `event: data` of the server-sent events (the full view). */
function firstEvent(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (s: string) => {
        text += s;
        if (text.includes('event: data')) {
          req.destroy();
          resolve();
        }
      });
    });
    req.on('error', (err) => {
      if (!(err as NodeJS.ErrnoException).code?.includes('ECONNRESET')) reject(err);
    });
  });
}

async function benchDashboard(out: string): Promise<void> {
  const { startDashboard } = await import('../src/views/dashboardServer.js');
  const first: number[] = [],
    full: number[] = [];
  let bytes = 0;
  for (let k = 0; k <= REPEATS; k++) {
    const t0 = performance.now();
    const d = await startDashboard({ dir: out, port: 0 });
    try {
      bytes = await getJson(`http://127.0.0.1:${d.port}/api/data`);
      const t1 = performance.now();
      await firstEvent(`http://127.0.0.1:${d.port}/api/events`);
      const t2 = performance.now();
      if (k > 0) {
        first.push((t1 - t0) / 1000);
        full.push((t2 - t0) / 1000);
      }
    } finally {
      await d.close();
    }
  }
  console.log(
    `dashboard first data (server start + GET /api/data: status per cell, failures), warm 100 000-task ledger: median ${median(first).toFixed(2)} s ` +
      `(min ${Math.min(...first).toFixed(2)}, max ${Math.max(...first).toFixed(2)}; ${(bytes / 1e3).toFixed(0)} kB)  [target <= 1 s]`,
  );
  console.log(
    `dashboard full view (statistics, 40 layout plots, throughput; first server-sent event after start): median ${median(full).toFixed(2)} s ` +
      `(min ${Math.min(...full).toFixed(2)}, max ${Math.max(...full).toFixed(2)})`,
  );
}

export async function benchViews(): Promise<void> {
  console.log('\n## views');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-bench-views-'));
  try {
    const small = await makeCampaign(dir, 'report3000', 3, 500);
    await benchReport(small, '3000 tasks (3 farms × 2 types × 500 seeds, 6 cells)', '<= 2 s');
    const big = await makeCampaign(dir, 'report100k', 10, 5000);
    await benchReport(big, '100 000 no-op tasks (10 farms × 2 types × 5000 seeds, 20 cells)', '<= 10 s, <= 10 MB');
    await benchDashboard(big);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
