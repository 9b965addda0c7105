/**
 * `wflo dashboard` under hostile load, as a separate process watched from outside: a campaign
 * runs (its payload changes every second), then 200 raw sockets connect, send a request
 * (most `/api/events`, some `/api/data`) and never read; a second wave of 200 follows after 15 s.
 * For 30 s the server's resident memory (/proc/PID/status VmRSS) must stay within 100 MB of
 * what it used idle; the sockets of clients that never read are closed by the server (its open
 * sockets, /proc/PID/fd, fall); a page still gets current data, and one stream too many gets
 * 503 with Retry-After; connections that never complete a request (silent, or a header line
 * every 2 s) are cut; when the connection cap is reached, a newcomer takes the place of a client
 * that stopped reading (pages are never turned away by it). Everything the test starts is closed in `after`, also on failure; a
 * runaway server (600 MB over idle) ends the test early.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { killGroup, runWflo, startWflo, tempDir, waitForLine, writeNoopCampaign } from './viewsTestKit.js';

const CLIENTS = 200;
const LOAD_S = 30;
const RSS_MARGIN_MB = 100;
const RUNAWAY_MB = 600;

const children: ChildProcess[] = [];
const sockets = new Set<net.Socket>();
const requests = new Set<http.ClientRequest>();
after(async () => {
  for (const r of requests) r.destroy();
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(children.map((c) => killGroup(c)));
});

const rssMb = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
const openSockets = (pid: number): number =>
  fs.readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client that connects, sends one request and never reads (paused: the kernel's buffers fill, then the server's writes stall). */
function neverReads(port: number, route: string): net.Socket {
  const s = net.connect({ host: '127.0.0.1', port });
  s.pause();
  s.on('error', () => {
    /* reset by the server: expected */
  });
  s.write(`GET ${route} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  sockets.add(s);
  return s;
}

/**
 * A client that holds a connection without a complete request: silent, or trickling a header
 * line every 2 s (slowloris). It reads, so it sees the server close it; resolves with the time.
 */
function holdsOpen(port: number, trickle: boolean): Promise<number> {
  const t0 = Date.now();
  const s = net.connect({ host: '127.0.0.1', port });
  sockets.add(s);
  let timer: NodeJS.Timeout | null = null;
  if (trickle) {
    s.write(`GET /api/data HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    let n = 0;
    timer = setInterval(() => {
      if (!s.destroyed) s.write(`X-Slow-${n++}: 1\r\n`);
    }, 2000);
  }
  return new Promise((resolve) => {
    s.on('error', () => {
      /* reset: counts as closed */
    });
    s.on('data', () => {
      /* a 408 or nothing */
    });
    s.on('close', () => {
      if (timer) clearInterval(timer);
      resolve(Date.now() - t0);
    });
  });
}

function get(port: number, route: string, timeoutMs = 20_000): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: route, headers: { Host: `127.0.0.1:${port}` }, agent: false }, (res) => {
      if (res.headers['content-type']?.startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        return;
      }
      let body = '';
      res.setEncoding('utf8').on('data', (s: string) => {
        body += s;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${route}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

/** A page that reads its stream to the end (kept open through the test); counts the data events it got. */
function reader(port: number): { events: () => number; close: () => void } {
  let events = 0;
  const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { Host: `127.0.0.1:${port}` }, agent: false }, (res) => {
    res.setEncoding('utf8').on('data', (s: string) => {
      events += s.split('event: data').length - 1;
    });
  });
  req.on('error', () => {
    /* closed at the end */
  });
  requests.add(req);
  return { events: () => events, close: () => req.destroy() };
}

/** Read one full `event: data` frame from the stream (a page that reads), then leave. */
function readOneEvent(port: number, timeoutMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { Host: `127.0.0.1:${port}` }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (s: string) => {
        text += s;
        const end = text.indexOf('\n\n', text.indexOf('event: data'));
        if (text.includes('event: data') && end !== -1) {
          res.destroy();
          resolve(end);
        }
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('no data event')));
    req.on('error', reject);
  });
}

test('200 clients that never read: memory flat, slow streams dropped, 503 when full, pages still served', { timeout: 150_000 }, async (t) => {
  const dir = tempDir('wflo-dash-load-');
  // 2 farms × 20 types: 40 cells, whose best and worst layouts make a payload of about 0.7 MB.
  // One seed of each first (a finished run), then 40 seeds: 2 workers at 250 ms a task keep the
  // payload changing every second for the whole test.
  const types = Array.from({ length: 20 }, (_, i) => ({ id: i, turbine: 'iea37-3.35mw', n_turbines: 5 + i }));
  const first = writeNoopCampaign(dir, 'load', 1, { sleep_ms: 250 }, { farm_types: types });
  assert.equal(runWflo(['run', first.file, '--quiet']).status, 0);
  const { file, out } = writeNoopCampaign(dir, 'load', 40, { sleep_ms: 250 }, { farm_types: types });
  const run = startWflo(['run', file, '--quiet']);
  children.push(run);
  const dash = startWflo(['dashboard', out, '--port', '0']);
  children.push(dash);
  const [, portText] = await waitForLine(dash, /http:\/\/127\.0\.0\.1:(\d+)\//);
  const port = Number(portText),
    pid = dash.pid!;
  let notices = '';
  dash.stderr!.setEncoding('utf8').on('data', (s: string) => {
    notices += s;
  });

  // Idle: one page open and reading (the server recomputes and sends the payload as the run
  // goes), nobody else.
  assert.equal((await get(port, '/api/data')).status, 200);
  const frameBytes = await readOneEvent(port);
  const page = reader(port);
  await sleep(2000);
  let idle = 0;
  for (let i = 0; i < 20; i++) {
    idle = Math.max(idle, rssMb(pid));
    await sleep(250);
  }
  const socketsIdle = openSockets(pid);
  const eventsIdle = page.events();

  // The load: two waves of 200 clients that never read.
  // Connections that never complete a request: cut (headers within 10 s), whatever else happens.
  const halfOpen = [...Array.from({ length: 20 }, () => holdsOpen(port, false)), ...Array.from({ length: 20 }, () => holdsOpen(port, true))];
  const wave = () => {
    for (let i = 0; i < CLIENTS; i++) neverReads(port, i % 5 === 4 ? '/api/data' : '/api/events');
  };
  const t0 = Date.now();
  wave();
  let peak = idle,
    second = false,
    socketsPeak = 0;
  let refused: Awaited<ReturnType<typeof get>> | null = null;
  const served: number[] = [];
  while (Date.now() - t0 < LOAD_S * 1000) {
    const rss = rssMb(pid);
    peak = Math.max(peak, rss);
    socketsPeak = Math.max(socketsPeak, openSockets(pid));
    assert.ok(
      rss - idle < RUNAWAY_MB,
      `runaway: ${rss.toFixed(0)} MB after ${((Date.now() - t0) / 1000).toFixed(1)} s of load, idle was ${idle.toFixed(0)} MB`,
    );
    if (!second && Date.now() - t0 > 15_000) {
      second = true;
      wave();
    }
    // A page arriving now: its data is served; one stream too many is refused politely.
    if (served.length < Math.floor((Date.now() - t0) / 5000)) {
      const [data, events] = await Promise.all([get(port, '/api/data'), get(port, '/api/events')]);
      assert.equal(data.status, 200);
      served.push(JSON.parse(data.body).view.status.done);
      if (events.status === 503) refused = events;
    }
    await sleep(250);
  }
  const socketsEnd = openSockets(pid);
  const cut = await Promise.race([Promise.all(halfOpen), sleep(1000).then(() => null)]);
  const eventsLoad = page.events() - eventsIdle;
  page.close();
  for (const s of sockets) s.destroy();
  sockets.clear();
  await sleep(3000);
  const afterLeave = rssMb(pid);
  const figures =
    `dashboard RSS: idle ${idle.toFixed(1)} MB, peak ${peak.toFixed(1)} MB under ${CLIENTS}+${CLIENTS} non-reading clients for ${LOAD_S} s ` +
    `(+${(peak - idle).toFixed(1)} MB), ${afterLeave.toFixed(1)} MB after they left; payload frame ${(frameBytes / 1024).toFixed(0)} KiB; ` +
    `server sockets: idle ${socketsIdle}, peak ${socketsPeak}, at the end of the load ${socketsEnd}; the open page got ${eventsLoad} updates during the load; ` +
    `connections without a complete request cut after at most ${cut ? (Math.max(...cut) / 1000).toFixed(1) : '?'} s`;
  t.diagnostic(figures);
  process.stderr.write(`${figures}\n`);

  assert.ok(peak - idle < RSS_MARGIN_MB, figures);
  // The server says what it did: streams that stopped reading dropped, one too many refused.
  // A stream that stopped reading is dropped by the stream sweep, or, when a newcomer needs its
  // connection first, shed by the connection cap (which also sheds idle data connections).
  const count = (re: RegExp) => [...notices.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  const dropped = count(/dropped (\d+) event streams? that stopped reading/g);
  const shed = count(/closed (\d+) stalled or idle connections? to let new ones in/g);
  assert.ok(
    dropped + shed >= 64 - 1,
    `dropped ${dropped} streams and shed ${shed} connections (64 slots, one held by the page that reads); stderr:\n${notices}`,
  );
  assert.match(notices, /refused \d+ \(503: 64 open already\)/);
  assert.ok(eventsLoad >= 5, `the page that reads kept getting updates (${eventsLoad})`);
  assert.ok(refused !== null, 'with the stream slots taken, one more /api/events is refused');
  assert.equal(refused.headers['retry-after'], '10');
  assert.ok(served.length >= 4 && served[served.length - 1] > served[0], `pages got current data during the load (done: ${served.join(', ')})`);
  // The second wave's 200 arrived at 15 s; by 30 s the server has closed the sockets of clients
  // that never read (dropped streams, finished or timed-out answers), so it holds far fewer.
  assert.ok(socketsEnd < socketsPeak - CLIENTS / 2, figures);
  assert.ok(
    cut !== null && Math.max(...cut) < 25_000,
    `connections without a complete request are cut (after ${cut?.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s)`,
  );
  // The server still serves once they are gone.
  assert.equal((await get(port, '/api/data')).status, 200);
  assert.ok(afterLeave - idle < RSS_MARGIN_MB, figures);
});
