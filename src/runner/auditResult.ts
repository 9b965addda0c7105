/**
 * A committed result as it is written into the audit log's `attempt … done` line, and read back
 * when the ledger lost it (a deleted or damaged ledger, a lost WAL): the audit log then serves as
 * the ledger's second copy. Numbers are written by JSON.stringify, whose shortest round-trip form
 * reads back bit-identical; NaN (which JSON cannot hold) is written as null and read back as NaN.
 */
import type { CommittedResult } from './resultRow.js';

function isNumberRecord(v: unknown): v is Record<string, number> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((e) => typeof e === 'number');
}

export interface AuditResultFields {
  spec_hash: string;
  result: {
    n: number;
    aep: number | null;
    aep_initial: number | null;
    x: (number | null)[];
    y: (number | null)[];
    x_initial: (number | null)[];
    y_initial: (number | null)[];
    iterations: number;
    evaluations: number;
    wall_s: number | null;
    aep_reported?: number;
    metrics?: Record<string, number>;
    worker?: string;
    /** Each turbine's model index (farm types of several models). */
    turbine_types?: number[];
    /** The collection network the gate routed (farms with economics): layoutRecord.ts cableTo, cableType. */
    cable_to?: number[];
    cable_type?: number[];
  };
}

const num = (v: number): number | null => (Number.isNaN(v) ? null : v);
const list = (a: Float64Array): (number | null)[] => Array.from(a, num);

export function auditResultFields(r: CommittedResult): AuditResultFields {
  return {
    spec_hash: r.specHash,
    result: {
      n: r.nTurbines,
      aep: num(r.aep),
      aep_initial: num(r.aepInitial),
      x: list(r.x),
      y: list(r.y),
      x_initial: list(r.xInitial),
      y_initial: list(r.yInitial),
      iterations: r.iterations,
      evaluations: r.evaluations,
      wall_s: num(r.wallS),
      ...(r.aepReported !== undefined && Number.isFinite(r.aepReported) ? { aep_reported: r.aepReported } : {}),
      ...(r.metrics && Object.keys(r.metrics).length > 0 ? { metrics: { ...r.metrics } } : {}),
      ...(r.worker ? { worker: r.worker } : {}),
      ...(r.turbineTypes ? { turbine_types: Array.from(r.turbineTypes) } : {}),
      ...(r.cableTo && r.cableType ? { cable_to: Array.from(r.cableTo), cable_type: Array.from(r.cableType) } : {}),
    },
  };
}

const back = (v: unknown): number => (v === null ? NaN : (v as number));
function floats(v: unknown): Float64Array | null {
  if (!Array.isArray(v) || !v.every((e) => e === null || typeof e === 'number')) return null;
  return Float64Array.from(v, back);
}

function ints(v: unknown): Int32Array {
  return Array.isArray(v) && v.every((e) => Number.isInteger(e) && Math.abs(e as number) < 2 ** 31) ? Int32Array.from(v as number[]) : new Int32Array(0);
}

/**
 * The result carried by an audit event, or null when the event carries none (older logs) or a
 * malformed one. Identity fields come from the caller's task, never from the line alone.
 */
export function resultFromAudit(
  event: Record<string, unknown>,
  task: { taskId: string; farmId: number; farmType: number; seed: number },
): CommittedResult | null {
  const r = event.result as Record<string, unknown> | undefined;
  if (!r || typeof r !== 'object' || typeof event.spec_hash !== 'string') return null;
  const x = floats(r.x),
    y = floats(r.y),
    xi = floats(r.x_initial),
    yi = floats(r.y_initial);
  if (!x || !y || !xi || !yi || typeof r.n !== 'number' || x.length !== r.n || y.length !== r.n) return null;
  if (typeof r.iterations !== 'number' || typeof r.evaluations !== 'number') return null;
  return {
    taskId: task.taskId,
    farmId: task.farmId,
    farmType: task.farmType,
    seed: task.seed,
    specHash: event.spec_hash,
    nTurbines: r.n,
    aep: back(r.aep),
    aepInitial: back(r.aep_initial),
    x,
    y,
    xInitial: xi,
    yInitial: yi,
    iterations: r.iterations,
    evaluations: r.evaluations,
    wallS: back(r.wall_s),
    attempts: typeof event.attempt === 'number' ? event.attempt : -1,
    ...(typeof r.aep_reported === 'number' ? { aepReported: r.aep_reported } : {}),
    ...(isNumberRecord(r.metrics) ? { metrics: r.metrics } : {}),
    ...(typeof r.worker === 'string' ? { worker: r.worker } : {}),
    ...(Array.isArray(r.turbine_types) && r.turbine_types.every((t) => Number.isInteger(t))
      ? { turbineTypes: Int32Array.from(r.turbine_types as number[]) }
      : {}),
    // Anything but two lists of integers is refused by the gate (as an empty list), never dropped quietly.
    ...(r.cable_to !== undefined ? { cableTo: ints(r.cable_to) } : {}),
    ...(r.cable_type !== undefined ? { cableType: ints(r.cable_type) } : {}),
  };
}
