/**
 * The views of a site + economics campaign and of a cost result file (issue 39 item 5), on a tiny
 * campaign run through the real CLI: a farm on a site that is not uniform (speed-up and TI fields)
 * with economics (bathymetry, a substation, two dear cable types), one farm type optimizing LCOE
 * and one NPV, four seeds, six gradient iterations.
 *  - the report's farm efficiency, wake loss and capacity factor are filled, with the figures a
 *    layout-by-layout recomputation gives (turbineYield: each turbine alone at its position), and
 *    a cell whose figures cannot be computed says why in the chart's place;
 *  - each thumbnail draws the row's stored network: one cable line per turbine, from and to the
 *    nodes the ledger's cable_to names;
 *  - best and worst of the LCOE cell are the lowest and highest LCOE (not the AEP's), labelled so;
 *  - money carries its currency (€/MWh, M€) in the report, the thumbnails, `wflo optimize`'s text
 *    and the plots;
 *  - `wflo plot` of a ledger row, a layouts.h5 row and a result YAML draws the stored network as
 *    stored (a hand-edited network in the YAML is drawn as edited, not re-routed), and an older
 *    result file without the substations takes them from the case it names;
 *  - in headless chromium the report's efficiency and wake-loss charts draw marks and the
 *    thumbnails hold the cables.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { parse as parseYaml, stringify } from 'yaml';
import { hasChromium, launchBrowser, runWflo, tempDir, type Browser } from './viewsTestKit.js';
import { loadCampaign } from '../../src/campaign/loadCampaign.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { turbineYield } from '../../src/views/turbineYield.js';
import { campaignCharts } from '../../src/views/chartSpecs.js';
import type { CampaignView, CellView } from '../../src/views/campaignData.js';
import { economicsDrawing } from '../../src/views/economicsDrawing.js';
import { loadCase } from '../../src/io/caseFile.js';

const dir = tempDir('wflo-econ-views-');
let browser: Browser | null = null;
after(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const out = path.join(dir, 'out');
const campaignFile = path.join(dir, 'campaign.yaml');
const ECONOMICS = {
  energy_price_eur_per_mwh: 55,
  discount_rate: 0.07,
  project_years: 25,
  distance_from_shore_km: 20,
  bathymetry: 'depth.csv',
  substations: [[700, 500]],
  cables: [
    { name: 'small', capacity: 3, cost_per_m: 3000 },
    { name: 'large', capacity: 6, cost_per_m: 4800 },
  ],
  rated_rpm: 16.7,
};

interface Row {
  task_id: string;
  farm_type: number;
  aep: number;
  x: Buffer;
  y: Buffer;
  cable_to: string;
  cable_type: string;
  metrics: string;
}
let rows: Row[] = [];
let html = '';
let payload: { view: CampaignView; charts: { id: string; note?: string; spec: { data?: { values: Record<string, unknown>[] }; mark?: unknown } }[] };

const floats = (b: Buffer) => new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const metricsOf = (r: Row) => JSON.parse(r.metrics) as Record<string, number>;
/** The <line class="cable"> elements of an SVG, as from → to. */
const cablesOf = (svg: string) => [...svg.matchAll(/<line class="cable" data-from="(\d+)" data-to="(s?\d+)"/g)].map((m) => `${m[1]}>${m[2]}`);
/** The ledger's cable_to as the plot names the nodes (turbine index, or s<k> for substation k). */
const storedEdges = (cableTo: number[]) => cableTo.map((t, i) => `${i}>${t >= 0 ? t : `s${-1 - t}`}`);

before(() => {
  fs.writeFileSync(path.join(dir, 'depth.csv'), 'x,y,depth\n-100,-100,18\n1600,-100,30\n-100,1100,26\n1600,1100,44\n');
  fs.writeFileSync(
    campaignFile,
    stringify({
      name: 'site-econ',
      output: 'out',
      workers: 2,
      farms: [
        {
          id: 0,
          boundary: {
            polygon: [
              [0, 0],
              [1400, 0],
              [1400, 1000],
              [0, 1000],
            ],
          },
          wind: 'iea37-cs1',
          wake_model: 'niayifar2016',
          site: {
            speedup: {
              x: [-100, 700, 1500],
              y: [-100, 1100],
              values: [
                [0.9, 0.95],
                [1.0, 1.05],
                [1.15, 1.2],
              ],
            },
            ti: {
              x: [-100, 1500],
              y: [-100, 1100],
              values: [
                [0.06, 0.08],
                [0.1, 0.12],
              ],
            },
            outside: 'limit',
          },
          economics: ECONOMICS,
        },
      ],
      farm_types: [
        { id: 0, turbine: 'v80', n_turbines: 5, objective: 'lcoe' },
        { id: 1, turbine: 'v80', n_turbines: 5, objective: 'npv' },
      ],
      seeds: [1, 2, 3, 4],
      optimizer: { method: 'gradient', max_iterations: 6 },
    }),
  );
  const run = runWflo(['run', campaignFile, '--quiet']);
  assert.equal(run.status, 0, run.stderr);
  const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true });
  rows = db.prepare('SELECT task_id, farm_type, aep, x, y, cable_to, cable_type, metrics FROM results ORDER BY task_id').all() as Row[];
  db.close();
  assert.equal(rows.length, 8);
  const file = path.join(dir, 'report.html');
  const r = runWflo(['report', out, '-o', file]);
  assert.equal(r.status, 0, r.stderr);
  html = fs.readFileSync(file, 'utf8');
  payload = JSON.parse(/<script type="application\/json" id="wflo-data">([\s\S]*?)<\/script>/.exec(html)![1]);
});

test("report: efficiency, wake loss and capacity factor of the site cells are filled, equal to each layout's own figures", () => {
  const campaign = loadCampaign(campaignFile);
  for (const cell of payload.view.cells) {
    const c = caseForTask(campaign.farms[0], campaign.farmTypes[cell.farmType]);
    let sumAep = 0,
      sumGross = 0;
    const eff: number[] = [];
    for (const r of rows.filter((row) => row.farm_type === cell.farmType)) {
      const y = turbineYield(c, floats(r.x), floats(r.y));
      assert.ok(Math.abs(y.aepMwh - r.aep) <= 1e-9 * r.aep, "the stored AEP is the site's");
      sumAep += r.aep;
      sumGross += y.grossAepMwh;
      eff.push(r.aep / y.grossAepMwh);
    }
    assert.ok(
      cell.wakeLossMean !== null && Math.abs(cell.wakeLossMean - (1 - sumAep / sumGross)) < 1e-12,
      `${cell.label}: wake loss ${cell.wakeLossMean} vs ${1 - sumAep / sumGross}`,
    );
    assert.ok(cell.wakeLossMean > 0.005 && cell.wakeLossMean < 0.2);
    assert.ok(Math.abs(cell.grossAepMwh - sumGross / 4) < 1e-9 * sumGross);
    eff.sort((a, b) => a - b);
    assert.ok(
      cell.efficiency && Math.abs(cell.efficiency.min - eff[0]) < 1e-12 && Math.abs(cell.efficiency.max - eff[3]) < 1e-12,
      JSON.stringify(cell.efficiency),
    );
    assert.ok(cell.capacityFactorMean! > 0.3 && cell.capacityFactorMean! < 1);
    assert.equal(cell.figuresNote, null);
  }
  const chart = (id: string) => payload.charts.find((c) => c.id === id)!;
  const effValues = chart('efficiency').spec.data!.values;
  assert.equal(effValues.filter((v) => typeof v.median === 'number').length, 2, 'a box per cell');
  assert.equal(effValues.filter((v) => typeof v.seedEfficiency === 'number').length, 8, 'a dot per result');
  const loss = chart('loss-cf').spec.data!.values;
  assert.equal(loss.length, 4);
  for (const v of loss) assert.ok(Number.isFinite(v.value as number) && (v.value as number) > 0, JSON.stringify(v));
});

test("report: a cell whose figures cannot be computed says why in the chart's place, one line per cell", () => {
  const view = structuredClone(payload.view);
  for (const c of view.cells as CellView[]) {
    Object.assign(c, {
      efficiency: null,
      wakeLossMean: null,
      grossPerLayout: false,
      figuresNote:
        'its gross AEP depends on each layout (a site that is not uniform); computed from the layouts for cells of at most 200 results, this one has 5000',
    });
  }
  const charts = campaignCharts(view);
  for (const id of ['efficiency', 'loss-cf']) {
    const spec = charts.find((c) => c.id === id)!.spec as { mark?: { type: string }; data: { values: { text: string }[] } };
    assert.equal(spec.mark?.type, 'text', id);
    assert.deepEqual(
      spec.data.values.map((l) => l.text.replace(/ · on a site: [^:]*(?=:)/, '').replace(/ {4}its .*/, '    why')),
      ['farm_0 · v80 x5 · LCOE: no farm efficiency or wake loss:', '    why', 'farm_0 · v80 x5 · NPV: no farm efficiency or wake loss:', '    why'],
    );
    assert.match(spec.data.values[1].text, /^ {4}its gross AEP depends on each layout .* this one has 5000$/);
  }
});

test('report: each thumbnail draws the network stored with its row; best and worst of the LCOE cell by LCOE, of the NPV cell by NPV', () => {
  const layouts = payload.view.layouts;
  assert.equal(layouts.length, 4);
  for (const l of layouts) {
    const row = rows.find((r) => r.task_id === l.taskId)!;
    assert.deepEqual(cablesOf(l.svg), storedEdges(JSON.parse(row.cable_to) as number[]), `${l.taskId}: the stored edges`);
    assert.equal((l.svg.match(/<rect class="substation"/g) ?? []).length, 1);
    assert.match(l.svg, /class="collection" data-origin="stored"/);
  }
  const type0 = rows.filter((r) => r.farm_type === 0);
  const byLcoe = [...type0].sort((a, b) => metricsOf(a).lcoe_per_mwh - metricsOf(b).lcoe_per_mwh);
  const byAep = [...type0].sort((a, b) => b.aep - a.aep);
  // The case: the highest AEP is not the lowest LCOE (dear cables), so a ranking by AEP shows another layout.
  assert.notEqual(byLcoe[0].task_id, byAep[0].task_id);
  const cell0 = payload.view.cells.find((c) => c.farmType === 0)!;
  assert.equal(cell0.objective, 'lcoe');
  assert.equal(cell0.best!.taskId, byLcoe[0].task_id);
  assert.equal(cell0.worst!.taskId, byLcoe.at(-1)!.task_id);
  assert.equal(cell0.best!.value, metricsOf(byLcoe[0]).lcoe_per_mwh);
  assert.equal(cell0.best!.text, `LCOE ${metricsOf(byLcoe[0]).lcoe_per_mwh.toFixed(2)} €/MWh`);
  const best0 = layouts.find((l) => l.taskId === byLcoe[0].task_id)!;
  assert.equal(best0.which, 'best');
  assert.match(best0.svg, new RegExp(`best by LCOE: ${byLcoe[0].task_id}`));
  assert.match(best0.svg, new RegExp(`LCOE ${metricsOf(byLcoe[0]).lcoe_per_mwh.toFixed(2)} €/MWh · NPV −\\d+\\.\\d\\d M€`));
  const type1 = rows.filter((r) => r.farm_type === 1).sort((a, b) => metricsOf(b).npv - metricsOf(a).npv);
  const cell1 = payload.view.cells.find((c) => c.farmType === 1)!;
  assert.equal(cell1.objective, 'npv');
  assert.deepEqual([cell1.best!.taskId, cell1.worst!.taskId], [type1[0].task_id, type1.at(-1)!.task_id]);
  assert.match(cell1.best!.text!, /^NPV −\d+\.\d\d M€$/);
  // The two types differ only by objective: their labels say which.
  assert.deepEqual(
    payload.view.cells.map((c) => c.typeLabel),
    ['v80 x5 · LCOE', 'v80 x5 · NPV'],
  );
  // The cost table's units travel with the cells.
  assert.deepEqual([cell0.economics!.currency, cell0.economics!.lcoeUnit, cell0.economics!.millionsUnit], ['EUR', '€/MWh', 'M€']);
});

test('wflo plot of a ledger row and of a layouts.h5 row draws the stored network, the key in km and M€', () => {
  const row = rows.find((r) => r.task_id === 'farm_0_type_0_seed_2')!;
  for (const source of [out, path.join(out, 'layouts.h5')]) {
    const svg = path.join(dir, `row-${path.basename(source)}.svg`);
    const r = runWflo(['plot', source, '--task', row.task_id, '-o', svg]);
    assert.equal(r.status, 0, r.stderr);
    const text = fs.readFileSync(svg, 'utf8');
    assert.deepEqual(cablesOf(text), storedEdges(JSON.parse(row.cable_to) as number[]), source);
    assert.match(text, /cables: the network stored with the layout/);
    assert.match(text, /small \(≤ 3\): [\d.]+ km, [\d.]+ M€/);
    assert.match(text, /LCOE [\d.]+ €\/MWh · NPV −[\d.]+ M€/);
  }
});

test('wflo optimize prints money with its currency; wflo plot of its result file draws the stored network as stored', () => {
  fs.copyFileSync(path.join(dir, 'depth.csv'), path.join(dir, 'depth-case.csv'));
  const caseFile = path.join(dir, 'cost.yaml');
  fs.writeFileSync(
    caseFile,
    stringify({
      name: 'small-cost',
      base: 'iea37-cs1-16',
      n_turbines: 6,
      wake_model: 'bastankhah2014',
      objective: 'lcoe',
      boundary: {
        polygon: [
          [0, 0],
          [1400, 0],
          [1400, 1000],
          [0, 1000],
        ],
      },
      economics: { ...ECONOMICS, bathymetry: 'depth-case.csv', rated_rpm: 12 },
    }),
  );
  const result = path.join(dir, 'r.yaml');
  const opt = runWflo(['optimize', caseFile, '--method', 'gradient', '--max-iterations', '6', '--out', result]);
  assert.equal(opt.status, 0, opt.stderr);
  assert.match(opt.stdout, /^objective {3}lcoe \d+\.\d{6} €\/MWh \(initial \d+\.\d{6} €\/MWh\); cost model dtu_offshore \(EUR\)$/m);
  assert.match(opt.stdout, /^economics {3}LCOE \d+\.\d{6} €\/MWh, NPV −?\d+\.\d{6} M€, IRR /m);
  assert.match(opt.stdout, /^cables {6}[\d.]+ m, cost \d+\.\d{6} M€ \(6 edges\)$/m);
  assert.match(opt.stdout, /capex \d+\.\d{3} M€, .*opex \d+\.\d{3} M€\/year/);
  const doc = parseYaml(fs.readFileSync(result, 'utf8'));
  const e = doc.wflo.economics;
  assert.equal(e.currency, 'EUR');
  assert.deepEqual(e.substations, [[700, 500]]);

  let stdout = '';
  const plot = (file: string, name: string) => {
    const svg = path.join(dir, name);
    const r = runWflo(['plot', file, '-o', svg]);
    assert.equal(r.status, 0, r.stderr);
    stdout = r.stdout;
    return fs.readFileSync(svg, 'utf8');
  };
  const drawn = plot(result, 'r.svg');
  assert.match(stdout, new RegExp(`wake loss [\\d.]+ %, LCOE ${e.lcoe_per_mwh.toFixed(2)} €/MWh, NPV −?[\\d.]+ M€\n`));
  assert.match(
    stdout,
    new RegExp(`^cables: 6 edges as stored with the layout, ${(e.cable_length_m / 1000).toFixed(2)} km, ${(e.cable_cost / 1e6).toFixed(3)} M€$`, 'm'),
  );
  assert.deepEqual(cablesOf(drawn), storedEdges(e.cable_to), "the result file's network");
  assert.equal((drawn.match(/<rect class="substation"/g) ?? []).length, 1);
  assert.match(drawn, new RegExp(`LCOE ${e.lcoe_per_mwh.toFixed(2)} €/MWh`));
  assert.match(drawn, /M€<\/text>/);

  // Edited by hand (every turbine straight to the substation, the large cable): drawn as written, not re-routed.
  const edited = { ...doc, wflo: { ...doc.wflo, economics: { ...e, cable_to: e.cable_to.map(() => -1), cable_type: e.cable_to.map(() => 'large') } } };
  fs.writeFileSync(path.join(dir, 'edited.yaml'), stringify(edited));
  const editedSvg = plot(path.join(dir, 'edited.yaml'), 'edited.svg');
  assert.deepEqual(
    cablesOf(editedSvg),
    e.cable_to.map((_: number, i: number) => `${i}>s0`),
  );
  assert.equal((editedSvg.match(/data-cable="large"/g) ?? []).length, 6);

  // A file written before the substations were recorded: they come from the case the file names.
  const { substations: _s, cables: _c, ...older } = e;
  fs.writeFileSync(path.join(dir, 'older.yaml'), stringify({ ...doc, wflo: { ...doc.wflo, economics: older } }));
  assert.deepEqual(cablesOf(plot(path.join(dir, 'older.yaml'), 'older.svg')), storedEdges(e.cable_to));
});

test('a stored network that is not one of the layout (a cycle) is routed for the plot, and the key says why', () => {
  const c = loadCase(path.join(dir, 'cost.yaml'));
  const x = Float64Array.from([100, 400, 900, 1200, 300, 1000]),
    y = Float64Array.from([100, 800, 200, 900, 500, 600]);
  const d = economicsDrawing(c, x, y, Int32Array.from([1, 0, -1, -1, -1, -1]));
  assert.equal(d.collection!.origin, 'routed');
  assert.match(d.collection!.note!, /cycle/);
  assert.equal(d.collection!.network.edges.length, 6);
});

test('the report in chromium: the efficiency and wake-loss charts draw marks, the thumbnails hold the stored cables', {
  skip: hasChromium() ? false : 'no chromium (apt-get install chromium)',
  timeout: 90_000,
}, async () => {
  browser = await launchBrowser();
  const page = await browser.context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto(pathToFileURL(path.join(dir, 'report.html')).href);
  await page.waitForFunction(
    () =>
      document.querySelectorAll('.chart').length > 0 &&
      document.querySelectorAll('.chart[data-rendered="true"]').length === document.querySelectorAll('.chart').length,
    null,
    { timeout: 30_000 },
  );
  assert.ok((await page.locator('.chart[data-chart="efficiency"] svg .mark-rect path').count()) >= 2, 'efficiency boxes');
  assert.ok((await page.locator('.chart[data-chart="loss-cf"] svg .mark-rect path').count()) >= 4, 'wake loss and capacity factor bars');
  assert.equal(await page.locator('figure.layout line.cable').count(), 4 * 5);
  const table = await page.locator('table.cells').textContent();
  assert.match(table!, /LCOE \d+\.\d\d €\/MWh \(AEP [\d,]+ MWh\)/);
  assert.match((await page.locator('table.economics').textContent())!, /€\/MWh.*M€/);
  assert.deepEqual(problems, []);
});
