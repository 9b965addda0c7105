/**
 * The report tells adopted results from computed ones and shows the AEP other files reported
 * (`aep_reported`): a campaign half adopted from worker files written by h5py
 * (test/shards/helpers/adoptionIncident.ts, `run --adopt … --aep recompute`), half computed. The
 * counts and values in the report's data are checked against layouts.h5 as h5py reads it. Its
 * axes read as numbers (no "239.182154k"), its times as ISO 8601; in chromium, the page's own
 * date too.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { PYTHON, hasH5py } from '../helpers.js';
import { DEFAULT_ADOPTION_CAMPAIGN, writeAdoptionIncident } from '../shards/helpers/adoptionIncident.js';
import { vegaLiteToSvg } from '../../src/views/vegaSvg.js';
import type { CampaignView } from '../../src/views/campaignData.js';
import type { ChartSpec } from '../../src/views/chartSpecs.js';
import { hasChromium, launchBrowser, runWflo, tempDir, type Browser } from './viewsTestKit.js';

const skip = hasH5py() ? false : 'h5py not importable (apt-get install python3-h5py)';
let dir = '';
let html = '';
let browser: Browser | null = null;

before(() => {
  if (skip) return;
  dir = tempDir('wflo-provenance-');
  fs.writeFileSync(path.join(dir, 'campaign.yaml'), stringify(DEFAULT_ADOPTION_CAMPAIGN));
  writeAdoptionIncident(path.join(dir, 'workers'), path.join(dir, 'campaign.yaml'));
  const run = runWflo(['run', path.join(dir, 'campaign.yaml'), '--adopt', path.join(dir, 'workers'), '--aep', 'recompute', '--quiet']);
  assert.equal(run.status, 0, run.stderr);
  html = path.join(dir, 'report.html');
  const report = runWflo(['report', path.join(dir, 'campaign.yaml'), '-o', html]);
  assert.equal(report.status, 0, report.stderr);
});
after(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function payload(): { view: CampaignView; charts: ChartSpec[] } {
  const m = /<script type="application\/json" id="wflo-data">([\s\S]*?)<\/script>/.exec(fs.readFileSync(html, 'utf8'));
  assert.ok(m, 'the report inlines its data');
  return JSON.parse(m[1].replace(/\\u003c/g, '<')) as { view: CampaignView; charts: ChartSpec[] };
}

/** task id → [source, aep, aep_reported (null for NaN)] as h5py reads layouts.h5. */
function h5Rows(): Map<string, [string, number, number | null]> {
  const py =
    'import h5py, json, math, sys\nf = h5py.File(sys.argv[1], "r")\n' +
    'print(json.dumps([[t, s, float(a), None if math.isnan(r) else float(r)] for t, s, a, r in zip(f["task_id"].asstr()[:], f["source"].asstr()[:], f["aep"][:], f["aep_reported"][:])]))';
  const r = spawnSync(PYTHON, ['-c', py, path.join(dir, 'out', 'layouts.h5')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return new Map((JSON.parse(r.stdout) as [string, string, number, number | null][]).map(([t, s, a, rep]) => [t, [s, a, rep]]));
}

test('adopted and computed results are counted per cell, and every adopted or reported row is listed with both AEPs', { skip }, () => {
  const { view } = payload();
  const rows = h5Rows();
  const adopted = [...rows.values()].filter(([s]) => s.startsWith('adopted:')).length;
  assert.ok(adopted > 0 && adopted < rows.size, `a mixed campaign: ${adopted} adopted of ${rows.size}`);
  const sum = (k: 'computed' | 'adopted' | 'recovered') => view.cells.reduce((n, c) => n + (c.origins?.[k] ?? 0), 0);
  assert.equal(sum('adopted'), adopted);
  assert.equal(sum('computed'), rows.size - adopted);
  for (const c of view.cells) assert.equal(c.origins!.computed + c.origins!.adopted + c.origins!.recovered, c.done, c.label);
  const noted = [...rows.entries()].filter(([, [s, , rep]]) => !s.startsWith('computed') || rep !== null);
  assert.equal(view.provenance.total, noted.length);
  assert.equal(view.provenance.rows.length, noted.length);
  for (const r of view.provenance.rows) {
    const [source, aep, reported] = rows.get(r.taskId)!;
    assert.deepEqual([r.source, r.aep, r.aepReported], [source, aep, reported], r.taskId);
  }
  // Largest difference first: the record that reported 1e9 MWh (kept as aep_reported; wflo's AEP stored).
  assert.equal(view.provenance.rows[0].aepReported, 1e9);
  // The dots are coloured by origin once results of more than one origin are there.
  const dots = payload().charts.find((c) => c.id === 'aep-histogram')!;
  assert.match(JSON.stringify(dots.spec), /"field":"origin"/);
});

test('AEP axes read as MWh numbers, time axes as ISO 8601', { skip }, async () => {
  const { view, charts } = payload();
  const lo = Math.min(...view.cells.filter((c) => c.aep).map((c) => c.aep!.min));
  const hi = Math.max(...view.cells.filter((c) => c.aep).map((c) => c.aep!.max));
  const svg = await vegaLiteToSvg(charts.find((c) => c.id === 'aep-histogram')!.spec);
  const labels = [...svg.matchAll(/<g class="mark-text role-axis-label"[^>]*>([\s\S]*?)<\/g>/g)].flatMap((g) =>
    [...g[1].matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => t[1]),
  );
  assert.ok(labels.length >= 4, `axis labels: ${labels.join(' | ')}`);
  const numbers = labels.filter((l) => !/^\s*$/.test(l));
  for (const l of numbers) {
    assert.match(l, /^-?[\d,]+(\.\d+)?$/, `an AEP tick label reads as a number: '${l}'`);
    const v = Number(l.replace(/,/g, ''));
    assert.ok(v > lo - 0.2 * (hi - lo) - 1 && v < hi + 0.2 * (hi - lo) + 1, `${l} within the AEPs (${lo} to ${hi})`);
  }
  const throughput = charts.find((c) => c.id === 'throughput');
  assert.ok(throughput, 'a throughput chart');
  const tsvg = await vegaLiteToSvg(throughput.spec);
  const times = [...tsvg.matchAll(/<text[^>]*>(\d[^<]*)<\/text>/g)].map((t) => t[1]).filter((t) => t.includes(':'));
  assert.ok(times.length > 0 && times.every((t) => /^(\d{4}-\d\d-\d\d )?\d\d:\d\d(:\d\d)?$/.test(t)), times.join(' | '));
  assert.match(JSON.stringify(throughput.spec), /time, UTC, \d{4}-\d\d-\d\d/);
});

test("in chromium: the page's date is ISO 8601 (UTC), and the provenance table shows the reported AEP", {
  skip: skip || (hasChromium() ? false : 'no chromium (apt-get install chromium)'),
  timeout: 90_000,
}, async () => {
  browser = await launchBrowser();
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(html).href);
  await page.waitForSelector('table.provenance');
  assert.match((await page.locator('#meta').textContent()) ?? '', /data of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  const first = await page.locator('table.provenance tbody tr').first().locator('td').allTextContents();
  assert.equal(first[1], 'adopted');
  assert.equal(first[4], '1,000,000,000.00');
  const cells = await page.locator('table.cells tbody tr td:nth-child(5)').allTextContents();
  assert.ok(cells.some((t) => /\d+ adopted/.test(t)) && cells.some((t) => /\d+ computed/.test(t)), cells.join(' | '));
});
