/**
 * The connection cap lets a newcomer in by shedding the least useful connection: one whose peer
 * stopped reading, one that never completed a request, an idle keep-alive one; it refuses the
 * newcomer only when every connection is busy. Real sockets on a loopback port, a plain
 * node:http server, and then the dashboard itself with the slots held by clients that never
 * send or never read (a page arriving then got "socket hang up" when the cap was node's own
 * `maxConnections`).
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ConnectionGovernor } from '../../src/views/connectionGovernor.js';
import { startDashboard } from '../../src/views/dashboardServer.js';
import { runWflo, tempDir, writeNoopCampaign } from './viewsTestKit.js';

const sockets = new Set<net.Socket>();
const closers: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const s of sockets) s.destroy();
  for (const c of closers) await c();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A raw client: optionally sends a request; never reads what it is sent when `request` is given
 * (a silent one reads, so it sees the server close it). Records when it sees the close.
 */
function client(port: number, request: string | null): { socket: net.Socket; closed: () => boolean } {
  const socket = net.connect({ host: '127.0.0.1', port });
  let closed = false;
  if (request !== null) socket.pause();
  socket.on('data', () => {
    /* nothing comes */
  });
  socket.on('error', () => {
    /* reset by the server */
  });
  socket.on('close', () => {
    closed = true;
  });
  if (request !== null) socket.write(`GET ${request} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  sockets.add(socket);
  return { socket, closed: () => closed };
}

function get(port: number, route: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: route, headers: { Host: `127.0.0.1:${port}` }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (s: string) => {
        body += s;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`GET ${route}: no answer`)));
    req.on('error', reject);
  });
}

/** The server's side of each connection, by the client's port: whether the server closed it. */
type ServerSide = Map<number, { closed: boolean }>;

async function plainServer(max: number): Promise<{ port: number; governor: ConnectionGovernor; side: ServerSide }> {
  const held: http.ServerResponse[] = [];
  const big = Buffer.alloc(16 * 1024 * 1024, 0x61);
  const server = http.createServer((req, res) => {
    if (req.url === '/hold') {
      held.push(res);
      res.writeHead(200);
      res.write('held\n');
      return;
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'Content-Length': big.length });
      res.end(big);
      return;
    }
    res.end('ok\n');
  });
  const governor = new ConnectionGovernor(server, { max, graceMs: 500 });
  const side: ServerSide = new Map();
  server.on('connection', (s: net.Socket) => {
    const entry = { closed: false };
    side.set(s.remotePort!, entry);
    s.on('close', () => {
      entry.closed = true;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(
    () =>
      new Promise<void>((r) => {
        governor.close();
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { port: (server.address() as AddressInfo).port, governor, side };
}

test('full of connections that never sent a request: the oldest is shed, the newcomer served', async () => {
  const { port, governor } = await plainServer(4);
  const silent = [];
  for (let i = 0; i < 4; i++) {
    silent.push(client(port, null));
    await sleep(50);
  }
  await sleep(700);
  assert.deepEqual(await get(port, '/ok'), { status: 200, body: 'ok\n' });
  await sleep(100);
  assert.deepEqual(
    silent.map((c) => c.closed()),
    [true, false, false, false],
    'the oldest silent connection made room',
  );
  assert.equal(governor.shed, 1);
  assert.equal(governor.refused, 0);
});

test('full of clients that stopped reading: the longest stalled is shed, the newcomer served', async () => {
  const { port, governor, side } = await plainServer(4);
  const readers = [];
  for (let i = 0; i < 4; i++) {
    readers.push(client(port, '/big'));
    await sleep(50);
  }
  await sleep(1200);
  assert.deepEqual(await get(port, '/ok'), { status: 200, body: 'ok\n' });
  await sleep(100);
  const closed = readers.map((c) => side.get(c.socket.localPort!)?.closed);
  assert.deepEqual(closed, [true, false, false, false], 'the client stalled longest made room');
  assert.equal(governor.shed, 1);
});

test('every connection busy with a request under way: the newcomer is turned away, nobody shed', async () => {
  const { port, governor, side } = await plainServer(4);
  const busy = [];
  for (let i = 0; i < 4; i++) busy.push(client(port, '/hold'));
  await sleep(700);
  await assert.rejects(get(port, '/ok'), /socket hang up|ECONNRESET/);
  assert.equal(governor.refused, 1);
  assert.equal(governor.shed, 0);
  assert.ok(
    busy.every((c) => side.get(c.socket.localPort!)?.closed === false),
    'the busy connections are kept',
  );
});

test('the dashboard with every slot held by clients that never send or never read: a page still gets its data', { timeout: 60_000 }, async () => {
  const dir = tempDir('wflo-dash-slots-');
  const { file, out } = writeNoopCampaign(dir, 'slots', 2);
  assert.equal(runWflo(['run', file, '--quiet']).status, 0);
  const notices: string[] = [];
  const d = await startDashboard({ dir: out, port: 0, maxClients: 2, onNotice: (line) => notices.push(line) });
  closers.push(() => d.close());
  // 4 × 2 = 8 connections at most: 4 silent, 4 that ask for the data and never read.
  const silent = [];
  for (let i = 0; i < 4; i++) {
    silent.push(client(d.port, null));
    await sleep(50);
  }
  for (let i = 0; i < 4; i++) client(d.port, '/api/data');
  await sleep(1500);
  for (let i = 0; i < 3; i++) {
    const r = await get(d.port, '/api/data');
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.body).view.status.done, 8, '2 farms × 2 types × 2 seeds');
  }
  await sleep(100);
  // The first page took the oldest silent connection's place; the next ones found that slot free.
  assert.deepEqual(
    silent.map((c) => c.closed()),
    [true, false, false, false],
    'the oldest silent connection made room',
  );
  await sleep(1500);
  assert.ok(
    notices.some((l) => /closed 1 stalled or idle connection to let new ones in \(8 at most\)/.test(l)),
    notices.join('\n'),
  );
});
