/**
 * The dashboard's Host check with several Host headers (views/dashboardServer.ts): Node keeps the
 * first, so `Host: 127.0.0.1` then `Host: evil.example` used to pass the loopback (DNS-rebinding)
 * check and answer 200. A request with more than one Host header is 400, on every route, also
 * when both name loopback; one loopback Host is still 200 and one foreign Host still 403.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fs from 'node:fs';
import { startDashboard, type Dashboard } from '../../src/views/dashboardServer.js';
import { runWflo, tempDir, writeNoopCampaign } from './viewsTestKit.js';

const dir = tempDir('wflo-dash-host-');
let dashboard: Dashboard | null = null;
after(async () => {
  await dashboard?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The status line's code of a raw HTTP/1.1 request with these header lines. */
function rawStatus(port: number, route: string, headerLines: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${route} HTTP/1.1\r\n${headerLines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`);
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`no status line: ${JSON.stringify(text.slice(0, 200))}`)));
  });
}

test('two Host headers: 400 (the second foreign, or both loopback); one loopback Host 200, one foreign 403', { timeout: 60_000 }, async () => {
  const { file, out } = writeNoopCampaign(dir, 'host', 1);
  assert.equal(runWflo(['run', file, '--quiet']).status, 0);
  dashboard = await startDashboard({ dir: out, port: 0 });
  const port = dashboard.port;
  const loopback = `Host: 127.0.0.1:${port}`;
  assert.equal(await rawStatus(port, '/api/data', [loopback]), 200);
  assert.equal(await rawStatus(port, '/api/data', ['Host: evil.example']), 403);
  for (const route of ['/', '/api/data', '/assets/page.js']) {
    assert.equal(await rawStatus(port, route, [loopback, 'Host: evil.example']), 400, `${route}: loopback then foreign`);
    assert.equal(await rawStatus(port, route, ['Host: evil.example', loopback]), 400, `${route}: foreign then loopback`);
  }
  assert.equal(await rawStatus(port, '/api/data', [loopback, 'host: localhost']), 400, 'both loopback, any case');
});
