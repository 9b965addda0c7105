/**
 * `wflo serve --stdio` is bounded by its client, also while it computes (docs/python.md, "The
 * engine process"):
 * - SIGKILL of the Python process in the middle of a long `optimize` (4 starts of "global" on
 *   cs1-16, many seconds): the engine process is gone soon after (asserted: within 5 s, a bound
 *   for a loaded machine; the figure is printed). Before the watchdog it computed to the end.
 * - its stdin closed by a client that lives on, in the middle of the same optimize: gone as soon.
 * - a client that sends 80 flow-map requests (5.1 MB of reply each, 410 MB in all) and reads
 *   nothing: the server stops reading requests once 64 MiB of replies wait, so its peak RSS
 *   (VmHWM) stays below its RSS before the flood + 128 MiB (the bound docs/python.md states);
 *   when the client then reads, every reply comes, in order. Before, it buffered all 80.
 * - requests written while a long call computes (4000 AEP requests, 1.3 MB, in pieces cut
 *   mid-frame; the watchdog reads stdin during the call to see its end, 1 MiB at most) are all
 *   answered after it, in order, each equal to a fresh server's answer; then stdin closed in the
 *   middle of the next long call ends the server soon after.
 * Every process a test starts is killed at its end, whatever happened.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { CLI, PYTHON, REPO } from '../helpers.js';
import { PYTHON_PACKAGE, pythonMissing, processAlive as alive } from './pythonKit.js';

const hasProc = fs.existsSync('/proc/self/status');

/** Seconds until pid is gone, polling every 10 ms; null if it still runs after `limitS`. */
async function secondsUntilGone(pid: number, limitS: number): Promise<number | null> {
  const t0 = performance.now();
  while (alive(pid)) {
    if (performance.now() - t0 > limitS * 1000) return null;
    await new Promise((r) => setTimeout(r, 10));
  }
  return (performance.now() - t0) / 1000;
}

function killQuietly(p: ChildProcess | null, pid?: number): void {
  if (p && p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  if (pid !== undefined && alive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** Python opens cs1-16, prints the engine's pid, then runs a long optimize (on a thread when `thread`, and closes the engine's stdin 1 s later). */
const LONG_CALL = String.raw`
import sys, threading, time, wflo
engine = wflo.Engine()
farm = engine.farm("iea37-cs1-16")
print(engine._process.pid, flush=True)
def run():
    try:
        farm.optimize("global", seed=1, starts=4)
        print("optimize returned", flush=True)
    except wflo.WfloError as err:
        print("optimize raised:", err, flush=True)
if sys.argv[1] == "thread":
    t = threading.Thread(target=run)
    t.start()
    time.sleep(1.0)
    print("closing", flush=True)
    engine._process.stdin.close()
    t.join()
    time.sleep(600)
else:
    run()
`;

/** Start LONG_CALL; resolves with the Python process and the engine's pid; `marker`: also wait for that line. */
async function startLongCall(mode: 'main' | 'thread', marker?: string): Promise<{ py: ChildProcess; pid: number }> {
  const py = spawn(PYTHON, ['-c', LONG_CALL, mode], {
    cwd: REPO,
    env: { ...process.env, PYTHONPATH: PYTHON_PACKAGE, WFLO_CLI: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = await new Promise<number>((resolve, reject) => {
    let out = '';
    py.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      if (lines.length > 1 && (marker === undefined || lines.slice(1).some((l) => l === marker))) resolve(Number(lines[0]));
    });
    py.on('exit', (code) => reject(new Error(`python ended first (${code}): ${out}`)));
  });
  return { py, pid };
}

test('SIGKILL of Python in the middle of a long optimize: its engine process is gone soon after', {
  skip: pythonMissing() || (hasProc ? false : 'needs /proc'),
  timeout: 120_000,
}, async (t) => {
  let py: ChildProcess | null = null,
    pid: number | undefined;
  try {
    ({ py, pid } = await startLongCall('main'));
    await new Promise((r) => setTimeout(r, 1000)); // the optimize is under way
    assert.ok(alive(pid), `engine pid ${pid} is running`);
    assert.match(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /serve\0--stdio/);
    py.kill('SIGKILL');
    const s = await secondsUntilGone(pid, 5);
    t.diagnostic(`engine gone ${s === null ? 'not within 5' : s.toFixed(3)} s after the SIGKILL of its Python`);
    assert.notEqual(s, null, `wflo serve (pid ${pid}) still computes 5 s after its Python was killed`);
  } finally {
    killQuietly(py, pid);
  }
});

test('stdin closed by a live client in the middle of a long optimize: the engine process is gone soon after', {
  skip: pythonMissing() || (hasProc ? false : 'needs /proc'),
  timeout: 120_000,
}, async (t) => {
  let py: ChildProcess | null = null,
    pid: number | undefined;
  try {
    ({ py, pid } = await startLongCall('thread', 'closing'));
    const s = await secondsUntilGone(pid, 5);
    t.diagnostic(`engine gone ${s === null ? 'not within 5' : s.toFixed(3)} s after its stdin was closed (the client lives on)`);
    assert.notEqual(s, null, `wflo serve (pid ${pid}) still computes 5 s after its stdin was closed`);
    assert.equal(py.exitCode, null, 'the client lives on');
  } finally {
    killQuietly(py, pid);
  }
});

/** One request frame (as frames.ts encodes it). */
function frame(header: Record<string, unknown>, arrays: Record<string, number[]> = {}): Buffer {
  const names = Object.keys(arrays);
  const h = names.length ? { ...header, arrays: names.map((name) => ({ name, bytes: arrays[name].length * 8 })) } : header;
  const json = Buffer.from(JSON.stringify(h), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length, 0);
  return Buffer.concat([len, json, ...names.map((n) => Buffer.from(new Float64Array(arrays[n]).buffer))]);
}

/** Replies cut from the server's stdout as they come (headers, and each reply's array bytes). */
class Replies {
  private buf = Buffer.alloc(0);
  readonly headers: Record<string, unknown>[] = [];
  readonly arrays: Buffer[] = [];
  push(c: Buffer): void {
    this.buf = Buffer.concat([this.buf, c]);
    for (;;) {
      if (this.buf.length < 4) return;
      const n = this.buf.readUInt32LE(0);
      if (this.buf.length < 4 + n) return;
      const h = JSON.parse(this.buf.subarray(4, 4 + n).toString('utf8')) as Record<string, unknown> & { arrays?: { bytes: number }[] };
      const total = 4 + n + (h.arrays ?? []).reduce((s, a) => s + a.bytes, 0);
      if (this.buf.length < total) return;
      this.headers.push(h);
      this.arrays.push(Buffer.from(this.buf.subarray(4 + n, total)));
      this.buf = this.buf.subarray(total);
    }
  }
}

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(m, `${field} of ${pid}`);
  return Number(m[1]);
}

/** utime + stime of pid, clock ticks. */
function cpuTicks(pid: number): number {
  const f = fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .slice(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2)
    .split(' ');
  return Number(f[11]) + Number(f[12]);
}

const STATED_BOUND_MIB = 128;

test('a client that reads no replies: the server stops reading at 64 MiB of unsent replies, its RSS within the stated bound; then every reply comes in order', {
  skip: hasProc ? false : 'needs /proc',
  timeout: 300_000,
}, async (t) => {
  const p = spawn(process.execPath, [CLI, 'serve', '--stdio'], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  p.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  try {
    const replies = new Replies();
    const onData = (c: Buffer) => replies.push(c);
    p.stdout.on('data', onData);
    const until = async (n: number) => {
      while (replies.headers.length < n) await new Promise((r) => setTimeout(r, 20));
    };
    // cs1-16's baseline, and flow maps of 800 × 800 cells (5.1 MB of speeds each).
    p.stdin.write(frame({ kind: 'open', case: 'iea37-cs1-16', id: 1 }));
    await until(1);
    const open = replies.headers[0];
    assert.equal(open.ok, true, JSON.stringify(open));
    const flow = (id: number) =>
      frame(
        { kind: 'flow_map', id, handle: open.handle, direction_deg: 270, min_x: -1500, max_x: 1500, min_y: -1500, max_y: 1500, nx: 800, ny: 800 },
        {
          x: Array.from({ length: 16 }, (_, i) => 1300 * Math.cos((2 * Math.PI * i) / 16)),
          y: Array.from({ length: 16 }, (_, i) => 1300 * Math.sin((2 * Math.PI * i) / 16)),
        },
      );
    // Two read at once (the evaluator warm, its working memory in the RSS), then the baseline RSS.
    p.stdin.write(Buffer.concat([flow(2), flow(3)]));
    await until(3);
    const before = statusKiB(p.pid!, 'VmRSS');
    // 80 more, none read: the test's end of the pipe stops reading.
    p.stdout.pause();
    p.stdout.off('data', onData);
    const N = 80;
    p.stdin.write(Buffer.concat(Array.from({ length: N }, (_, k) => flow(4 + k))));
    // Wait until the server stops computing (its CPU time still for 2 s).
    let last = cpuTicks(p.pid!),
      still = 0;
    while (still < 2000) {
      await new Promise((r) => setTimeout(r, 250));
      const now = cpuTicks(p.pid!);
      still = now === last ? still + 250 : 0;
      last = now;
    }
    const rss = statusKiB(p.pid!, 'VmRSS'),
      peak = statusKiB(p.pid!, 'VmHWM');
    t.diagnostic(
      `engine RSS ${(before / 1024).toFixed(1)} MiB before the flood; with ${N} replies unread: RSS ${(rss / 1024).toFixed(1)} MiB, peak ${(peak / 1024).toFixed(1)} MiB (+${((peak - before) / 1024).toFixed(1)} MiB; stated bound +${STATED_BOUND_MIB} MiB)`,
    );
    assert.ok(
      peak - before < STATED_BOUND_MIB * 1024,
      `peak RSS ${(peak / 1024).toFixed(1)} MiB, more than ${STATED_BOUND_MIB} MiB above the ${(before / 1024).toFixed(1)} MiB before the flood`,
    );
    assert.match(stderr, /more than 64 MiB of replies are waiting for the client to read them; no request is read until it has read them/);
    // The client reads now: every reply, in order.
    p.stdout.on('data', onData);
    p.stdout.resume();
    await until(3 + N);
    assert.deepEqual(
      replies.headers.map((h) => h.id),
      Array.from({ length: 3 + N }, (_, k) => 1 + k),
    );
    assert.ok(replies.headers.every((h) => h.ok === true));
    p.stdin.end();
    const code = await new Promise<number | null>((resolve) => p.on('exit', (c) => resolve(c)));
    assert.equal(code, 0, stderr);
  } finally {
    killQuietly(p);
  }
});

test('requests written during a long call are answered after it, in order, as a fresh server answers them; stdin closed during the next long call ends the server', {
  skip: hasProc ? false : 'needs /proc',
  timeout: 300_000,
}, async (t) => {
  const servers: ChildProcess[] = [];
  const serve = () => {
    const p = spawn(process.execPath, [CLI, 'serve', '--stdio'], { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] });
    servers.push(p);
    const replies = new Replies();
    p.stdout!.on('data', (c: Buffer) => replies.push(c));
    const until = async (n: number) => {
      while (replies.headers.length < n) await new Promise((r) => setTimeout(r, 20));
    };
    return { p, replies, until };
  };
  try {
    // Random layouts around cs1-16's circle; ids 3 … 3 + N − 1 on the busy server.
    const N = 4000;
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const layouts = Array.from({ length: N }, () => ({
      x: Array.from({ length: 16 }, (_, i) => 1200 * Math.cos((2 * Math.PI * i) / 16) + 60 * (rand() - 0.5)),
      y: Array.from({ length: 16 }, (_, i) => 1200 * Math.sin((2 * Math.PI * i) / 16) + 60 * (rand() - 0.5)),
    }));
    const aeps = (first: number) => Buffer.concat(layouts.map((l, k) => frame({ kind: 'aep', id: first + k, handle: 1 }, l)));

    const busy = serve();
    busy.p.stdin!.write(frame({ kind: 'open', case: 'iea37-cs1-16', id: 1 }));
    await busy.until(1);
    assert.equal(busy.replies.headers[0].handle, 1);
    busy.p.stdin!.write(frame({ kind: 'optimize', id: 2, handle: 1, method: 'global', seed: 1 }));
    // During the optimize: the AEP requests in 9 pieces, 150 ms apart, cut anywhere.
    const all = aeps(3);
    const cuts = [0, ...Array.from({ length: 8 }, (_, k) => Math.floor(((k + 1) * all.length) / 9) + 7), all.length];
    await new Promise((r) => setTimeout(r, 300));
    for (let k = 0; k + 1 < cuts.length; k++) {
      busy.p.stdin!.write(all.subarray(cuts[k], cuts[k + 1]));
      await new Promise((r) => setTimeout(r, 150));
    }
    assert.equal(busy.replies.headers.length, 1, 'the optimize was still computing while the requests were written');
    await busy.until(2 + N);
    assert.deepEqual(
      busy.replies.headers.map((h) => h.id),
      Array.from({ length: 2 + N }, (_, k) => 1 + k),
    );
    assert.equal(busy.replies.headers[1].ok, true, JSON.stringify(busy.replies.headers[1]));

    const fresh = serve();
    fresh.p.stdin!.write(Buffer.concat([frame({ kind: 'open', case: 'iea37-cs1-16', id: 1 }), aeps(3)]));
    await fresh.until(1 + N);
    let equal = 0;
    for (let k = 0; k < N; k++) {
      const a = busy.replies.headers[2 + k],
        b = fresh.replies.headers[1 + k];
      if (a.ok === true && Object.is(a.aep_mwh, b.aep_mwh) && busy.replies.arrays[2 + k].equals(fresh.replies.arrays[1 + k])) equal++;
    }
    assert.equal(equal, N);
    fresh.p.stdin!.end();

    // The next long call, then stdin closed in its middle.
    busy.p.stdin!.write(frame({ kind: 'optimize', id: 3 + N, handle: 1, method: 'global', seed: 2 }));
    await new Promise((r) => setTimeout(r, 1000));
    busy.p.stdin!.end();
    const s = await secondsUntilGone(busy.p.pid!, 5);
    t.diagnostic(
      `${N} requests written during an optimize answered in order; the server gone ${s === null ? 'not within 5' : s.toFixed(3)} s after stdin closed during the next`,
    );
    assert.notEqual(s, null, 'the server still computes 5 s after its stdin closed');
    assert.equal(busy.replies.headers.length, 2 + N, 'the abandoned optimize was not answered');
  } finally {
    for (const p of servers) killQuietly(p);
  }
});
