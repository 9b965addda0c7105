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
 * The Case, the prepared boundary and the farm evaluator are built once per (farm, farm type).
 */
import type { Case } from '../optimize/case.js';
import { createFarmEvaluator, type FarmEvaluator } from '../physics/aep.js';
import { checkFeasibility, formatMetres } from '../geometry/feasibility.js';
import { prepareBoundary, type PreparedBoundary } from '../geometry/preparedBoundary.js';
import type { Campaign } from './campaign.js';
import type { Task } from './taskGrid.js';
import { caseForTask } from './caseForTask.js';

export interface RecordToVerify { x: Float64Array; y: Float64Array; aep: number }

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

export type Verdict = { ok: true; aepRecomputed: number | null } | { ok: false; reason: string };

/** Same tolerance optimizeLayout accepts for its own results (metres). */
const FEASIBILITY_TOLERANCE_M = 1e-6;

const DEFAULT_OPTIONS: VerifyOptions = { aepTolerance: 1e-6, checkAep: true };

interface PreparedCase {
  problem: Case;
  /** null: the case has no boundary. Includes the exclusion zones (checkFeasibility names them). */
  site: PreparedBoundary | null;
  /** Built on first AEP check (geometry-only verification never needs it). */
  evaluator: FarmEvaluator | null;
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

  verify(task: Task, record: RecordToVerify, aepCheck?: AepCheck): Verdict {
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
    const report = checkFeasibility(prepared.site, x, y, prepared.problem.minSpacing, FEASIBILITY_TOLERANCE_M);
    if (!report.feasible) return { ok: false, reason: report.worst ?? `infeasible by ${formatMetres(report.maxViolationM)} m` };

    if (check.kind === 'skip') return { ok: true, aepRecomputed: null };
    if (check.kind === 'compare') {
      if (!Number.isFinite(record.aep)) return { ok: false, reason: `AEP ${record.aep} is not a finite number` };
      if (record.aep < 0) return { ok: false, reason: `AEP ${formatMwh(record.aep)} MWh is negative` };
    }
    prepared.evaluator ??= createFarmEvaluator(prepared.problem.turbine, prepared.problem.wind, prepared.problem.model);
    const recomputed = prepared.evaluator.aep(x, y).aepMwh;
    if (check.kind === 'recompute') return { ok: true, aepRecomputed: recomputed };
    const difference = Math.abs(record.aep - recomputed);
    const relative = recomputed === 0 ? (difference === 0 ? 0 : Infinity) : difference / Math.abs(recomputed);
    if (!(relative <= check.tolerance)) {
      return {
        ok: false,
        reason: `AEP ${formatMwh(record.aep)} MWh differs from recomputed ${formatMwh(recomputed)} MWh (rel ${formatRatio(relative)})`,
      };
    }
    return { ok: true, aepRecomputed: recomputed };
  }

  /** Pairs of turbines times wind bins of one AEP evaluation of this task: what a recomputation costs. */
  aepCost(task: Task): number {
    const farm = this.campaign.farms[task.farmIndex];
    const type = this.campaign.farmTypes[task.typeIndex];
    if (!farm || !type) return 0;
    return type.nTurbines * type.nTurbines * farm.wind.directionsDeg.length * farm.wind.speeds.length;
  }

  private preparedCase(farmIndex: number, typeIndex: number): PreparedCase {
    const key = `${farmIndex}/${typeIndex}`;
    let prepared = this.cases.get(key);
    if (!prepared) {
      const problem = caseForTask(this.campaign.farms[farmIndex]!, this.campaign.farmTypes[typeIndex]!);
      const site = problem.boundary ? prepareBoundary(problem.boundary) : null;
      prepared = { problem, site, evaluator: null };
      this.cases.set(key, prepared);
    }
    return prepared;
  }
}
