/**
 * `wflo dashboard`, in headless chromium, on a campaign that is running: the page loads, updates
 * as tasks finish (server-sent events), shows the injected failure, and its screenshot changes.
 * Route table: `/../ledger.sqlite` and friends are 404; on a non-loopback bind a request
 * without the token is 401. A port in use is one line, exit 1; a folder without a ledger exit 2.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { hasChromium, killGroup, launchBrowser, pngHeader, runWflo, startWflo, tempDir, waitForLine, writeNoopCampaign, type Browser } from './viewsTestKit.js';
import path from 'node:path';

const children: ChildProcess[] = [];
let browser: Browser | null = null;
after(async () => {
  await browser?.close();
  await Promise.all(children.map((c) => killGroup(c)));
});

function get(port: number, rawPath: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A raw path, sent as written (no URL normalization of "..").
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET', headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (s: string) => {
        if (body.length < 4096) body += s;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      if (res.headers['content-type']?.startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, body: '' });
      }
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitForFile(file: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!fs.existsSync(file)) {
    if (Date.now() > end) throw new Error(`${file} did not appear`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('live dashboard of a running campaign: loads, updates, shows a failure', { skip: hasChromium() ? false : 'no chromium', timeout: 90_000 }, async () => {
  const dir = tempDir('wflo-dash-');
  // Long enough (24 tasks × 2.5 s on 2 workers, 30 s: a loaded machine starts the browser in time) that the page loads while most tasks are still to come.
  const { file, out } = writeNoopCampaign(dir, 'live', 6, { sleep_ms: 2500, fail_seeds: [2] });
  const run = startWflo(['run', file, '--quiet']);
  children.push(run);
  await waitForFile(path.join(out, 'ledger.sqlite'));
  const dash = startWflo(['dashboard', out, '--port', '0']);
  children.push(dash);
  const [, url, port] = await waitForLine(dash, /(http:\/\/127\.0\.0\.1:(\d+)\/)/);

  // The route table: nothing outside it, however spelled.
  for (const p of [
    '/../ledger.sqlite',
    '/%2e%2e/ledger.sqlite',
    '/assets/../../ledger.sqlite',
    '/ledger.sqlite',
    '/audit.jsonl',
    `/${out}/ledger.sqlite`,
    '//etc/passwd',
    '/assets/%2e%2e%2fpage.js',
    '/assets/',
    '/api/data/../../ledger.sqlite',
    '/index.html',
  ]) {
    const r = await get(Number(port), p);
    assert.equal(r.status, 404, `${p} → ${r.status}`);
    assert.ok(!r.body.includes('SQLite format'), p);
  }
  assert.equal((await get(Number(port), '/api/data')).status, 200);
  assert.equal((await get(Number(port), '/', { Host: 'attacker.example' })).status, 403, 'DNS-rebinding guard');

  browser = await launchBrowser({ width: 1280, height: 900 });
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  await page.waitForFunction(() => Number(document.body.getAttribute('data-renders')) >= 1, null, { timeout: 30_000 });
  const doneAtLoad = Number(await page.getAttribute('body', 'data-done'));
  assert.ok(doneAtLoad < 24, 'loaded while the campaign is in progress');
  assert.match((await page.locator('#meta').textContent()) ?? '', /running: pid \d+, 2 workers/);
  const before = await page.screenshot();
  // Updates arrive by themselves while tasks finish; the failure of seed 2 shows up.
  await page.waitForFunction((n) => Number(document.body.getAttribute('data-done')) > n, doneAtLoad, { timeout: 40_000 });
  await page.waitForFunction(() => Number(document.body.getAttribute('data-failed')) >= 1, null, { timeout: 40_000 });
  await page.locator('table.failures').waitFor({ timeout: 10_000 });
  assert.match((await page.locator('table.failures').textContent()) ?? '', /injected failure for seed 2/);
  await page.waitForFunction(
    () => document.querySelectorAll('.chart').length > 0 && document.querySelectorAll('.chart:not([data-rendered="true"])').length === 0,
    null,
    { timeout: 20_000 },
  );
  // The next server-sent update may still be on its way: give the page a few frames to show it.
  let afterShot = await page.screenshot();
  for (let i = 0; i < 20 && before.equals(afterShot); i++) {
    await new Promise((r) => setTimeout(r, 250));
    afterShot = await page.screenshot();
  }
  for (const shot of [before, afterShot]) assert.deepEqual(pngHeader(shot), { width: 1280, height: 900 });
  assert.ok(before.length > 5000 && afterShot.length > 5000, 'screenshots are not empty');
  assert.ok(!before.equals(afterShot), 'the page changed as tasks finished');
  assert.deepEqual(errors, []);
});

test('non-loopback bind requires the token; port in use exits 1; no ledger exits 2', { timeout: 60_000 }, async () => {
  const dir = tempDir('wflo-dash-');
  const { file, out } = writeNoopCampaign(dir, 'token', 1);
  assert.ok([0, 1].includes(runWflo(['run', file, '--quiet']).status));
  const dash = startWflo(['dashboard', out, '--host', '0.0.0.0', '--port', '0']);
  children.push(dash);
  const [, port, token] = await waitForLine(dash, /http:\/\/0\.0\.0\.0:(\d+)\/\?token=(\S+)/);
  for (const p of ['/', '/api/data', '/api/events', '/assets/page.js']) assert.equal((await get(Number(port), p)).status, 401, `${p} without token`);
  assert.equal((await get(Number(port), `/?token=${'x'.repeat(token.length)}`)).status, 401, 'wrong token');
  assert.equal((await get(Number(port), '/api/data', { Authorization: 'Bearer nope' })).status, 401);
  assert.equal((await get(Number(port), `/?token=${token}`)).status, 200);
  const data = await get(Number(port), '/api/data', { Authorization: `Bearer ${token}` });
  assert.equal(data.status, 200);
  assert.equal((await get(Number(port), '/../ledger.sqlite')).status, 404);
  await killGroup(dash);

  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  try {
    const busy = (blocker.address() as net.AddressInfo).port;
    const r = runWflo(['dashboard', out, '--port', String(busy)]);
    assert.equal(r.status, 1);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /in use/);
  } finally {
    blocker.close();
  }
  const none = runWflo(['dashboard', dir, '--port', '0']);
  assert.equal(none.status, 2);
  assert.equal(none.stderr.trim().split('\n').length, 1, none.stderr);
});
