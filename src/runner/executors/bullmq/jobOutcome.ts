/**
 * How an attempt ended, as a queue job's return value (JSON). Every attempt a worker could run
 * ends as a *completed* job carrying one of these (a result, the optimizer's error, the job
 * process's crash, a timeout), so the coordinator learns exactly what the local pool would have
 * told it. A *failed* job means the queue itself gave up on it (payload rejected, stalled too
 * often). The coordinator validates what it reads back: a worker is not trusted to send a
 * well-formed result, and the layout is checked again before the scheduler commits it.
 */
import { printable } from '../../../util/printable.js';
import { z } from 'zod';
import { taskOutputProblem, type TaskOutput } from '../../taskOutput.js';
import type { AttemptOutcome, WorkerRef } from '../executor.js';
import { workerIdOf } from '../../workerId.js';

export type EncodedOutcome =
  | { v: 1; kind: 'result'; attempt: number; wallS: number; worker: WorkerRef; output: EncodedOutput }
  | { v: 1; kind: 'error'; attempt: number; message: string; wallS?: number; permanent?: boolean; worker: WorkerRef }
  | { v: 1; kind: 'crash' | 'timeout'; attempt: number; message: string; worker: WorkerRef };

/** JSON has no NaN: unknown numbers (a command program's missing AEP, unknown initial layouts) travel as null. */
interface EncodedOutput {
  x: number[];
  y: number[];
  xInitial: (number | null)[];
  yInitial: (number | null)[];
  aep: number | null;
  aepInitial: number | null;
  iterations: number;
  evaluations: number;
  feasible: boolean;
  maxViolationM: number;
  aepReported?: number | null;
  metrics?: Record<string, number>;
  /** Each turbine's model index (farm types of several models). */
  typeOf?: number[];
  /** The designed collection network (farms with economics): next node (−1 − s: substation s) and cable type per turbine. */
  cableTo?: number[];
  cableType?: number[];
}

const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);
const orNaN = (v: number | null | undefined): number => (v === null || v === undefined ? NaN : v);

export function encodeOutput(o: TaskOutput): EncodedOutput {
  return {
    x: Array.from(o.x),
    y: Array.from(o.y),
    xInitial: Array.from(o.xInitial, orNull),
    yInitial: Array.from(o.yInitial, orNull),
    aep: orNull(o.aep),
    aepInitial: orNull(o.aepInitial),
    iterations: o.iterations,
    evaluations: o.evaluations,
    feasible: o.feasible,
    maxViolationM: o.maxViolationM,
    ...(o.aepReported !== undefined ? { aepReported: orNull(o.aepReported) } : {}),
    ...(o.metrics !== undefined ? { metrics: o.metrics } : {}),
    ...(o.typeOf !== undefined ? { typeOf: Array.from(o.typeOf) } : {}),
    ...(o.cableTo !== undefined && o.cableType !== undefined ? { cableTo: Array.from(o.cableTo), cableType: Array.from(o.cableType) } : {}),
  };
}

const nums = z.array(z.number().finite()).max(100_000);
const maybeNums = z.array(z.number().finite().nullable()).max(100_000);
const metricName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)
  .refine((k) => k !== '__proto__' && k !== 'constructor' && k !== 'prototype');
const worker = z.strictObject({ host: z.string().max(300), pid: z.number().int() });
const outcomeSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    v: z.literal(1),
    kind: z.literal('result'),
    attempt: z.number().int(),
    wallS: z.number().finite(),
    worker,
    output: z.strictObject({
      x: nums,
      y: nums,
      xInitial: maybeNums,
      yInitial: maybeNums,
      aep: z.number().finite().nullable(),
      aepInitial: z.number().finite().nullable(),
      iterations: z.number().int(),
      evaluations: z.number().int(),
      feasible: z.boolean(),
      maxViolationM: z.number(),
      aepReported: z.number().finite().nullable().optional(),
      metrics: z
        .record(metricName, z.number().finite())
        .refine((m) => Object.keys(m).length <= 64)
        .optional(),
      typeOf: z.array(z.number().int().min(0).max(1000)).max(100_000).optional(),
      cableTo: z.array(z.number().int().min(-1000).max(100_000)).max(100_000).optional(),
      cableType: z.array(z.number().int().min(0).max(1000)).max(100_000).optional(),
    }),
  }),
  z.strictObject({
    v: z.literal(1),
    kind: z.literal('error'),
    attempt: z.number().int(),
    message: z.string(),
    wallS: z.number().finite().optional(),
    permanent: z.boolean().optional(),
    worker,
  }),
  z.strictObject({ v: z.literal(1), kind: z.enum(['crash', 'timeout']), attempt: z.number().int(), message: z.string(), worker }),
]);

/**
 * A job's return value as the scheduler's outcome; anything malformed, or a layout that fails the
 * same check the local worker applies, becomes an `error` outcome (retried like any other).
 */
/** Who a malformed outcome says sent it, when that part at least is well formed. */
function claimedWorker(value: unknown): WorkerRef | null {
  const w = (value as { worker?: unknown } | null)?.worker;
  const parsed = worker.safeParse(w);
  return parsed.success ? { ...parsed.data, host: printable(parsed.data.host) } : null;
}

export function decodeOutcome(raw: unknown, nTurbines: number): AttemptOutcome {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { kind: 'error', message: 'worker returned a value that is not JSON' };
    }
  }
  const parsed = outcomeSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const claimed = claimedWorker(value);
    return {
      kind: 'error',
      invalid: true,
      message: `worker returned a malformed outcome (${issue.path.map(String).join('.') || 'value'}: ${issue.message})`,
      ...(claimed ? { worker: claimed } : {}),
    };
  }
  const o = { ...parsed.data, worker: { ...parsed.data.worker, host: printable(parsed.data.worker.host) } };
  // Everything a worker says is printed and stored as one plain line.
  const message = (m: string): string => printable(m.split('\n')[0].slice(0, 1000));
  if (o.kind === 'result') {
    const e = o.output;
    const output: TaskOutput = {
      x: Float64Array.from(e.x),
      y: Float64Array.from(e.y),
      xInitial: Float64Array.from(e.xInitial, orNaN),
      yInitial: Float64Array.from(e.yInitial, orNaN),
      aep: orNaN(e.aep),
      aepInitial: orNaN(e.aepInitial),
      iterations: e.iterations,
      evaluations: e.evaluations,
      feasible: e.feasible,
      maxViolationM: e.maxViolationM,
      ...(e.aepReported !== undefined ? { aepReported: orNaN(e.aepReported) } : {}),
      ...(e.metrics !== undefined ? { metrics: e.metrics } : {}),
      ...(e.typeOf !== undefined ? { typeOf: Int32Array.from(e.typeOf) } : {}),
      ...(e.cableTo !== undefined ? { cableTo: Int32Array.from(e.cableTo) } : {}),
      ...(e.cableType !== undefined ? { cableType: Int32Array.from(e.cableType) } : {}),
    };
    const problem = taskOutputProblem(output, nTurbines);
    if (problem)
      return { kind: 'error', invalid: true, message: `invalid result from worker ${workerIdOf(o.worker)}: ${problem}`, wallS: o.wallS, worker: o.worker };
    return { kind: 'result', output, wallS: o.wallS, worker: o.worker };
  }
  if (o.kind === 'error') return { kind: 'error', message: message(o.message), wallS: o.wallS, permanent: o.permanent, worker: o.worker };
  return { kind: o.kind, message: message(o.message), worker: o.worker };
}
