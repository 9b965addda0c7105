/**
 * The gate: the one way into the ledger. Every row, whoever produced it — a local worker, a queue
 * worker, a shard ledger (`wflo collect`), a `layouts.h5` or `audit.jsonl` row recovered after a
 * lost ledger, an adopted record — is checked here before it can be committed:
 *
 *   - the task belongs to the campaign and the row is for it (farm, type, seed, spec hash);
 *   - the farm type's turbine count, finite coordinates, inside the site and outside every
 *     exclusion zone, minimum spacing (campaign/verifyRecord.ts, 1e-6 m, or for adopted records
 *     only the `--tolerance-m` allowance, their layout kept as written; with several turbine
 *     models, each turbine's model is one of the farm type's, fixed counts are kept, and each pair
 *     keeps the larger of its two spacings);
 *   - a finite, non-negative AEP that agrees with the AEP recomputed from the layout with the
 *     campaign's model: to 1e-12 relative for rows wflo's own optimizer computed (the engine is
 *     deterministic, so an honest row agrees to the last bit or nearly), to the adoption tolerance
 *     (default 1e-6) for adopted records. Where the producer's AEP is not wflo's (a user's program,
 *     `--aep recompute` adoption), wflo's recomputed AEP is stored as `aep` and the producer's as
 *     `aepReported`; `verify` also requires the two to agree within the tolerance.
 *   - a farm with economics: the gate routes the collection network of the layout itself and
 *     stores it with the row (cableTo, cableType) beside the economics metrics it computes. A
 *     network the row carries (the one wflo's optimizer designed with the layout, or a shard
 *     ledger's, a recovered layouts.h5 or audit line's) is only the router's start: checked from
 *     scratch and kept when valid and no dearer than the router's own (routing is idempotent:
 *     routeCollection.ts), and the row must carry exactly what the router returns, else it is
 *     refused; a row of a farm without economics keeps none. An adopted record's network, like
 *     its metrics, is replaced by wflo's.
 *   - `method: noop` rows (a runner test stand-in) verify geometry only.
 *
 * A row that passes comes back as a `VerifiedRow`: a frozen copy the gate registered. The ledger's
 * commit accepts nothing else (ledger.ts asks `isVerified`), so a new door into the ledger cannot
 * forget the gate. Recomputations that cost more than a few milliseconds run on worker threads
 * (verifyThreads.ts), off the coordinator's event loop.
 */
import type { Campaign } from '../../campaign/campaign.js';
import type { Task } from '../../campaign/taskGrid.js';
import { RecordVerifier, type AepCheck, type RecordAllowance, type RecordToVerify, type Verdict } from '../../campaign/verifyRecord.js';
import type { ResultRow } from '../resultRow.js';
import { adoptedIdentity } from '../../campaign/specHash.js';
import { plainWorkerId } from '../workerId.js';
import { VerifyThreads } from './verifyThreads.js';

/** Where a candidate row comes from; decides its tolerance and its `source` column. */
export type RowOrigin =
  /** wflo computed it (a local worker, a queue worker); `worker` names a remote one. */
  | { kind: 'computed'; worker?: string }
  /** A shard's ledger read by `wflo collect`. */
  | { kind: 'shard'; folder: string }
  /** The output folder's own layouts.h5 or audit.jsonl, after the ledger lost the row. */
  | { kind: 'recovered'; file: string }
  /** A record from elsewhere (`--adopt`, `collect --adopt-stale`). */
  | { kind: 'adopted'; file: string };

declare const verifiedBrand: unique symbol;
/** A row that passed the gate. Only this file makes them. */
export type VerifiedRow = Readonly<ResultRow> & { readonly [verifiedBrand]: true };

/**
 * A passing verdict says how far (m) an adopted layout strays beyond the optimizer's own tolerance
 * when `--tolerance-m` let it in (`slackM`); a failing one whether only its AEP failed (`failed:
 * 'aep'`: `--aep recompute` would take it) and its worst geometric violation (`offByM`).
 */
export type GateVerdict = { ok: true; row: VerifiedRow; slackM?: number } | { ok: false; reason: string; source: string; failed?: 'aep'; offByM?: number };

export type AepMode = 'verify' | 'recompute';

export interface GateOptions {
  /** Relative AEP tolerance for adopted records and for `aep: verify` programs (default 1e-6). */
  aepTolerance?: number;
  /** How adopted records' AEPs are treated (default verify). */
  adoptAep?: AepMode;
  /**
   * Metres an adopted record's layout may stray outside the site, into an exclusion zone or
   * below the minimum spacing (`--tolerance-m`; default and minimum 1e-6, the optimizer's own).
   * Applies to adopted records only: rows wflo computed, collected or recovered are never loosened.
   */
  adoptToleranceM?: number;
  /** Worker threads for costly recomputations (default 1; 0 keeps everything on this thread). */
  threads?: number;
}

/** Rows wflo computed itself: the recomputation may differ only in the last bits. */
export const SELF_TOLERANCE = 1e-12;
/** Turbine pairs × wind bins above which a recomputation goes to a thread (≈ a few ms). */
const INLINE_COST = 2e6;
const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const INT32_MAX = 2147483647;

/** A value as a refusal quotes it: numbers as they are, anything else by its JSON, short. */
function describe(v: unknown): string {
  if (typeof v === 'number') return String(v);
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** What the verifier needs of a candidate row. */
function toVerify(r: ResultRow): RecordToVerify {
  return {
    x: r.x,
    y: r.y,
    aep: r.aep,
    turbineTypes: r.turbineTypes,
    xInitial: r.xInitial,
    yInitial: r.yInitial,
    aepInitial: r.aepInitial,
    ...(r.cableTo ? { cableTo: r.cableTo } : {}),
  };
}
const MAX_METRICS = 64;

const issued = new WeakSet<object>();

/** Whether `row` is a row the gate passed (what the ledger's commit asks). */
export function isVerified(row: unknown): row is VerifiedRow {
  return typeof row === 'object' && row !== null && issued.has(row);
}

export function sourceLabel(origin: RowOrigin): string {
  switch (origin.kind) {
    case 'computed':
      return 'computed';
    case 'shard':
      return `shard:${origin.folder}`;
    case 'recovered':
      return `recovered:${origin.file}`;
    case 'adopted':
      return `adopted:${origin.file}`;
  }
}

/** The campaign's optimizer, as the gate needs it: whose AEP a computed row carries. */
function computedAepPolicy(c: Pick<Campaign, 'optimizer'>, tolerance: number): { check: AepCheck; foreign: boolean } {
  const method = c.optimizer.method;
  if (method === 'noop') return { check: { kind: 'skip' }, foreign: false };
  if (method === 'command') {
    const mode = c.optimizer.aep === 'verify' ? 'verify' : 'recompute';
    const t = typeof c.optimizer.aep_tolerance === 'number' ? c.optimizer.aep_tolerance : tolerance;
    return { check: mode === 'verify' ? { kind: 'compare', tolerance: t } : { kind: 'recompute' }, foreign: true };
  }
  return { check: { kind: 'compare', tolerance: SELF_TOLERANCE }, foreign: false };
}

/**
 * Why a row's stored collection network is not the one the gate routed for its layout (null when it
 * is, or when the row carries none): the first turbine whose edge or cable type differs.
 */
function cableDifference(r: ResultRow, routed: { to: Int32Array; type: Int32Array } | undefined): string | null {
  if (r.cableTo === undefined || r.cableType === undefined) return null;
  if (!routed) return null; // no economics (or geometry only): nothing routed, the row keeps no network
  const node = (v: number) => (v >= 0 ? `turbine ${v}` : `substation ${-1 - v}`);
  for (let i = 0; i < r.nTurbines; i++) {
    if (r.cableTo[i] !== routed.to[i] || r.cableType[i] !== routed.type[i]) {
      return `cable network differs from the one routed for its layout: turbine ${i} stored to ${node(r.cableTo[i]!)} with cable type ${r.cableType[i]}, routed to ${node(routed.to[i]!)} with cable type ${routed.type[i]}`;
    }
  }
  return null;
}

export class RowGate {
  private readonly verifier: RecordVerifier;
  private readonly computed: { check: AepCheck; foreign: boolean };
  private readonly adopted: AepCheck;
  private readonly stored: AepCheck;
  private readonly campaign: Pick<Campaign, 'farms' | 'farmTypes' | 'optimizer'>;
  private readonly threadCount: number;
  private readonly adoptedAllowance: RecordAllowance;
  private threads: VerifyThreads | null = null;

  constructor(campaign: Pick<Campaign, 'farms' | 'farmTypes' | 'optimizer'>, options: GateOptions = {}) {
    const tolerance = options.aepTolerance ?? 1e-6;
    if (!(tolerance >= 0)) throw new RangeError(`AEP tolerance must be >= 0, got ${tolerance}`);
    this.campaign = campaign;
    this.verifier = new RecordVerifier(campaign);
    this.computed = computedAepPolicy(campaign, tolerance);
    this.adopted = options.adoptAep === 'recompute' ? { kind: 'recompute' } : { kind: 'compare', tolerance };
    // Rows already stored by wflo (shards, recovered files) carry wflo's AEP, whatever the optimizer.
    this.stored = this.computed.check.kind === 'skip' ? { kind: 'skip' } : { kind: 'compare', tolerance: SELF_TOLERANCE };
    this.threadCount = options.threads ?? 1;
    const toleranceM = options.adoptToleranceM ?? 1e-6;
    if (!(toleranceM >= 0)) throw new RangeError(`tolerance must be >= 0 m, got ${toleranceM}`);
    // An adopted file's initial AEP is its own number: kept even without the layout to check it against.
    this.adoptedAllowance = { toleranceM, keepUncheckedInitialAep: true };
  }

  /** Time spent verifying on this thread, and recomputations sent to threads (for the run's audit). */
  readonly gateTime = { seconds: 0, rows: 0, offThread: 0 };

  /** Check a candidate row for `task` now, on this thread. */
  checkNow(task: Task, candidate: ResultRow, origin: RowOrigin): GateVerdict {
    const started = performance.now();
    try {
      return this.checkHere(task, candidate, origin);
    } finally {
      this.gateTime.seconds += (performance.now() - started) / 1000;
      this.gateTime.rows++;
    }
  }

  private checkHere(task: Task, candidate: ResultRow, origin: RowOrigin): GateVerdict {
    const early = this.precheck(task, candidate, origin);
    if (early) return early;
    return this.conclude(task, candidate, origin, this.verdict(task, candidate, this.aepCheck(origin), this.allowance(origin)));
  }

  /** The verifier's verdict on a candidate (a benchmark measures the gate by replacing this). */
  protected verdict(task: Task, candidate: ResultRow, check: AepCheck, allowance?: RecordAllowance): Verdict {
    return this.verifier.verify(task, toVerify(candidate), check, allowance);
  }

  private adoptedIdentityOf(task: Task): string {
    const farm = this.campaign.farms[task.farmIndex]!,
      type = this.campaign.farmTypes[task.typeIndex]!;
    return adoptedIdentity(farm, type, task.seed);
  }

  /** What a row from `origin` is allowed beyond wflo's own rules: only adopted records get anything. */
  private allowance(origin: RowOrigin): RecordAllowance | undefined {
    return origin.kind === 'adopted' ? this.adoptedAllowance : undefined;
  }

  /** Check a candidate row; a costly AEP recomputation runs on a worker thread. */
  async check(task: Task, candidate: ResultRow, origin: RowOrigin): Promise<GateVerdict> {
    const check = this.aepCheck(origin);
    if (this.threadCount === 0 || check.kind === 'skip' || this.verifier.aepCost(task) < INLINE_COST) return this.checkNow(task, candidate, origin);
    this.gateTime.offThread++;
    const early = this.precheck(task, candidate, origin);
    if (early) return early;
    this.threads ??= new VerifyThreads({ farms: this.campaign.farms, farmTypes: this.campaign.farmTypes }, this.threadCount);
    const verdict = await this.threads.verify(task, toVerify(candidate), check, this.allowance(origin));
    return this.conclude(task, candidate, origin, verdict);
  }

  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = null;
    await threads?.close();
  }

  private aepCheck(origin: RowOrigin): AepCheck {
    if (origin.kind === 'computed') return this.computed.check;
    if (origin.kind === 'adopted') return this.adopted;
    return this.stored;
  }

  /** What the row says about itself, before any geometry: identity, shapes, metrics. */
  private precheck(task: Task, r: ResultRow, origin: RowOrigin): GateVerdict | null {
    const fail = (reason: string): GateVerdict => ({ ok: false, reason, source: sourceLabel(origin) });
    if (r.taskId !== task.taskId || r.farmId !== task.farmId || r.farmType !== task.farmType || r.seed !== task.seed) {
      return fail(`row says ${r.taskId} (farm ${r.farmId}, type ${r.farmType}, seed ${r.seed}), not this task`);
    }
    if (origin.kind !== 'adopted' && r.specHash !== task.specHash) {
      return fail(`computed for spec ${String(r.specHash).slice(0, 12)}, the task's spec is ${task.specHash.slice(0, 12)}`);
    }
    if (!(r.x instanceof Float64Array) || !(r.y instanceof Float64Array)) return fail('layout is not a pair of coordinate arrays');
    if (r.nTurbines !== r.x.length || r.nTurbines !== r.y.length) return fail(`layout has ${r.x.length}/${r.y.length} coordinates for ${r.nTurbines} turbines`);
    if (r.turbineTypes !== undefined && (!(r.turbineTypes instanceof Int32Array) || r.turbineTypes.length !== r.nTurbines)) {
      return fail(`turbine types: ${r.turbineTypes?.length} values for ${r.nTurbines} turbines`);
    }
    for (const [name, a] of [
      ['x_initial', r.xInitial],
      ['y_initial', r.yInitial],
    ] as const) {
      if (!(a instanceof Float64Array) || (a.length !== 0 && a.length !== r.nTurbines))
        return fail(`${name} has ${a?.length} values for ${r.nTurbines} turbines`);
    }
    // What the row says about its run: whole numbers (-1 when unknown), a duration, an energy.
    // A shard ledger or an audit line can hold anything here (text, 7.5, 1e300); let through,
    // such a value would stop every later export of layouts.h5.
    const counts = [
      ['iterations', r.iterations, INT32_MAX],
      ['evaluations', r.evaluations, Number.MAX_SAFE_INTEGER],
      ['attempts', r.attempts, INT32_MAX],
    ] as const;
    for (const [name, v, max] of counts) {
      if (!(typeof v === 'number' && Number.isInteger(v) && v >= -1 && v <= max))
        return fail(`${name} is ${describe(v)}, not a whole number from -1 (unknown) to ${max}`);
    }
    if (!(typeof r.wallS === 'number' && (Number.isNaN(r.wallS) || (r.wallS >= 0 && Number.isFinite(r.wallS)))))
      return fail(`wall_s is ${describe(r.wallS)}, not a duration in seconds (NaN when unknown)`);
    if (!(typeof r.aepInitial === 'number' && (Number.isNaN(r.aepInitial) || (r.aepInitial >= 0 && Number.isFinite(r.aepInitial)))))
      return fail(`aep_initial is ${describe(r.aepInitial)}, not an energy in MWh (NaN when unknown)`);
    if (r.aepReported !== undefined && typeof r.aepReported !== 'number') return fail(`aep_reported is ${describe(r.aepReported)}, not a number`);
    if ((r.cableTo === undefined) !== (r.cableType === undefined)) return fail(`cable_to and cable_type: one given without the other`);
    for (const [name, a] of [
      ['cable_to', r.cableTo],
      ['cable_type', r.cableType],
    ] as const) {
      if (a !== undefined && (!(a instanceof Int32Array) || a.length !== r.nTurbines))
        return fail(`${name} has ${a?.length} values for ${r.nTurbines} turbines`);
    }
    if (r.metrics !== undefined) {
      const names = Object.keys(r.metrics);
      if (names.length > MAX_METRICS) return fail(`${names.length} metrics (at most ${MAX_METRICS})`);
      for (const name of names) {
        if (!METRIC_NAME.test(name)) return fail(`metric name '${name.slice(0, 80)}' is not a plain identifier`);
        if (typeof r.metrics[name] !== 'number' || !Number.isFinite(r.metrics[name]))
          return fail(`metric ${name} is ${String(r.metrics[name])}, not a finite number`);
      }
    }
    return null;
  }

  private conclude(task: Task, r: ResultRow, origin: RowOrigin, verdict: Verdict): GateVerdict {
    const source = sourceLabel(origin);
    if (!verdict.ok) {
      return {
        ok: false,
        reason: verdict.reason,
        source,
        ...(verdict.failed ? { failed: verdict.failed } : {}),
        ...(verdict.offByM !== undefined ? { offByM: verdict.offByM } : {}),
      };
    }
    const foreign = (origin.kind === 'computed' && this.computed.foreign) || origin.kind === 'adopted';
    // A producer's own AEP and metrics exist only where the producer is not wflo's optimizer (a
    // user's program, an adopted file); a row of wflo's own campaign that claims them (an edited
    // layouts.h5 or audit line) loses them.
    const carriesForeign = this.computed.foreign || origin.kind === 'adopted';
    const cableProblem = origin.kind === 'adopted' ? null : cableDifference(r, verdict.cables);
    if (cableProblem) return { ok: false, reason: cableProblem, source };
    const { worker: _claimed, aepReported: _reported, metrics: _metrics, adoptedFor: _identity, cableTo: _to, cableType: _type, ...own } = r;
    // A computed row's worker is the name the scheduler knows it by (made printable when it was
    // decoded): kept whatever it is, since quarantine retracts rows by it. A name read from a file
    // is kept only when it has the plain host:pid shape.
    const worker = origin.kind === 'computed' ? origin.worker : plainWorkerId(r.worker);
    const row: ResultRow = {
      ...own,
      x: r.x.slice(),
      y: r.y.slice(),
      xInitial: r.xInitial.slice(),
      yInitial: r.yInitial.slice(),
      ...(verdict.turbineTypes ? { turbineTypes: verdict.turbineTypes.slice() } : {}),
      ...(verdict.aepInitial !== undefined ? { aepInitial: verdict.aepInitial } : {}),
      source,
      ...(worker ? { worker } : {}),
      ...(carriesForeign && r.aepReported !== undefined ? { aepReported: r.aepReported } : {}),
      // The metrics: a foreign producer's own, then wflo's economics of the layout over them (the
      // gate computed those from the layout; a row's claim of them counts for nothing).
      ...((carriesForeign && r.metrics) || verdict.economics ? { metrics: Object.freeze({ ...(carriesForeign ? r.metrics : {}), ...verdict.economics }) } : {}),
      // The network the gate routed (the row's, when it carried one, is equal to it).
      ...(verdict.cables ? { cableTo: verdict.cables.to.slice(), cableType: verdict.cables.type.slice() } : {}),
      // What an adopted row stands on (not the optimizer): it stays done when only the optimizer changes.
      ...(origin.kind === 'adopted' ? { adoptedFor: this.adoptedIdentityOf(task) } : {}),
    };
    if (foreign && verdict.aepRecomputed !== null) {
      // `aep` is always wflo's number for the campaign's model; the producer's is kept beside it.
      const reported = r.aepReported ?? r.aep;
      row.aepReported = Number.isFinite(reported) ? reported : NaN;
      row.aep = verdict.aepRecomputed;
    }
    const sealed = Object.freeze(row) as VerifiedRow;
    issued.add(sealed);
    return { ok: true, row: sealed, ...(verdict.slackM !== undefined ? { slackM: verdict.slackM } : {}) };
  }
}
