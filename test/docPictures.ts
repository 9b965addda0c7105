/**
 * Makes the pictures of the report and the dashboard in docs/ (README, docs/views.md) again, so
 * they show what the code draws now: `node dist/test/docPictures.js` from the repository root,
 * with Debian's chromium (test/views/viewsTestKit.ts drives it through playwright-core).
 * - docs/dashboard.png: `wflo dashboard out/demo-live` in a 1400 × 1250 window while
 *   `wflo run examples/demo.yaml --out out/demo-live --workers 1` runs, taken once 10 of the 16
 *   tasks are done and one is running (the run is paused for the picture);
 * - docs/report.png: `wflo report` of the demo run again, unpaused, into out/demo-report (its
 *   throughput chart without the pause), the top 1400 × 1450.
 * Not a test (the views tests check the pages); out/ is the checkout's own scratch folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { REPO } from './helpers.js';
import { hasChromium, killGroup, launchBrowser, runWflo, startWflo, waitForLine } from './views/viewsTestKit.js';

if (!hasChromium()) throw new Error('no chromium (apt-get install chromium)');
process.chdir(REPO);
const live = path.join('out', 'demo-live');
fs.rmSync(live, { recursive: true, force: true });
const run = startWflo(['run', path.join('examples', 'demo.yaml'), '--out', live, '--workers', '1', '--quiet']);
// The dashboard needs the ledger the run creates first; the run waits (SIGSTOP) while the
// dashboard and the browser start, or it would be over before the page is there.
for (let i = 0; i < 600 && !fs.existsSync(path.join(live, 'ledger.sqlite')); i++) await new Promise((r) => setTimeout(r, 100));
process.kill(-run.pid!, 'SIGSTOP');
const dashboard = startWflo(['dashboard', live, '--port', '0']);
const browser = await launchBrowser({ width: 1400, height: 1250 });
try {
  const url = (await waitForLine(dashboard, /(http:\/\/127\.0\.0\.1:\d+\/\S*)/, 60_000))[1];
  const page = await browser.context.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-renders]');
  process.kill(-run.pid!, 'SIGCONT');
  // Mid-run: the demo's tasks take a fraction of a second, so the run is paused (SIGSTOP to its
  // process group) once its ledger holds 10 results, and the page is taken when it shows them with
  // a task running (the coordinator's heartbeat, once a second, says which: when the pause caught
  // it between tasks, the run goes on to the next result and is paused again); then the run goes
  // on (SIGCONT) to its end.
  const ledger = new Database(path.join(live, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
  const results = ledger.prepare('SELECT COUNT(*) AS n FROM results');
  const count = () => (results.get() as { n: number }).n;
  const shown = async () => [Number(await page.getAttribute('body', 'data-done')), Number(await page.getAttribute('body', 'data-running'))];
  for (let target = 10; ; target++) {
    while (count() < target && run.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    if (run.exitCode !== null || target > 15) throw new Error('the run ended before the page showed it mid-run; run this again');
    process.kill(-run.pid!, 'SIGSTOP');
    let seen = await shown();
    for (let i = 0; i < 40 && !(seen[0] >= target && seen[1] >= 1); i++) {
      await new Promise((r) => setTimeout(r, 250));
      seen = await shown();
    }
    console.log(`paused at ${count()} results: the page shows ${seen[0]} done, ${seen[1]} running`);
    if (seen[0] >= target && seen[1] >= 1) break;
    process.kill(-run.pid!, 'SIGCONT');
  }
  ledger.close();
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.getAttribute('data-rendered') === 'true'), null, {
    timeout: 60_000,
  });
  await page.screenshot({ path: path.join('docs', 'dashboard.png') });
  console.log(`wrote docs/dashboard.png (${await page.getAttribute('body', 'data-done')}/16 done)`);
  process.kill(-run.pid!, 'SIGCONT');
  await new Promise<void>((resolve) => {
    if (run.exitCode !== null) resolve();
    else run.once('exit', () => resolve());
  });
  const unpaused = path.join('out', 'demo-report');
  fs.rmSync(unpaused, { recursive: true, force: true });
  const demo = runWflo(['run', path.join('examples', 'demo.yaml'), '--out', unpaused, '--quiet'], { timeoutMs: 600_000 });
  if (demo.status !== 0) throw new Error(`wflo run failed: ${demo.stderr}`);
  const html = path.join('out', 'demo-report.html');
  const r = runWflo(['report', unpaused, '-o', html]);
  if (r.status !== 0) throw new Error(`wflo report failed: ${r.stderr}`);
  const report = await browser.context.newPage();
  await report.setViewportSize({ width: 1400, height: 1450 });
  await report.goto(pathToFileURL(path.resolve(html)).href);
  await report.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.getAttribute('data-rendered') === 'true'), null, {
    timeout: 60_000,
  });
  await report.screenshot({ path: path.join('docs', 'report.png') });
  console.log('wrote docs/report.png');
} finally {
  try {
    process.kill(-run.pid!, 'SIGCONT');
  } catch {
    /* ended */
  }
  await browser.close();
  await killGroup(dashboard);
  await killGroup(run);
}
