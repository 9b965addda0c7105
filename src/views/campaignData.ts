/**
 * Everything the report and the dashboard show about a campaign, aggregated in SQL against its
 * ledger (opened read-only; WAL readers never block a running `wflo run`), so a 100 000-task
 * campaign costs a few grouped scans, not 100 000 rows in a page:
 * status per farm × type (runner/campaignStatus.ts), AEP statistics, quartiles (window
 * functions) and histograms per cell, best and worst task per cell, failures with their errors;
 * gross AEP, wake loss and capacity factor per cell from the stored farm and type definitions;
 * throughput over time from the audit log; the best and worst layout of each cell as plots, on
 * one wake-loss colour scale per cell (the same colour means the same loss in both). When every
 * cell has at most DOT_PLOT_MAX_SEEDS results, each result's AEP is sent too (a dot per seed says
 * more than a histogram of four values).
 *
 * Where the gross AEP depends on the layout (a farm on a site that is not uniform, a farm type
 * choosing its models), the efficiency, wake loss and capacity factor come from the stored layouts
 * (layoutFigures.ts), or the cell says in one line why they cannot. A cell whose farm type optimizes
 * a cost objective ranks its results by it (LCOE lowest is best, NPV highest; the gate's metrics),
 * and its best and worst layouts are drawn with the network stored with each row
 * (economicsDrawing.ts) and their recorded LCOE and NPV in the model's currency.
 *
 * Where each result came from (the ledger's `source`): computed by wflo (`computed`, or `shard:…`
 * when a shard run computed it), adopted from another pipeline's files (`adopted:…`), or recovered
 * from the folder's own layouts.h5 or audit log (`recovered:…`): counted per cell, marked on the
 * dots and the layout plots, and listed row by row with the AEP the files reported
 * (`aep_reported`) wherever a row is not computed or carries one.
 */
import { directionsFlag } from '../io/directionsField.js';
import type { Case } from '../case/case.js';
import { LedgerReader, type FailureInfo } from '../runner/ledgerReader.js';
import { readStatus, type CampaignStatus } from '../runner/campaignStatus.js';
import { caseFromDefinitions, definitionLabel } from './caseFromDefinitions.js';
import { caseGross, turbineYield } from './turbineYield.js';
import type { Site } from '../physics/site/site.js';
import { fieldRange } from '../physics/site/siteField.js';
import { nonEmptyRange } from './colorScale.js';
import { ThroughputLog, type Throughput } from './throughput.js';
import { readResultsFromLedger } from './storedResult.js';
import { layoutSvg } from './layoutSvg.js';
import { economicsDrawing, economicsLine } from './economicsDrawing.js';
import { layoutFigures, type LayoutFigures, type LayoutGrossCache } from './layoutFigures.js';
import { lcoeUnit, millionsUnit, objectiveText } from '../cost/currency.js';

export interface AepStats {
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
}

/** Where a result came from, by its ledger `source`. */
export type RowOrigin = 'computed' | 'adopted' | 'recovered';

export function originOf(source: string): RowOrigin {
  return source.startsWith('adopted:') ? 'adopted' : source.startsWith('recovered:') ? 'recovered' : 'computed';
}

/** A row that was not computed here, or carries the AEP its source reported. */
export interface ProvenanceRow {
  taskId: string;
  source: string;
  origin: RowOrigin;
  aep: number;
  aepReported: number | null;
}

/** Most rows listed in the provenance table (the count says how many there are). */
export const PROVENANCE_MAX_ROWS = 200;

export interface CellView {
  farmId: number;
  farmType: number;
  farmLabel: string;
  /** The farm type's label, with its objective when it is a cost objective ("v80 x5 · LCOE"). */
  typeLabel: string;
  /** "farm label · type label" (· "on a site, speed-up a–b" for a farm on a site that is not uniform) */
  label: string;
  /** A farm on a site that is not uniform (docs/site.md): its speed-up's range over the grid (null: no speed-up field), whether a TI field and a shear are given. */
  site?: { speedupMin: number | null; speedupMax: number | null; ti: boolean; shear: 'power' | 'log' | null };
  nTurbines: number;
  total: number;
  done: number;
  failed: number;
  running: number;
  pending: number;
  stale: number;
  grossAepMwh: number;
  aep: AepStats | null;
  /** 1 − mean AEP / gross AEP (mean over the cell's done seeds). */
  wakeLossMean: number | null;
  capacityFactorMean: number | null;
  /** The best and worst result by the cell's objective (`value`: the objective's figure, LCOE or NPV, for a cost objective). */
  best: RankedResult | null;
  worst: RankedResult | null;
  /** What the cell's results are ranked by: its farm type's objective. */
  objective: 'aep' | 'lcoe' | 'npv';
  /** Farm efficiency (AEP / gross AEP) over the done results, fractions (null: not known, see figuresNote). */
  efficiency: { n: number; min: number; q1: number; median: number; q3: number; max: number } | null;
  /** Gross AEP, efficiency and wake loss from each stored layout (a site, a model choice): the gross is then their mean. */
  grossPerLayout: boolean;
  /** Why the cell has no efficiency or wake loss, one line (null when it has them, or has no results). */
  figuresNote: string | null;
  /** Done results by origin (null: not counted, the dashboard's quick view). */
  origins: Record<RowOrigin, number> | null;
  /**
   * Which measure the cell's AEPs are on: `bins` (the farm's rose as listed, the benchmark
   * measure) or its direction treatment as `--directions` writes it (`spread:20`).
   */
  measure: string;
  /**
   * The cell's economics over its done seeds (farms with economics: the gate's metrics), else null:
   * LCOE (currency/MWh) mean and lowest, NPV mean, cable length mean (m).
   */
  economics: { lcoeMean: number; lcoeBest: number; npvMean: number; cableMeanM: number; currency: string; lcoeUnit: string; millionsUnit: string } | null;
}

/** A cell's best or worst result; `value` is its LCOE or NPV when the cell is ranked by one. */
export interface RankedResult {
  taskId: string;
  aep: number;
  source: string;
  value?: number /** The value with its unit ("LCOE 126.62 €/MWh"). */;
  text?: string;
}

export interface HistogramBin {
  farmId: number;
  farmType: number;
  label: string;
  lo: number;
  hi: number;
  count: number;
}

/** One done task's AEP (sent when every cell has at most DOT_PLOT_MAX_SEEDS of them). */
export interface AepPoint {
  farmId: number;
  farmType: number;
  taskId: string;
  aep: number;
  origin: RowOrigin;
  efficiency?: number;
}

/** Most results per cell for which the charts show one dot per seed instead of a histogram. */
export const DOT_PLOT_MAX_SEEDS = 30;

export interface LayoutView {
  label: string;
  which: 'best' | 'worst';
  taskId: string;
  aep: number;
  source: string;
  svg: string;
  objective: CellView['objective'];
  value?: number;
}

export interface CampaignView {
  campaign: string;
  dir: string;
  generatedAt: string;
  status: Omit<CampaignStatus, 'groups' | 'failures'>;
  cells: CellView[];
  histogram: HistogramBin[];
  /** Every done task's AEP when no cell has more than DOT_PLOT_MAX_SEEDS; empty otherwise. */
  points: AepPoint[];
  failures: FailureInfo[];
  /** Rows adopted or recovered, or with a reported AEP: how many, and the first PROVENANCE_MAX_ROWS (largest AEP difference first). */
  provenance: { total: number; rows: ProvenanceRow[] };
  throughput: Throughput;
  layouts: LayoutView[];
  /** Cells with layout plots (the first `maxLayoutCells` cells that have results). */
  layoutCellsShown: number;
  /** A quick first view: no layout plots and no throughput yet (the dashboard sends the rest later). */
  partial: boolean;
}

export interface CampaignViewOptions {
  /** Most cells whose best and worst layouts are drawn (default 40). */
  maxLayoutCells?: number;
  maxFailures?: number;
  /** Reused between calls (the dashboard): definitions → cases, task id → plot. */
  cache?: CampaignViewCache;
  /** Counts and failures only: no statistics, layout plots or throughput (the dashboard's fast first answer). */
  quick?: boolean;
}

export class CampaignViewCache {
  readonly cases = new Map<string, { c: Case; gross: number; ratedW: number }>();
  /** Plots of a cell's best and worst layout, by "best|worst" task ids. */
  readonly plots = new Map<string, string[]>();
  /** Gross AEP of stored layouts where it depends on the layout (layoutFigures.ts). */
  readonly layoutGross: LayoutGrossCache = new Map();
  throughput: ThroughputLog | null = null;
}

export async function readCampaignView(dir: string, options: CampaignViewOptions = {}): Promise<CampaignView> {
  const cache = options.cache ?? new CampaignViewCache();
  const status = readStatus(dir);
  const ledger = LedgerReader.open(dir);
  try {
    // One read snapshot for everything taken from the ledger.
    const { cells, histogram, points, failures, layouts, layoutCellsShown, provenance } = await ledger.snapshot(async () => {
      const key = (f: number, t: number) => `${f}/${t}`;
      const stored = ledger.storedDefinitions();
      const farmDefs = new Map([...stored.farms].map(([id, d]) => [id, { def: d.definition, hash: d.hash }]));
      const typeDefs = new Map([...stored.types].map(([id, d]) => [id, { def: d.definition, hash: d.hash }]));

      const stats = new Map<string, AepStats>();
      const best = new Map<string, { taskId: string; aep: number; source: string }>(),
        worst = new Map<string, { taskId: string; aep: number; source: string }>();
      let histRows: number[][] = [];
      let points: AepPoint[] = [];
      const origins = new Map<string, Record<RowOrigin, number>>();
      let provenance: CampaignView['provenance'] = { total: 0, rows: [] };
      let bins = 0;
      if (!options.quick) {
        // One scan of the done results (their rows hold the layout blobs, so scans are what costs).
        const summary = ledger.doneAepSummary(DOT_PLOT_MAX_SEEDS, (maxN) => Math.min(30, Math.max(6, Math.ceil(Math.sqrt(maxN)))), PROVENANCE_MAX_ROWS);
        for (const c of summary.cells) {
          stats.set(key(c.farmId, c.farmType), { n: c.n, mean: c.mean, min: c.min, q1: c.q1, median: c.median, q3: c.q3, max: c.max });
          worst.set(key(c.farmId, c.farmType), c.worst);
          best.set(key(c.farmId, c.farmType), c.best);
          origins.set(key(c.farmId, c.farmType), { computed: c.n - c.adopted - c.recovered, adopted: c.adopted, recovered: c.recovered });
        }
        points = summary.points.map(({ source, ...p }) => ({ ...p, origin: originOf(source) }));
        provenance = { total: summary.noted.total, rows: summary.noted.rows.map((r) => ({ ...r, origin: originOf(r.source) })) };
        bins = summary.bins;
        histRows = summary.histogram.map((h) => [h.farmId, h.farmType, h.bin, h.count]);
      }
      const failures = ledger.failures(options.maxFailures ?? 200);
      // Best and worst by a cost objective (the gate's metrics), for cells whose farm type optimizes one.
      const byMetric = new Map<string, Map<string, ReturnType<LedgerReader['metricExtremes']>[number]>>();
      if (!options.quick) {
        for (const name of ['lcoe_per_mwh', 'npv']) byMetric.set(name, new Map(ledger.metricExtremes(name).map((m) => [key(m.farmId, m.farmType), m])));
      }
      // Cost figures per cell (the gate computed them for farms with economics).
      const econ = new Map<string, Record<string, { mean: number; min: number }>>();
      if (!options.quick) {
        for (const m of ledger.metricStats(['lcoe_per_mwh', 'npv', 'cable_length_m'])) {
          const k = key(m.farmId, m.farmType);
          econ.set(k, { ...econ.get(k), [m.name]: { mean: m.mean, min: m.min } });
        }
      }

      const cells: CellView[] = [];
      const labels = new Map<string, string>();
      for (const g of status.groups) {
        const farm = farmDefs.get(g.farmId),
          type = typeDefs.get(g.farmType);
        const farmLabel = definitionLabel(farm?.def, `farm ${g.farmId}`);
        const k = key(g.farmId, g.farmType);
        const caseKey = `${farm?.hash}/${type?.hash}`;
        let entry = cache.cases.get(caseKey);
        if (!entry && farm && type) {
          try {
            const c = caseFromDefinitions(farm.def, type.def, `${dir} farm ${g.farmId} type ${g.farmType}`);
            const sum = caseGross(c);
            entry = { c, gross: sum.grossMwh, ratedW: sum.ratedW };
            cache.cases.set(caseKey, entry);
          } catch {
            /* definitions not in wflo's shape: no physics columns for this cell */
          }
        }
        const s = stats.get(k) ?? null;
        const objective = entry?.c.objective === 'lcoe' || entry?.c.objective === 'npv' ? entry.c.objective : 'aep';
        // A farm type optimizing a cost objective says so (two types that differ only by it would share a label).
        const typeLabel = `${definitionLabel(type?.def, `type ${g.farmType}`)}${objective === 'aep' ? '' : ` · ${objective.toUpperCase()}`}`;
        // The gross of a site or a model choice depends on the layout: from each stored layout (layoutFigures.ts).
        let perLayout: LayoutFigures | null = null,
          figuresNote: string | null = null;
        if (s && entry && !(entry.gross > 0) && !options.quick) {
          const f = layoutFigures(ledger, g.farmId, g.farmType, entry.c, s.n, cache.layoutGross);
          if ('note' in f) figuresNote = f.note;
          else perLayout = f;
        } else if (s && !entry) figuresNote = 'its farm or farm type definition is not one wflo wrote, so its gross AEP is unknown';
        if (perLayout)
          for (const p of points)
            if (p.farmId === g.farmId && p.farmType === g.farmType) {
              const e = perLayout.byTask.get(p.taskId);
              if (e !== undefined) p.efficiency = e;
            }
        const gross = perLayout ? perLayout.grossMeanMwh : (entry?.gross ?? NaN);
        const metric = objective === 'aep' ? undefined : byMetric.get(objective === 'lcoe' ? 'lcoe_per_mwh' : 'npv')?.get(k);
        const currency = entry?.c.economics?.model.currency ?? 'EUR';
        const ranked = (m: NonNullable<typeof metric>['low']): RankedResult => ({
          taskId: m.taskId,
          aep: m.aep,
          source: m.source,
          value: m.value,
          text: `${objective.toUpperCase()} ${objectiveText(objective as 'lcoe' | 'npv', m.value, currency)}`,
        });
        const [bestPick, worstPick] = metric
          ? objective === 'lcoe'
            ? [ranked(metric.low), ranked(metric.high)]
            : [ranked(metric.high), ranked(metric.low)]
          : [best.get(k) ?? null, worst.get(k) ?? null];
        const nTurbines = entry?.c.nTurbines ?? 0;
        const site = entry?.c.model.site ? siteView(entry.c.model.site) : undefined;
        const label = `${farmLabel} · ${typeLabel}${site ? ` · ${siteText(site)}` : ''}`;
        labels.set(k, label);
        cells.push({
          farmId: g.farmId,
          farmType: g.farmType,
          farmLabel,
          typeLabel,
          label,
          nTurbines,
          ...(site ? { site } : {}),
          total: g.total,
          done: g.done,
          failed: g.failed,
          running: g.running,
          pending: g.pending,
          stale: g.stale,
          grossAepMwh: gross,
          aep: s,
          objective,
          grossPerLayout: perLayout !== null,
          figuresNote,
          wakeLossMean: perLayout ? perLayout.wakeLoss : s && gross > 0 ? 1 - s.mean / gross : null,
          capacityFactorMean: perLayout ? perLayout.capacityFactor : s && entry && entry.ratedW > 0 ? s.mean / (entry.ratedW * 1e-6 * 8760) : null,
          efficiency: perLayout
            ? perLayout.efficiency
            : s && gross > 0
              ? { n: s.n, min: s.min / gross, q1: s.q1 / gross, median: s.median / gross, q3: s.q3 / gross, max: s.max / gross }
              : null,
          best: bestPick,
          worst: worstPick,
          origins: options.quick ? null : (origins.get(k) ?? { computed: 0, adopted: 0, recovered: 0 }),
          economics: (() => {
            const e = econ.get(k);
            return e?.lcoe_per_mwh && e.npv && e.cable_length_m
              ? {
                  lcoeMean: e.lcoe_per_mwh.mean,
                  lcoeBest: e.lcoe_per_mwh.min,
                  npvMean: e.npv.mean,
                  cableMeanM: e.cable_length_m.mean,
                  currency,
                  lcoeUnit: lcoeUnit(currency),
                  millionsUnit: millionsUnit(currency),
                }
              : null;
          })(),
          measure: entry?.c.directions
            ? directionsFlag(entry.c.directions.treatment)
            : (farm?.def as { directions?: unknown } | undefined)?.directions !== undefined
              ? 'treated (unreadable)'
              : 'bins',
        });
      }
      const histogram: HistogramBin[] = histRows.map(([f, ty, bin, count]) => {
        const s = stats.get(key(f, ty))!;
        const width = s.max > s.min ? (s.max - s.min) / bins : Math.max(1, Math.abs(s.min) * 1e-4);
        const lo = s.max > s.min ? s.min + bin * width : s.min - width / 2;
        return { farmId: f, farmType: ty, label: labels.get(key(f, ty)) ?? key(f, ty), lo, hi: lo + width, count };
      });

      // Best and worst layout of each cell on one wake-loss colour scale, drawn once per pair
      // (cached across dashboard updates).
      const maxLayoutCells = options.maxLayoutCells ?? 40;
      const layouts: LayoutView[] = [];
      let layoutCellsShown = 0;
      for (const cell of cells) {
        if (options.quick || !cell.best || !cell.worst || layoutCellsShown >= maxLayoutCells) continue;
        layoutCellsShown++;
        const picks: ['best' | 'worst', RankedResult][] = [['best', cell.best]];
        if (cell.worst.taskId !== cell.best.taskId) picks.push(['worst', cell.worst]);
        const pairKey = picks.map(([, p]) => p.taskId).join('|');
        let svgs = cache.plots.get(pairKey);
        if (svgs === undefined) {
          try {
            const results = readResultsFromLedger(
              ledger,
              picks.map(([, p]) => p.taskId),
            );
            const entry = cache.cases.get(`${farmDefs.get(results[0].farmId)?.hash}/${typeDefs.get(results[0].farmType)?.hash}`);
            const site = entry?.c ?? results[0].case;
            let lo = Infinity,
              hi = -Infinity;
            for (const r of results)
              for (const l of turbineYield(site, r.x, r.y, r.typeOf).lossByTurbine) {
                lo = Math.min(lo, l);
                hi = Math.max(hi, l);
              }
            const lossRange = nonEmptyRange(Number.isFinite(lo) ? lo : 0, Number.isFinite(hi) ? hi : 0.01);
            svgs = [];
            for (let k = 0; k < results.length; k++) {
              const r = results[k];
              // The network stored with the row (its cost figures' network) and the figures it recorded.
              const currency = site.economics?.model.currency ?? 'EUR';
              const line = site.economics && r.metrics ? economicsLine(r.metrics.lcoe_per_mwh, r.metrics.npv, currency, cell.objective) : undefined;
              const rank = cell.objective === 'aep' ? '' : ` by ${cell.objective.toUpperCase()}`;
              const plot = await layoutSvg(
                {
                  title: `${picks[k][0]}${rank}: ${r.taskId}${originOf(picks[k][1].source) === 'computed' ? '' : ` (${picks[k][1].source})`}`,
                  site,
                  x: r.x,
                  y: r.y,
                  typeOf: r.typeOf,
                  ...economicsDrawing(site, r.x, r.y, r.cableTo, r.cableType),
                  ...(line ? { economicsLine: line } : {}),
                },
                { width: 470, height: 380, idPrefix: `l${cache.plots.size}_${k}`, lossRange },
              );
              svgs.push(plot.svg);
            }
          } catch (err) {
            // Definitions not in wflo's shape (or a layout that cannot be evaluated): say so in place of the plot.
            svgs = picks.map(([which, pick]) => `<p class="note">${which} ${pick.taskId}: no plot (${(err as Error).message.replace(/[<&]/g, ' ')})</p>`);
          }
          cache.plots.set(pairKey, svgs);
        }
        picks.forEach(([which, pick], k) =>
          layouts.push({
            label: cell.label,
            which,
            taskId: pick.taskId,
            aep: pick.aep,
            source: pick.source,
            svg: svgs![k],
            objective: cell.objective,
            ...(pick.value !== undefined ? { value: pick.value } : {}),
          }),
        );
      }
      return { cells, histogram, points, failures, layouts, layoutCellsShown, provenance };
    });

    let throughput: Throughput = { bucketS: 0, buckets: [], runStarts: [] };
    if (!options.quick) {
      cache.throughput ??= new ThroughputLog(dir);
      cache.throughput.refresh();
      throughput = cache.throughput.buckets();
    }
    const { groups: _groups, failures: _failures, ...statusRest } = status;
    return {
      campaign: status.campaign,
      dir,
      generatedAt: new Date().toISOString(),
      status: statusRest,
      cells,
      histogram,
      points,
      failures,
      provenance,
      throughput,
      layouts,
      layoutCellsShown,
      partial: options.quick ?? false,
    };
  } finally {
    ledger.close();
  }
}

function siteView(site: Site): NonNullable<CellView['site']> {
  const r = site.speedup ? fieldRange(site.speedup) : null;
  return { speedupMin: r ? r.min : null, speedupMax: r ? r.max : null, ti: site.ti !== null, shear: site.shear ? site.shear.kind : null };
}

/** "on a site: speed-up 0.90–1.20, TI field, power shear" */
function siteText(s: NonNullable<CellView['site']>): string {
  const parts = [
    ...(s.speedupMin !== null ? [`speed-up ${s.speedupMin.toFixed(2)}–${s.speedupMax!.toFixed(2)}`] : []),
    ...(s.ti ? ['TI field'] : []),
    ...(s.shear ? [`${s.shear} shear`] : []),
  ];
  return `on a site: ${parts.join(', ')}`;
}
