/**
 * The report's and dashboard's charts as Vega-Lite specs, data inlined (already aggregated by
 * campaignData.ts): status heat map per farm × type, the AEP of every seed per cell (one dot per
 * seed while cells have few; histograms beyond), farm efficiency (AEP / gross AEP) quartiles per
 * cell with the seeds as dots, wake loss and capacity factor per cell, throughput over time.
 * Farms and farm types are in the campaign's numeric order everywhere (ids, so type x9 before
 * x16), never sorted as text. The page renders them with Vega; tests render them to SVG in Node
 * (vegaSvg.ts). AEP axes are labelled in MWh with thousands separators and as many significant
 * digits as the narrowest cell needs (`aepAxisFormat`; d3's SI format wrote "239.182154k"); times
 * are ISO 8601 (2026-11-27 23:10).
 */
import type { CampaignView } from './campaignData.js';
import type { VegaLiteSpec } from './vegaSvg.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const FONT = 'Liberation Sans, DejaVu Sans, Arial, Helvetica, sans-serif';
const CONFIG = {
  font: FONT,
  axis: {
    labelLimit: 320,
    labelFontSize: 11,
    titleFontSize: 12,
    titleFontWeight: 'normal',
    labelColor: '#2a3a4a',
    titleColor: '#2a3a4a',
    gridColor: '#e6ebf0',
  },
  header: { labelFontSize: 11, titleFontSize: 12 },
  legend: { labelFontSize: 11, titleFontSize: 11 },
  view: { stroke: '#d5dde5' },
};

export interface ChartSpec {
  id: string;
  title: string;
  note?: string;
  spec: VegaLiteSpec;
}

/** Distinct labels in the order of their ids (not alphabetical: 'x16' would come before 'x9'). */
function labelsById(
  cells: CampaignView['cells'],
  id: (c: CampaignView['cells'][number]) => number,
  label: (c: CampaignView['cells'][number]) => string,
): string[] {
  const byId = new Map<number, string>();
  for (const c of [...cells].sort((a, b) => id(a) - id(b))) if (!byId.has(id(c))) byId.set(id(c), label(c));
  return [...new Set(byId.values())];
}
/**
 * d3-format for AEP axes (MWh): grouped thousands, no SI prefix, and enough significant digits that
 * the ticks of the narrowest cell (about a quarter of its range apart) read differently.
 */
export function aepAxisFormat(v: CampaignView): string {
  let largest = 0,
    narrowest = Infinity;
  for (const c of v.cells) {
    if (!c.aep) continue;
    largest = Math.max(largest, Math.abs(c.aep.max), Math.abs(c.aep.min));
    if (c.aep.max > c.aep.min) narrowest = Math.min(narrowest, c.aep.max - c.aep.min);
  }
  if (!(largest > 0) || !Number.isFinite(narrowest)) return ',.0f';
  const digits = Math.ceil(Math.log10(largest)) - Math.floor(Math.log10(narrowest / 4));
  return `,.${Math.min(12, Math.max(3, digits))}~r`;
}

/** Origins the dots are coloured by (campaignData.ts `originOf`). */
const ORIGIN_SCALE = { domain: ['computed', 'adopted', 'recovered'], range: ['#4f81b8', '#e08a1e', '#8a8f98'] };

/** ISO 8601 on time axes (UTC), to the minute, or to the second for runs under a day (the date is in the title). */
const isoTimeFormat = (spanS: number): string => (spanS < 86400 ? '%H:%M:%S' : '%Y-%m-%d %H:%M');

const farmOrder = (v: CampaignView) =>
  labelsById(
    v.cells,
    (c) => c.farmId,
    (c) => c.farmLabel,
  );
const typeOrder = (v: CampaignView) =>
  labelsById(
    v.cells,
    (c) => c.farmType,
    (c) => c.typeLabel,
  );
const cellOrder = (v: CampaignView) => [...v.cells].sort((a, b) => a.farmId - b.farmId || a.farmType - b.farmType).map((c) => c.label);

function statusHeatmap(v: CampaignView): VegaLiteSpec {
  const values = v.cells.map((c) => ({
    farm: c.farmLabel,
    type: c.typeLabel,
    done: c.done,
    total: c.total,
    failed: c.failed,
    running: c.running,
    fraction: c.total > 0 ? c.done / c.total : 0,
    text: `${c.done}/${c.total}${c.failed > 0 ? ` · ${c.failed} failed` : ''}${c.running > 0 ? ` · ${c.running} running` : ''}`,
  }));
  const nTypes = new Set(values.map((r) => r.type)).size,
    nFarms = new Set(values.map((r) => r.farm)).size;
  return {
    $schema: SCHEMA,
    config: CONFIG,
    data: { values },
    width: Math.min(900, Math.max(220, nTypes * 150)),
    height: Math.min(700, Math.max(60, nFarms * 46)),
    encoding: {
      x: { field: 'type', type: 'nominal', title: 'farm type', sort: typeOrder(v), axis: { labelAngle: 0, orient: 'top' } },
      y: { field: 'farm', type: 'nominal', title: 'farm', sort: farmOrder(v) },
    },
    layer: [
      {
        mark: { type: 'rect', stroke: '#ffffff', strokeWidth: 2 },
        encoding: {
          color: { field: 'fraction', type: 'quantitative', title: 'done', scale: { domain: [0, 1], scheme: 'greens' }, legend: { format: '.0%' } },
          tooltip: [{ field: 'farm' }, { field: 'type' }, { field: 'done' }, { field: 'failed' }, { field: 'running' }, { field: 'total' }],
        },
      },
      {
        mark: { type: 'rect', fill: null, stroke: '#c62828', strokeWidth: 3 },
        transform: [{ filter: 'datum.failed > 0' }],
      },
      {
        mark: { type: 'text', fontSize: 12 },
        encoding: {
          text: { field: 'text' },
          color: { condition: { test: 'datum.fraction > 0.6', value: '#ffffff' }, value: '#1b2733' },
        },
      },
    ],
  } as VegaLiteSpec;
}

/** Few seeds per cell: a dot per seed on the AEP axis and a tick at the median (a histogram of four values says little). */
function aepDots(v: CampaignView): VegaLiteSpec {
  const nTypes = new Set(v.cells.map((c) => c.farmType)).size;
  const farm = (id: number) => v.cells.find((c) => c.farmId === id)?.farmLabel ?? `farm ${id}`;
  const type = (id: number) => v.cells.find((c) => c.farmType === id)?.typeLabel ?? `type ${id}`;
  const values = v.points.map((p) => ({ ...p, farm: farm(p.farmId), type: type(p.farmType), seed: Number(/_seed_(-?\d+)$/.exec(p.taskId)?.[1] ?? NaN) }));
  // Dots coloured by where the result came from, when any was not computed here.
  const mixed = v.points.some((p) => p.origin !== 'computed');
  return {
    $schema: SCHEMA,
    config: CONFIG,
    data: { values },
    facet: {
      row: { field: 'farm', type: 'nominal', title: null, sort: farmOrder(v) },
      column: { field: 'type', type: 'nominal', title: null, sort: typeOrder(v) },
    },
    spec: {
      width: Math.max(150, Math.min(260, 900 / Math.max(1, nTypes) - 40)),
      height: 44,
      layer: [
        {
          mark: { type: 'circle', size: 46, opacity: 0.75, color: '#4f81b8', stroke: '#16325c', strokeWidth: 0.6 },
          encoding: {
            x: {
              field: 'aep',
              type: 'quantitative',
              title: 'AEP (MWh), one dot per seed',
              scale: { zero: false, nice: false, padding: 10 },
              axis: { format: aepAxisFormat(v), tickCount: 4, labelOverlap: true },
            },
            ...(mixed ? { color: { field: 'origin', type: 'nominal', title: 'result', scale: ORIGIN_SCALE } } : {}),
            tooltip: [
              { field: 'taskId', title: 'task' },
              { field: 'seed' },
              { field: 'aep', title: 'AEP (MWh)', format: ',.1f' },
              { field: 'origin', title: 'result' },
            ],
          },
        },
        {
          mark: { type: 'tick', color: '#c62828', thickness: 2, size: 30 },
          encoding: { x: { aggregate: 'median', field: 'aep', type: 'quantitative' } },
        },
      ],
    },
    resolve: { scale: { x: 'independent' } },
  } as VegaLiteSpec;
}

function aepHistograms(v: CampaignView): VegaLiteSpec {
  const nTypes = new Set(v.cells.map((c) => c.farmType)).size;
  return {
    $schema: SCHEMA,
    config: CONFIG,
    data: {
      values: v.histogram.map((b) => ({
        ...b,
        farm: v.cells.find((c) => c.farmId === b.farmId)?.farmLabel ?? `farm ${b.farmId}`,
        type: v.cells.find((c) => c.farmType === b.farmType)?.typeLabel ?? `type ${b.farmType}`,
      })),
    },
    facet: {
      row: { field: 'farm', type: 'nominal', title: null, sort: farmOrder(v) },
      column: { field: 'type', type: 'nominal', title: null, sort: typeOrder(v) },
    },
    spec: {
      width: Math.max(150, Math.min(260, 900 / Math.max(1, nTypes) - 40)),
      height: 110,
      mark: { type: 'bar', color: '#4f81b8', stroke: '#ffffff', strokeWidth: 0.5 },
      encoding: {
        x: {
          field: 'lo',
          type: 'quantitative',
          bin: { binned: true },
          title: 'AEP (MWh)',
          axis: { format: aepAxisFormat(v), tickCount: 4, labelOverlap: true },
        },
        x2: { field: 'hi' },
        y: { field: 'count', type: 'quantitative', title: 'seeds' },
        tooltip: [
          { field: 'lo', title: 'from (MWh)', format: ',.0f' },
          { field: 'hi', title: 'to (MWh)', format: ',.0f' },
          { field: 'count', title: 'seeds' },
        ],
      },
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
  } as VegaLiteSpec;
}

/**
 * A chart that has nothing to draw says why, in the chart's place (never an empty frame): one line
 * of text per reason.
 */
function explanation(lines: string[]): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    config: { ...CONFIG, view: { stroke: null } },
    data: { values: lines.map((text, i) => ({ text, i })) },
    width: 560,
    height: 20 * lines.length,
    mark: { type: 'text', align: 'left', baseline: 'middle', fontSize: 12, color: '#5a6b7b' },
    encoding: { text: { field: 'text' }, y: { field: 'i', type: 'ordinal', axis: null }, x: { value: 0 } },
  } as VegaLiteSpec;
}

/** "cell label: reason" for every cell with results but no efficiency or wake loss. */
function missingFigures(v: CampaignView): string[] {
  return v.cells
    .filter((c) => c.aep && c.wakeLossMean === null)
    .map((c) => `${c.label}: no farm efficiency or wake loss: ${c.figuresNote ?? 'its gross AEP is unknown'}`);
}

/** In a chart's place: each cell without the figures on one line, its reason indented on the next. */
function missingFiguresChart(v: CampaignView): VegaLiteSpec {
  return explanation(
    missingFigures(v).flatMap((line) => {
      const [cell, ...why] = line.split(': no farm efficiency or wake loss: ');
      return [`${cell}: no farm efficiency or wake loss:`, `    ${why.join('')}`];
    }),
  );
}

function efficiencyBoxes(v: CampaignView): VegaLiteSpec {
  const values = v.cells
    .filter((c) => c.efficiency)
    .map((c) => {
      const a = c.efficiency!;
      return { cell: c.label, min: 100 * a.min, q1: 100 * a.q1, median: 100 * a.median, q3: 100 * a.q3, max: 100 * a.max, n: a.n };
    });
  if (values.length === 0) return missingFiguresChart(v);
  const cellOf = new Map(v.cells.map((c) => [`${c.farmId}/${c.farmType}`, c] as const));
  const dots = v.points.flatMap((p) => {
    const c = cellOf.get(`${p.farmId}/${p.farmType}`);
    if (!c || !c.efficiency) return [];
    // A cell whose gross depends on the layout has each result's own efficiency (layoutFigures.ts).
    const e = c.grossPerLayout ? p.efficiency : c.grossAepMwh > 0 ? p.aep / c.grossAepMwh : undefined;
    return e !== undefined ? [{ cell: c.label, seedEfficiency: 100 * e, taskId: p.taskId }] : [];
  });
  return {
    $schema: SCHEMA,
    config: CONFIG,
    data: { values: [...values, ...dots] },
    width: 560,
    height: Math.max(60, values.length * 24),
    encoding: { y: { field: 'cell', type: 'nominal', title: null, sort: cellOrder(v) } },
    layer: [
      {
        mark: { type: 'rule', color: '#5a6b7b' },
        encoding: { x: { field: 'min', type: 'quantitative', title: 'farm efficiency: AEP / gross AEP (%)', scale: { zero: false } }, x2: { field: 'max' } },
      },
      { mark: { type: 'bar', color: '#9cc1e4', stroke: '#4f81b8', size: 14 }, encoding: { x: { field: 'q1', type: 'quantitative' }, x2: { field: 'q3' } } },
      {
        mark: { type: 'tick', color: '#16325c', thickness: 2.5, size: 16 },
        encoding: {
          x: { field: 'median', type: 'quantitative' },
          tooltip: [
            { field: 'cell' },
            { field: 'n', title: 'seeds' },
            { field: 'min', format: '.2f' },
            { field: 'q1', format: '.2f' },
            { field: 'median', format: '.2f' },
            { field: 'q3', format: '.2f' },
            { field: 'max', format: '.2f' },
          ],
        },
      },
      ...(dots.length > 0
        ? [
            {
              // Each seed, when cells have few (campaignData's points).
              mark: { type: 'circle', size: 22, color: '#c62828', opacity: 0.7 },
              encoding: {
                x: { field: 'seedEfficiency', type: 'quantitative' },
                tooltip: [
                  { field: 'taskId', title: 'task' },
                  { field: 'seedEfficiency', title: 'efficiency (%)', format: '.2f' },
                ],
              },
            },
          ]
        : []),
    ],
  } as VegaLiteSpec;
}

function lossAndCapacity(v: CampaignView): VegaLiteSpec {
  if (!v.cells.some((c) => c.wakeLossMean !== null)) return missingFiguresChart(v);
  const values = v.cells
    .filter((c) => c.wakeLossMean !== null)
    .flatMap((c) => [
      { cell: c.label, measure: 'wake loss (%)', value: 100 * c.wakeLossMean! },
      { cell: c.label, measure: 'capacity factor (%)', value: 100 * (c.capacityFactorMean ?? NaN) },
    ]);
  const n = v.cells.filter((c) => c.wakeLossMean !== null).length;
  return {
    $schema: SCHEMA,
    config: CONFIG,
    data: { values },
    facet: { column: { field: 'measure', type: 'nominal', title: null, sort: ['wake loss (%)', 'capacity factor (%)'] } },
    spec: {
      width: 300,
      height: Math.max(60, n * 22),
      mark: { type: 'bar' },
      encoding: {
        y: { field: 'cell', type: 'nominal', title: null, sort: cellOrder(v) },
        x: { field: 'value', type: 'quantitative', title: 'mean over done seeds (%)' },
        color: { field: 'measure', type: 'nominal', legend: null, scale: { domain: ['wake loss (%)', 'capacity factor (%)'], range: ['#d9622b', '#3d8b5a'] } },
        tooltip: [{ field: 'cell' }, { field: 'measure' }, { field: 'value', format: '.2f' }],
      },
    },
    resolve: { scale: { x: 'independent' } },
  } as VegaLiteSpec;
}

function throughputChart(v: CampaignView): VegaLiteSpec {
  const w = Math.max(1, v.throughput.bucketS);
  const end = (t: string) => new Date(Date.parse(t) + w * 1000).toISOString();
  // Stacked by hand (failed on top of done): each bar spans [lo, hi] tasks per minute.
  const values = v.throughput.buckets
    .flatMap((b) => {
      const done = b.donePerMin,
        failed = (b.failed * 60) / w;
      return [
        { t: b.t, end: end(b.t), what: 'done', lo: 0, hi: done, count: b.done },
        { t: b.t, end: end(b.t), what: 'failed', lo: done, hi: done + failed, count: b.failed },
      ];
    })
    .filter((r) => r.count > 0);
  const first = v.throughput.buckets[0]?.t,
    last = v.throughput.buckets.at(-1)?.t;
  const spanS = first && last ? (Date.parse(last) - Date.parse(first)) / 1000 : 0;
  return {
    $schema: SCHEMA,
    config: CONFIG,
    data: { values },
    width: 760,
    height: 160,
    mark: { type: 'bar', binSpacing: 0 },
    encoding: {
      x: {
        field: 't',
        type: 'temporal',
        title: `time, UTC${spanS < 86400 && first ? `, ${first.slice(0, 10)}` : ''} (bars of ${w} s)`,
        scale: { type: 'utc' },
        axis: { format: isoTimeFormat(spanS), labelOverlap: true },
      },
      x2: { field: 'end' },
      y: { field: 'hi', type: 'quantitative', title: 'tasks per minute' },
      y2: { field: 'lo' },
      color: { field: 'what', type: 'nominal', title: null, scale: { domain: ['done', 'failed'], range: ['#3d8b5a', '#c62828'] } },
      tooltip: [
        { field: 't', type: 'temporal', format: '%Y-%m-%d %H:%M:%S', formatType: 'utc', title: 'from (UTC)' },
        { field: 'what' },
        { field: 'count', title: 'tasks' },
      ],
    },
  } as VegaLiteSpec;
}

/** Every chart of the page, in page order (charts without data are left out). */
export function campaignCharts(v: CampaignView): ChartSpec[] {
  const charts: ChartSpec[] = [{ id: 'status', title: 'Done and failed per farm × farm type', spec: statusHeatmap(v) }];
  if (v.histogram.length > 0) {
    charts.push(
      v.points.length > 0
        ? {
            id: 'aep-histogram',
            title: 'AEP of every seed per farm and type',
            note: 'One dot per seed, the red tick at the median; each cell has its own AEP axis.',
            spec: aepDots(v),
          }
        : {
            id: 'aep-histogram',
            title: 'AEP distribution per farm and type across seeds',
            note: 'Histograms; each cell has its own AEP axis.',
            spec: aepHistograms(v),
          },
    );
    const missing = missingFigures(v);
    const shown = v.cells.some((c) => c.wakeLossMean !== null);
    // Cells drawn without some figures say so under the chart (a chart with none says so in its place).
    const notShown = shown && missing.length > 0 ? ` Not shown: ${missing.join('; ')}.` : '';
    const perLayout = v.cells.some((c) => c.grossPerLayout)
      ? " Where the gross depends on the layout (a site that is not uniform, models chosen per result) it is each result's own: its turbines alone at their positions."
      : '';
    charts.push({
      id: 'efficiency',
      title: 'Farm efficiency per cell (min–max, quartiles, median)',
      note: `AEP as a share of the gross AEP (no wakes), so cells with different turbines compare.${v.points.length > 0 && shown ? ' Red dots: the seeds.' : ''}${perLayout}${notShown}`,
      spec: efficiencyBoxes(v),
    });
    charts.push({ id: 'loss-cf', title: 'Wake loss and capacity factor per cell', ...(notShown ? { note: notShown.trim() } : {}), spec: lossAndCapacity(v) });
  }
  if (v.throughput.buckets.length > 0) charts.push({ id: 'throughput', title: 'Throughput over time (audit log)', spec: throughputChart(v) });
  return charts;
}
