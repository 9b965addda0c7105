/**
 * RecordVerifier: may a layout record from outside the ledger (a rescued worker shard, a merged
 * rescue file, another run's layouts.h5) stand as the result of one task of this campaign?
 *
 * A record passes when it has exactly the farm type's turbine count, every coordinate is finite,
 * every turbine is inside the farm's boundary and outside its exclusion zones, the minimum spacing
 * holds (all with the optimizer's own feasibility tolerance, 1e-6 m), and its AEP agrees with the
 * AEP recomputed from the layout with the campaign's farm model to a relative tolerance (default
 * 1e-6). Reasons are one short line meant to follow the task id in a report.
 *
 * Farm types of several turbine models: each turbine's model (the record's `turbineTypes`) must be
 * one of the farm type's; with fixed counts it must be the counts' assignment (a record without
 * models gets it), with a model choice a record without models stands for every turbine of model 0.
 * Spacing is checked pair by pair with the larger of the two turbines' spacings
 * (geometry/pairSpacing.ts) and the AEP recomputed with each turbine's model and the farm's
 * neighbours, as the optimizer computed it.
 *
 * The Case, the prepared boundary and the farm evaluator are built once per (farm, farm type).
 */
import type { Case } from '../case/case.js';
import type { FarmEvaluator } from '../physics/aep.js';
import { caseEvaluator, caseSpacing, isMixedCase } from '../optimize/caseEvaluator.js';
import type { MixedFarmEvaluator } from '../physics/mixedFarm.js';
import { caseMixedEvaluator } from '../optimize/caseEvaluator.js';
import { checkFeasibility, formatMetres } from '../geometry/feasibility.js';
import { prepareBoundary, type PreparedBoundary } from '../geometry/preparedBoundary.js';
import type { Campaign } from './campaign.js';
import type { Task } from './taskGrid.js';
import { caseForTask } from './caseForTask.js';
import { farmWind } from './farmWind.js';
import { typeOfCounts } from '../io/farmTurbines.js';
import { economicMetrics } from '../optimize/economicMetrics.js';
import { coincidentProblem } from '../geometry/coincidentPoints.js';
import { UncablableLayout } from '../geometry/collection/index.js';
import { parentOfCableTo } from '../optimize/economicObjective.js';

export interface RecordToVerify {
  x: Float64Array;
  y: Float64Array;
  aep: number;
  turbineTypes?: Int32Array;
  /** The starting layout (empty or absent: unknown) and its AEP (NaN: unknown); checked like the final one's AEP. */
  xInitial?: Float64Array;
  yInitial?: Float64Array;
  aepInitial?: number;
  /**
   * The collection network the row carries (layouts.h5's cable_to: next turbine, or −1 − s for
   * substation s): only the router's start for a farm with economics, never trusted
   * (routeCollection.ts checks it and keeps it when it is valid and no dearer than its own).
   */
  cableTo?: Int32Array;
}

/**
 * What to do with the AEP: `compare` the record's to the recomputed one (it must be a finite,
 * non-negative number within the relative tolerance), only `recompute` it (the record's own AEP,
 * from another model, is kept beside it by the caller), or `skip` it (geometry only).
 */
export type AepCheck = { kind: 'compare'; tolerance: number } | { kind: 'recompute' } | { kind: 'skip' };

export interface VerifyOptions {
  /** Largest accepted |aep − recomputed| / |recomputed|. */
  aepTolerance: number;
  /** Recompute and compare the AEP (false: geometry only, aepRecomputed is null). */
  checkAep: boolean;
}

/**
 * A passing verdict carries the turbine models the row stands for (several-model farm types) and,
 * when the record gave its starting layout, the initial AEP to store: the record's when it agrees
 * with the recomputation (or when AEPs are not checked), wflo's when the record had none or the
 * AEP is recomputed; NaN without a starting layout (an initial AEP nobody can check is not kept),
 * unless the record's allowance keeps it as given (a record from outside: RecordAllowance).
 */
export type Verdict =
  | {
      ok: true;
      aepRecomputed: number | null;
      turbineTypes?: Int32Array;
      aepInitial?: number;
      /** How far (m) the layout strays beyond the optimizer's own tolerance, when an allowance let it pass. */
      slackM?: number;
      /** A farm with economics: the layout's LCOE, NPV, cables… computed here (optimize/economicMetrics.ts). */
      economics?: Record<string, number>;
      /** … and the collection network routed for the layout, per turbine (io/layoutRecord.ts cableTo, cableType). */
      cables?: { to: Int32Array; type: Int32Array };
    }
  | {
      ok: false;
      reason: string;
      /** The layout's worst geometric violation (m), when that is why it failed. */
      offByM?: number;
      /** `aep`: it failed only on its AEP or initial AEP (the layout is feasible): `--aep recompute` would take it. */
      failed?: 'aep';
    };

/**
 * What a record from outside (an adopted or merged file; never a row wflo computed) is allowed:
 * how far its layout may stray, and an initial AEP kept as the file gives it.
 */
export interface RecordAllowance {
  /**
   * Metres a turbine may lie outside the site or inside an exclusion zone, or a pair short of the
   * minimum spacing (`--tolerance-m`; never below the optimizer's own FEASIBILITY_TOLERANCE_M).
   * Distances are compared to within ROUNDING_M of rounding.
   */
  toleranceM?: number;
  /** Keep an initial AEP that comes without its initial layout (nothing to check it against) rather than drop it. */
  keepUncheckedInitialAep?: boolean;
}

/** Same tolerance optimizeLayout accepts for its own results (metres). */
export const FEASIBILITY_TOLERANCE_M = 1e-6;
/** Rounding allowed when a layout is held to a tolerance the user gave (1 nm: far below any placement). */
export const ROUNDING_M = 1e-9;
/** Violations up to this far (m) are optimizer slack: the refusal names the --tolerance-m that would accept them. */
export const SLACK_HINT_LIMIT_M = 1;

/**
 * The smallest two-significant-digit tolerance (m) that accepts a violation of `offByM`: 0.01 for
 * 0.0100000002, 0.0005 for 0.000500000000033, 0.013 for 0.0121.
 */
export function toleranceAccepting(offByM: number): number {
  const target = Math.max(offByM - ROUNDING_M, FEASIBILITY_TOLERANCE_M);
  const step = 10 ** (Math.floor(Math.log10(target)) - 1);
  return Number((Math.ceil(target / step) * step).toPrecision(2));
}

/**
 * `(0.01 m off, beyond the 1e-6 m tolerance: --tolerance-m 0.01 accepts it)` for optimizer slack
 * (up to SLACK_HINT_LIMIT_M), '' for a larger violation (not slack: no option should take it).
 */
export function toleranceHint(offByM: number, toleranceM: number): string {
  if (!(offByM > 0) || offByM > SLACK_HINT_LIMIT_M) return '';
  const allowed =
    toleranceM > FEASIBILITY_TOLERANCE_M ? `--tolerance-m ${toleranceM}` : `the ${FEASIBILITY_TOLERANCE_M.toExponential(0).replace('e+', 'e')} m tolerance`;
  return ` (${formatMetres(offByM)} m off, beyond ${allowed}: --tolerance-m ${toleranceAccepting(offByM)} accepts it)`;
}

const DEFAULT_OPTIONS: VerifyOptions = { aepTolerance: 1e-6, checkAep: true };

interface PreparedCase {
  problem: Case;
  /** null: the case has no boundary. Includes the exclusion zones (checkFeasibility names them). */
  site: PreparedBoundary | null;
  /** Built on first AEP check (geometry-only verification never needs it). */
  evaluator: FarmEvaluator | null;
  /** Farms of several models or with neighbours: one evaluator, any assignment of models. */
  mixed: MixedFarmEvaluator | null;
}

/** An energy as short as it reads well: 1e9, 366941.57, 1.2e-4 (MWh). */
export function formatMwh(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e7 || magnitude < 1e-2)) {
    return Number(value.toPrecision(6)).toExponential().replace('e+', 'e');
  }
  return String(Number(value.toFixed(2)));
}

/** The AEP of a layout with the case's model (models: each turbine's; null: every turbine model 0), evaluators built on first use. */
function aepOf(prepared: PreparedCase, x: Float64Array, y: Float64Array, models: Int32Array | null): number {
  if (isMixedCase(prepared.problem)) {
    prepared.mixed ??= caseMixedEvaluator(prepared.problem);
    return prepared.mixed.aep(x, y, models ?? new Int32Array(x.length)).aepMwh;
  }
  prepared.evaluator ??= caseEvaluator(prepared.problem);
  return prepared.evaluator.aep(x, y).aepMwh;
}

/** |a − b| / |b|, 0 when both are 0, Infinity when only b is. */
function relativeDifference(a: number, b: number): number {
  const difference = Math.abs(a - b);
  return b === 0 ? (difference === 0 ? 0 : Infinity) : difference / Math.abs(b);
}

/** A relative difference with two significant digits: 2.7e3, 1.0e-4. */
function formatRatio(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return value.toExponential(1).replace('e+', 'e');
}

export class RecordVerifier {
  private readonly campaign: Pick<Campaign, 'farms' | 'farmTypes'>;
  private readonly options: VerifyOptions;
  /** Key `${farmIndex}/${typeIndex}`. */
  private readonly cases = new Map<string, PreparedCase>();

  constructor(campaign: Pick<Campaign, 'farms' | 'farmTypes'>, options?: Partial<VerifyOptions>) {
    this.campaign = campaign;
    this.options = { ...DEFAULT_OPTIONS, ...options };
    if (!(this.options.aepTolerance >= 0)) throw new RangeError(`aepTolerance must be >= 0, got ${this.options.aepTolerance}`);
  }

  /**
   * `allowance`: what a record from outside may have (RecordAllowance); absent for rows wflo
   * computed, which are held to the optimizer's own tolerance.
   */
  verify(task: Task, record: RecordToVerify, aepCheck?: AepCheck, allowance?: RecordAllowance): Verdict {
    const check: AepCheck = aepCheck ?? (this.options.checkAep ? { kind: 'compare', tolerance: this.options.aepTolerance } : { kind: 'skip' });
    const type = this.campaign.farmTypes[task.typeIndex];
    const farm = this.campaign.farms[task.farmIndex];
    if (!type || !farm) return { ok: false, reason: `task ${task.taskId} is not in the campaign` };
    const { x, y } = record;
    if (x.length !== y.length) return { ok: false, reason: `${x.length} x and ${y.length} y coordinates` };
    if (x.length !== type.nTurbines) {
      return { ok: false, reason: `${x.length} turbines, farm type ${type.id} has ${type.nTurbines}` };
    }
    for (let i = 0; i < x.length; i++) {
      if (!Number.isFinite(x[i]!) || !Number.isFinite(y[i]!)) {
        return { ok: false, reason: `turbine ${i} has a non-finite position (${x[i]}, ${y[i]})` };
      }
    }
    const prepared = this.preparedCase(task.farmIndex, task.typeIndex);
    // Two turbines at one point, or one on a substation: refused by name (coincidentPoints.ts).
    const points = coincidentProblem(x, y, prepared.problem.economics?.substations ?? []);
    if (points) return { ok: false, reason: points };
    const models = this.turbineModels(type, record.turbineTypes);
    if (typeof models === 'string') return { ok: false, reason: models };
    const spacing = models ? caseSpacing(prepared.problem, models) : prepared.problem.minSpacing;
    const toleranceM = Math.max(allowance?.toleranceM ?? FEASIBILITY_TOLERANCE_M, FEASIBILITY_TOLERANCE_M);
    const limitM = toleranceM > FEASIBILITY_TOLERANCE_M ? toleranceM + ROUNDING_M : FEASIBILITY_TOLERANCE_M;
    const report = checkFeasibility(prepared.site, x, y, spacing, limitM);
    if (!report.feasible) {
      const reason = report.worst ?? `infeasible by ${formatMetres(report.maxViolationM)} m`;
      const offByM = Number.isFinite(report.maxViolationM) ? report.maxViolationM : undefined;
      return {
        ok: false,
        reason: allowance && offByM !== undefined ? reason + toleranceHint(offByM, toleranceM) : reason,
        ...(offByM !== undefined ? { offByM } : {}),
      };
    }
    const kept = {
      ...(models ? { turbineTypes: models } : {}),
      ...(report.maxViolationM > FEASIBILITY_TOLERANCE_M ? { slackM: report.maxViolationM } : {}),
    };
    const keepUnchecked = allowance?.keepUncheckedInitialAep === true;

    if (check.kind === 'skip') {
      const initial = this.initialAep(prepared, type, record, check, keepUnchecked);
      if (typeof initial === 'string') return { ok: false, reason: initial };
      return { ok: true, aepRecomputed: null, ...kept, ...(initial === undefined ? {} : { aepInitial: initial }) };
    }
    if (check.kind === 'compare') {
      if (!Number.isFinite(record.aep)) return { ok: false, reason: `AEP ${record.aep} is not a finite number`, failed: 'aep' };
      if (record.aep < 0) return { ok: false, reason: `AEP ${formatMwh(record.aep)} MWh is negative`, failed: 'aep' };
    }
    const recomputed = aepOf(prepared, x, y, models);
    if (check.kind === 'compare') {
      const relative = relativeDifference(record.aep, recomputed);
      if (!(relative <= check.tolerance)) {
        return {
          ok: false,
          reason: `AEP ${formatMwh(record.aep)} MWh differs from recomputed ${formatMwh(recomputed)} MWh (rel ${formatRatio(relative)})`,
          failed: 'aep',
        };
      }
    }
    const initial = this.initialAep(prepared, type, record, check, keepUnchecked);
    if (typeof initial === 'string') return { ok: false, reason: initial, ...(initial.includes(' differs from ') ? { failed: 'aep' as const } : {}) };
    // The router checks the start itself (length, nodes, validity): routeCollection.ts.
    const start = record.cableTo ? parentOfCableTo(record.cableTo) : undefined;
    // A layout the router cannot cable is refused with the turbines it names (uncablable.ts), not thrown.
    let economics: ReturnType<typeof economicMetrics> | undefined;
    try {
      economics = prepared.problem.economics ? economicMetrics(prepared.problem, x, y, models ?? undefined, start) : undefined;
    } catch (err) {
      if (err instanceof UncablableLayout) return { ok: false, reason: err.message };
      throw err;
    }
    return {
      ok: true,
      aepRecomputed: recomputed,
      ...kept,
      ...(initial === undefined ? {} : { aepInitial: initial }),
      ...(economics ? { economics: economics.metrics, cables: { to: economics.cableTo, type: economics.cableType } } : {}),
    };
  }

  /**
   * The starting layout and its AEP: unknown (none, or all NaN), or finite coordinates, one per turbine (it need not be feasible:
   * a program may start anywhere), and an initial AEP that agrees with the recomputation as the
   * final one must. Farm types that let the optimizer choose each turbine's model do not record
   * the starting models, so there the initial AEP is only checked to be an energy (NaN or ≥ 0).
   * Returns the initial AEP to store, undefined to keep the record's, or why the row is refused.
   * Without a starting layout the initial AEP cannot be checked: it is dropped (NaN), or with
   * `keepUnchecked` (a record from outside: its file's own number) kept as given when it is an energy.
   */
  private initialAep(
    prepared: PreparedCase,
    type: Campaign['farmTypes'][number],
    record: RecordToVerify,
    check: AepCheck,
    keepUnchecked = false,
  ): number | string | undefined {
    if (record.xInitial === undefined && record.yInitial === undefined && record.aepInitial === undefined) return undefined;
    const xi = record.xInitial ?? new Float64Array(0),
      yi = record.yInitial ?? new Float64Array(0);
    const given = record.aepInitial ?? NaN;
    // Unknown: no coordinates, or every one NaN (what a program that gave none leaves in the ledger).
    if ((xi.length === 0 && yi.length === 0) || (xi.every(Number.isNaN) && yi.every(Number.isNaN))) {
      if (!keepUnchecked) return NaN;
      return Number.isNaN(given) || (given >= 0 && Number.isFinite(given)) ? given : `initial AEP ${formatMwh(given)} MWh is not an energy`;
    }
    if (xi.length !== type.nTurbines || yi.length !== type.nTurbines)
      return `initial layout has ${xi.length}/${yi.length} coordinates for ${type.nTurbines} turbines`;
    for (let i = 0; i < xi.length; i++) {
      if (!Number.isFinite(xi[i]!) || !Number.isFinite(yi[i]!)) return `initial layout: turbine ${i} has a non-finite position (${xi[i]}, ${yi[i]})`;
    }
    if (!(Number.isNaN(given) || given >= 0)) return `initial AEP ${formatMwh(given)} MWh is not an energy`;
    if (check.kind === 'skip' || (type.models && !type.models.counts)) return given;
    const recomputed = aepOf(prepared, xi, yi, type.models?.counts ? typeOfCounts(type.models.counts) : null);
    if (check.kind === 'recompute' || Number.isNaN(given)) return recomputed;
    const relative = relativeDifference(given, recomputed);
    if (!(relative <= check.tolerance)) {
      return `initial AEP ${formatMwh(given)} MWh differs from the initial layout's recomputed ${formatMwh(recomputed)} MWh (rel ${formatRatio(relative)})`;
    }
    return given;
  }

  /**
   * The models a record's turbines stand for: null for a farm type of one model (a record naming
   * any other is refused), the counts' assignment for fixed counts, the record's own for a choice
   * (none: every turbine model 0);
   * a string says why they cannot be.
   */
  private turbineModels(type: Campaign['farmTypes'][number], given: Int32Array | undefined): Int32Array | null | string {
    const m = type.models;
    if (!m) {
      if (given && given.some((t) => t !== 0)) return `turbine models given, farm type ${type.id} has one model`;
      return null;
    }
    if (given && given.length !== type.nTurbines) return `${given.length} turbine models for ${type.nTurbines} turbines`;
    if (m.counts) {
      const fixed = typeOfCounts(m.counts);
      if (given && given.some((t, i) => t !== fixed[i])) {
        const i = given.findIndex((t, k) => t !== fixed[k]);
        return `turbine ${i} is model ${given[i]}, farm type ${type.id} fixes it to model ${fixed[i]} (${m.turbines[fixed[i]!]!.name})`;
      }
      return fixed;
    }
    // A row without models stands for every turbine of model 0 (io/layoutRecord.ts: what layouts.h5
    // and a shard ledger leave out), checked and recomputed as such.
    if (!given) return new Int32Array(type.nTurbines);
    for (let i = 0; i < given.length; i++) {
      if (!(Number.isInteger(given[i]) && given[i]! >= 0 && given[i]! < m.turbines.length))
        return `turbine ${i} has model ${given[i]}, not one of the ${m.turbines.length} of farm type ${type.id}`;
    }
    return given;
  }

  /** Pairs of turbines times wind bins of one AEP evaluation of this task: what a recomputation costs. */
  aepCost(task: Task): number {
    const farm = this.campaign.farms[task.farmIndex];
    const type = this.campaign.farmTypes[task.typeIndex];
    if (!farm || !type) return 0;
    return type.nTurbines * type.nTurbines * farmWind(farm).directionsDeg.length * farm.wind.speeds.length;
  }

  private preparedCase(farmIndex: number, typeIndex: number): PreparedCase {
    const key = `${farmIndex}/${typeIndex}`;
    let prepared = this.cases.get(key);
    if (!prepared) {
      const problem = caseForTask(this.campaign.farms[farmIndex]!, this.campaign.farmTypes[typeIndex]!);
      const site = problem.boundary ? prepareBoundary(problem.boundary) : null;
      prepared = { problem, site, evaluator: null, mixed: null };
      this.cases.set(key, prepared);
    }
    return prepared;
  }
}
