/**
 * `wflo report`: the HTML opens from file:// in headless chromium with every non-file request
 * aborted, renders every chart (an SVG with marks in each chart box), shows the injected
 * failure with its error and the layout plots, with no console errors and no network request.
 * A folder without a ledger is one line, exit 2.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasChromium, launchBrowser, runCampaign, runWflo, tempDir, writeNoopCampaign, type Browser } from './viewsTestKit.js';

let browser: Browser | null = null;
after(async () => {
  await browser?.close();
});

test('the report opens offline from file:// and renders every chart', {
  skip: hasChromium() ? false : 'no chromium (apt-get install chromium)',
  timeout: 90_000,
}, async () => {
  const dir = tempDir('wflo-report-');
  const { file, out } = writeNoopCampaign(dir, 'report', 4, { fail_seeds: [3] });
  runCampaign(file, out);
  const html = path.join(dir, 'report.html');
  const r = runWflo(['report', out, '-o', html]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /12\/16 done, 4 failed/);

  browser = await launchBrowser();
  const page = await browser.context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await browser.context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(html).href);
  const charts = await page.locator('.chart').count();
  assert.ok(charts >= 5, `expected the 5 charts, found ${charts}`);
  await page.waitForFunction((n) => document.querySelectorAll('.chart[data-rendered="true"]').length === n, charts, { timeout: 30_000 });
  for (const id of await page.locator('.chart').evaluateAll((els) => els.map((e) => e.getAttribute('data-chart')))) {
    const marks = await page
      .locator(
        `.chart[data-chart="${id}"] svg .mark-rect path, .chart[data-chart="${id}"] svg .mark-line path, .chart[data-chart="${id}"] svg .mark-rule line, .chart[data-chart="${id}"] svg .mark-tick path`,
      )
      .count();
    assert.ok(marks > 0, `chart ${id} drew marks`);
  }
  assert.equal(await page.getAttribute('body', 'data-done'), '12');
  assert.equal(await page.getAttribute('body', 'data-failed'), '4');
  const failures = await page.locator('table.failures tbody tr').allTextContents();
  assert.equal(failures.length, 4);
  assert.ok(
    failures.every((t) => /seed_3/.test(t) && /injected failure for seed 3/.test(t)),
    failures.join('\n'),
  );
  // Best and worst layout of each of the 4 cells, with their turbines.
  assert.equal(await page.locator('figure.layout').count(), 8);
  assert.equal((await page.locator('figure.layout.best').first().locator('circle.turbine').count()) > 0, true);
  assert.deepEqual(requests, [], 'no network request');
  assert.deepEqual(problems, []);
  const shot = await page.screenshot({ fullPage: true });
  assert.ok(shot.length > 10_000);
});

test('report of a folder without a ledger: one line, exit 2', () => {
  const dir = tempDir('wflo-report-');
  const r = runWflo(['report', dir, '-o', path.join(dir, 'r.html')]);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /no campaign ledger/);
  assert.ok(!fs.existsSync(path.join(dir, 'r.html')));
});
