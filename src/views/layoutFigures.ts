/**
 * A campaign cell's farm efficiency, wake loss and capacity factor where the gross AEP depends on
 * the layout, so one number per cell cannot give it (turbineYield.ts caseGross: NaN): a farm on a
 * site that is not uniform (each turbine's gross is its model alone at its own position) and a
 * farm type choosing its models (each row has its own models). The figures then come from each
 * stored layout (ledger rows: positions and models), for cells of at most PER_LAYOUT_MAX_RESULTS
 * done results; a larger cell gets the one-line reason instead (reading every layout blob of a
 * 100 000-task campaign is what the report's grouped scans avoid).
 *
 *   efficiency_r = AEP_r / gross_r,  wake loss = 1 − Σ AEP_r / Σ gross_r,
 *   capacity factor = mean_r AEP_r / (rated_r · 8760 h)
 */
import type { Case } from '../case/case.js';
import type { LedgerReader } from '../runner/ledgerReader.js';
import { layoutGrossOf } from './turbineYield.js';

/** Most done results of a cell whose layouts are read for these figures. */
export const PER_LAYOUT_MAX_RESULTS = 200;

/** Efficiency statistics (fractions) by the lower nearest rank, as the AEP quartiles. */
export interface EfficiencyStats {
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

export interface LayoutFigures {
  /** Mean gross AEP over the rows, MWh. */
  grossMeanMwh: number;
  wakeLoss: number;
  capacityFactor: number;
  efficiency: EfficiencyStats;
  /** Each row's efficiency by task id (the charts' dots). */
  byTask: Map<string, number>;
}

/** Quartiles of values by the lower nearest rank (the ledger's rule). */
export function efficiencyStats(values: readonly number[]): EfficiencyStats {
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.floor((s.length - 1) * p)];
  return { n: s.length, min: s[0], q1: at(0.25), median: at(0.5), q3: at(0.75), max: s[s.length - 1] };
}

/** Gross AEP and installed power of stored rows by "task id|AEP" (the dashboard reuses them between updates; a row computed again has another AEP). */
export type LayoutGrossCache = Map<string, { grossMwh: number; ratedW: number }>;

/** The figures of cell (farmId, farmType) from its stored layouts, or the reason there are none. */
export function layoutFigures(
  ledger: LedgerReader,
  farmId: number,
  farmType: number,
  c: Case,
  done: number,
  cache: LayoutGrossCache = new Map(),
): LayoutFigures | { note: string } {
  if (done > PER_LAYOUT_MAX_RESULTS) {
    return {
      note: `its gross AEP depends on each layout (${c.model.site ? 'a site that is not uniform' : 'models chosen per result'}); computed from the layouts for cells of at most ${PER_LAYOUT_MAX_RESULTS} results, this one has ${done}`,
    };
  }
  let gross: ReturnType<typeof layoutGrossOf> | undefined;
  const byTask = new Map<string, number>();
  let sumAep = 0,
    sumGross = 0,
    sumCf = 0;
  for (const { taskId, aep } of ledger.doneAepsOfCell(farmId, farmType, PER_LAYOUT_MAX_RESULTS)) {
    const key = `${taskId}|${aep}`;
    let g = cache.get(key);
    if (!g) {
      const r = ledger.doneLayout(taskId);
      if (!r) continue;
      gross ??= layoutGrossOf(c);
      g = gross(r.x, r.y, r.turbineTypes ?? (c.turbines ? new Int32Array(r.x.length) : undefined));
      cache.set(key, g);
    }
    if (!(g.grossMwh > 0)) continue;
    byTask.set(taskId, aep / g.grossMwh);
    sumAep += aep;
    sumGross += g.grossMwh;
    sumCf += aep / (g.ratedW * 1e-6 * 8760);
  }
  const n = byTask.size;
  if (n === 0) return { note: 'no stored layout to compute its gross AEP from' };
  return { grossMeanMwh: sumGross / n, wakeLoss: 1 - sumAep / sumGross, capacityFactor: sumCf / n, efficiency: efficiencyStats([...byTask.values()]), byTask };
}
