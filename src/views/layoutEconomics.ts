/**
 * The economics and the cable network of a GIVEN layout (`wflo cost`, `wflo cables`, and the
 * engine session's `cost` and `cables` requests behind Python's `Farm.cost` / `Farm.cables`,
 * docs/cost.md and docs/cables.md): the case's cost model on the layout as it stands (no
 * optimization), the collection network routed for it by the optimizers' router
 * (optimize/economicObjective.ts routeCase, economicFigures), every sum of money with the cost
 * model's currency (cost/currency.ts). The CLI's JSON and the session's answer are built here from
 * the same figures, so they agree bit for bit.
 */
import type { Case } from '../case/case.js';
import { economicFigures, routeCase } from '../optimize/economicObjective.js';
import { caseTypeOf } from '../optimize/caseEvaluator.js';
import { readLayoutFile } from '../io/caseFile.js';
import { costItemText, lcoeText, millionsText, currencySymbol } from '../cost/currency.js';
import { coincidentProblem } from '../geometry/coincidentPoints.js';
import { InputError } from '../util/errors.js';

/** What `wflo cost --json` prints (and `Farm.cost` returns): money in the `currency`. */
export interface LayoutCost {
  n_turbines: number;
  cost_model: string;
  currency: string;
  lcoe_per_mwh: number;
  npv: number;
  /** Fraction per year; null when the cash flows have none. */
  irr: number | null;
  aep_mwh: number;
  cable_length_m: number;
  cable_cost: number;
  cost_breakdown: Record<string, number>;
}

/** One cable type of a network: its catalogue entry and what the network uses of it. */
export interface CableTypeUse {
  name: string;
  capacity: number;
  cost_per_m: number;
  edges: number;
  length_m: number;
  cost: number;
}

/** What `wflo cables --json` prints (and `Farm.cables` returns), per turbine i in index order. */
export interface LayoutCables {
  n_turbines: number;
  n_substations: number;
  currency: string;
  cable_length_m: number;
  cable_cost: number;
  /** Turbine i's cable goes to turbine cable_to[i], or to substation s when cable_to[i] = −1 − s (layouts.h5's convention). */
  cable_to: number[];
  /** Index into `by_type` (the case's `economics.cables`) of turbine i's cable. */
  cable_type: number[];
  /** Turbines whose power turbine i's cable carries (itself included). */
  cable_load: number[];
  cable_length_each_m: number[];
  substations: [number, number][];
  by_type: CableTypeUse[];
}

/** The case with economics, and the layout to price: the case's own, or the one of `layoutFile`. */
export function pricedLayout(c: Case, source: string, layoutFile?: string): { c: Case; x: Float64Array; y: Float64Array } {
  const econ = requireEconomics(c, source);
  // Two turbines at one point, or one on a substation, named with the file the layout came from.
  const refuse = (x: Float64Array, y: Float64Array, file: string) => {
    const points = coincidentProblem(x, y, econ.substations);
    if (points) throw new InputError(`${file}: layout: ${points}`);
  };
  if (layoutFile === undefined) {
    if (!c.layout) throw new InputError(`${source}: layout: the case holds no layout; give one with --layout FILE`);
    refuse(c.layout.x, c.layout.y, source);
    return { c, x: c.layout.x, y: c.layout.y };
  }
  const l = readLayoutFile(layoutFile);
  refuse(l.x, l.y, layoutFile);
  const n = l.x.length;
  if (n !== c.nTurbines && c.turbines) throw new InputError(`${layoutFile}: layout: ${n} turbines, the case ${source} assigns models to ${c.nTurbines}`);
  return { c: n === c.nTurbines ? { ...c, layout: l } : { ...c, nTurbines: n, layout: l }, x: l.x, y: l.y };
}

function requireEconomics(c: Case, source: string): NonNullable<Case['economics']> {
  if (!c.economics) throw new InputError(`${source}: economics: the case has none (substations, cables and cost inputs are needed: docs/cost.md)`);
  return c.economics;
}

/** The cost model's figures for the layout (x, y) of case c, its network routed for it. */
export function layoutCost(c: Case, x: Float64Array, y: Float64Array, source = c.name): LayoutCost {
  const econ = requireEconomics(c, source);
  const cc = x.length === c.nTurbines ? c : { ...c, nTurbines: x.length };
  const f = economicFigures(cc, x, y, x.length === c.nTurbines ? caseTypeOf(c) : new Int32Array(x.length));
  return {
    n_turbines: x.length,
    cost_model: f.model,
    currency: econ.model.currency,
    lcoe_per_mwh: f.lcoe,
    npv: f.npv,
    irr: Number.isFinite(f.irr) ? f.irr : null,
    aep_mwh: f.aepMwh,
    cable_length_m: f.cableLengthM,
    cable_cost: f.cableCost,
    cost_breakdown: { ...f.breakdown },
  };
}

/** The collection network routed for the layout (x, y) of case c: per turbine, and per cable type. */
export function layoutCables(c: Case, x: Float64Array, y: Float64Array, source = c.name): LayoutCables {
  const econ = requireEconomics(c, source);
  const net = routeCase(c, x, y);
  const n = net.turbineCount;
  const lengthOf = new Array<number>(n).fill(0);
  for (const e of net.edges) lengthOf[e.from] = e.length;
  return {
    n_turbines: n,
    n_substations: net.substationCount,
    currency: econ.model.currency,
    cable_length_m: net.totalLength,
    cable_cost: net.totalCost,
    cable_to: Array.from(net.parent, (p) => (p < n ? p : -1 - (p - n))),
    cable_type: Array.from(net.cable),
    cable_load: Array.from(net.load),
    cable_length_each_m: lengthOf,
    substations: econ.substations.map(([sx, sy]) => [sx, sy] as [number, number]),
    by_type: econ.cables.map((t, k) => ({
      name: t.name,
      capacity: t.capacity,
      cost_per_m: t.costPerMetre,
      edges: net.edges.filter((e) => e.cable === k).length,
      length_m: net.lengthByCable[k] ?? 0,
      cost: net.costByCable[k] ?? 0,
    })),
  };
}

/** `wflo cost`'s lines. */
export function costLines(r: LayoutCost, heading: string): string[] {
  const cur = r.currency;
  return [
    `case        ${heading}`,
    `cost model  ${r.cost_model} (${cur})`,
    `AEP         ${r.aep_mwh.toFixed(2)} MWh`,
    `LCOE        ${lcoeText(r.lcoe_per_mwh, cur, 4)}`,
    `NPV         ${millionsText(r.npv, cur, 4)}`,
    `IRR         ${r.irr === null ? 'none (the cash flows have no rate of return)' : `${(100 * r.irr).toFixed(3)} %`}`,
    `cables      ${r.cable_length_m.toFixed(1)} m, ${millionsText(r.cable_cost, cur, 4)}`,
    `costs       ${Object.entries(r.cost_breakdown)
      .map(([k, v]) => costItemText(k, v, cur))
      .join(', ')}`,
  ];
}

/** `wflo cables`'s lines. */
export function cablesLines(r: LayoutCables, heading: string): string[] {
  const cur = r.currency;
  const lines = [
    `case        ${heading}`,
    `network     ${r.n_turbines} turbines to ${r.n_substations} substation${r.n_substations === 1 ? '' : 's'}: ${r.cable_length_m.toFixed(1)} m of cable, ${millionsText(r.cable_cost, cur, 4)}`,
  ];
  for (const t of r.by_type) {
    lines.push(
      `cable       ${t.name}: ${t.edges} edges, ${t.length_m.toFixed(1)} m, ${millionsText(t.cost, cur, 4)} (capacity ${t.capacity}, ${t.cost_per_m} ${currencySymbol(cur)}/m)`,
    );
  }
  const toSub = r.cable_to.map((t, i) => [t, i] as const).filter(([t]) => t < 0);
  for (let s = 0; s < r.n_substations; s++) {
    const feeders = toSub.filter(([t]) => t === -1 - s).map(([, i]) => i);
    lines.push(
      `substation  ${s} at (${r.substations[s][0]}, ${r.substations[s][1]}): ${feeders.length} feeder${feeders.length === 1 ? '' : 's'} (turbines ${feeders.join(', ') || 'none'})`,
    );
  }
  return lines;
}
