/**
 * The dashboard's first paint is current during a live run: `/api/data` (what a new page gets
 * before its event stream connects) is never older than the campaign at the time of the
 * request, even when no page has followed the stream since the server cached an older answer.
 * The reference is `wflo status --json`, read just before each request. Then a new page in
 * headless chromium: its first paint shows at least what `wflo status` said just before it
 * opened, and the full view (charts, layout plots) follows over the stream.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { hasChromium, killGroup, launchBrowser, runWflo, startWflo, tempDir, waitForLine, writeNoopCampaign, type Browser } from './viewsTestKit.js';

const children: ChildProcess[] = [];
let browser: Browser | null = null;
after(async () => {
  await browser?.close();
  await Promise.all(children.map((c) => killGroup(c)));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Data {
  view: { generatedAt: string; partial: boolean; status: { done: number; total: number } };
}

function getData(port: number): Promise<Data> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/data', headers: { Host: `127.0.0.1:${port}` }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (s: string) => {
        body += s;
      });
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body) as Data) : reject(new Error(`/api/data: ${res.statusCode} ${body}`))));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('/api/data: no answer')));
    req.on('error', reject);
  });
}

/** Done tasks as `wflo status` reports them (a separate process reading the ledger). */
function statusDone(out: string): number {
  const r = runWflo(['status', out, '--json']);
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { done: number }).done;
}

test('first paint during a live run: /api/data is never older than the campaign at the request', { timeout: 120_000 }, async () => {
  const dir = tempDir('wflo-dash-first-');
  // 4 cells × 15 seeds at 400 ms a task on 2 workers: about 5 tasks a second for 12 s.
  const { file, out } = writeNoopCampaign(dir, 'first', 15, { sleep_ms: 400 });
  const run = startWflo(['run', file, '--quiet']);
  children.push(run);
  const end = Date.now() + 20_000;
  while (!fs.existsSync(path.join(out, 'ledger.sqlite'))) {
    assert.ok(Date.now() < end, 'the run created its ledger');
    await sleep(100);
  }
  const dash = startWflo(['dashboard', out, '--port', '0']);
  children.push(dash);
  const [, portText] = await waitForLine(dash, /http:\/\/127\.0\.0\.1:(\d+)\//);
  const port = Number(portText);

  // No page ever follows the event stream here: only first paints, one after another.
  const first = await getData(port);
  assert.ok(first.view.status.done < first.view.status.total, 'the run is in progress');
  let previous = first;
  for (let round = 0; round < 3; round++) {
    // Wait until the campaign moved on by a few tasks, as `wflo status` sees it.
    let before = statusDone(out);
    const until = Date.now() + 30_000;
    while (before < previous.view.status.done + 3) {
      assert.ok(Date.now() < until, `the run went on (status: ${before} done)`);
      await sleep(300);
      before = statusDone(out);
    }
    const now = await getData(port);
    assert.ok(
      now.view.status.done >= before,
      `round ${round}: /api/data says ${now.view.status.done} done (generated ${now.view.generatedAt}), wflo status said ${before} just before`,
    );
    assert.notEqual(now.view.generatedAt, previous.view.generatedAt);
    previous = now;
  }
});

test('first paint in a browser: a new page shows the current campaign, then the full view', {
  skip: hasChromium() ? false : 'no chromium',
  timeout: 120_000,
}, async () => {
  const dir = tempDir('wflo-dash-first-');
  const { file, out } = writeNoopCampaign(dir, 'page', 15, { sleep_ms: 400 });
  const run = startWflo(['run', file, '--quiet']);
  children.push(run);
  const end = Date.now() + 20_000;
  while (!fs.existsSync(path.join(out, 'ledger.sqlite'))) {
    assert.ok(Date.now() < end, 'the run created its ledger');
    await sleep(100);
  }
  const dash = startWflo(['dashboard', out, '--port', '0']);
  children.push(dash);
  const [, url, portText] = await waitForLine(dash, /(http:\/\/127\.0\.0\.1:(\d+)\/)/);
  // A first page came and went early in the run (the server has an answer cached).
  const early = await getData(Number(portText));
  let before = statusDone(out);
  while (before < early.view.status.done + 3) {
    await sleep(300);
    before = statusDone(out);
  }

  browser = await launchBrowser({ width: 1280, height: 900 });
  const page = await browser.context.newPage();
  const firstAnswer = page.waitForResponse((r) => r.url().endsWith('/api/data'));
  before = statusDone(out);
  await page.goto(url);
  const data = (await (await firstAnswer).json()) as Data;
  assert.ok(data.view.status.done >= before, `first paint: ${data.view.status.done} done, wflo status said ${before} just before the page opened`);
  await page.waitForFunction(() => Number(document.body.getAttribute('data-renders')) >= 1, null, { timeout: 30_000 });
  assert.ok(Number(await page.getAttribute('body', 'data-done')) >= before, 'the page shows it');
  // The full view follows over the stream: layout plots appear.
  await page.locator('figure.layout').first().waitFor({ timeout: 30_000 });
});
