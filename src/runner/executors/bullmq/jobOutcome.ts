/**
 * How an attempt ended, as a queue job's return value (JSON). Every attempt a worker could run
 * ends as a *completed* job carrying one of these (a result, the optimizer's error, the job
 * process's crash, a timeout), so the coordinator learns exactly what the local pool would have
 * told it. A *failed* job means the queue itself gave up on it (payload rejected, stalled too
 * often). The coordinator validates what it reads back: a worker is not trusted to send a
 * well-formed result, and the layout is checked again before the scheduler commits it.
 */
import { z } from 'zod';
import { taskOutputProblem, type TaskOutput } from '../../taskOutput.js';
import type { AttemptOutcome, WorkerRef } from '../executor.js';

export type EncodedOutcome =
  | { v: 1; kind: 'result'; attempt: number; wallS: number; worker: WorkerRef; output: EncodedOutput }
  | { v: 1; kind: 'error'; attempt: number; message: string; wallS?: number; permanent?: boolean; worker: WorkerRef }
  | { v: 1; kind: 'crash' | 'timeout'; attempt: number; message: string; worker: WorkerRef };

interface EncodedOutput {
  x: number[]; y: number[]; xInitial: number[]; yInitial: number[];
  aep: number; aepInitial: number; iterations: number; evaluations: number; feasible: boolean; maxViolationM: number;
}

export function encodeOutput(o: TaskOutput): EncodedOutput {
  return {
    x: Array.from(o.x), y: Array.from(o.y), xInitial: Array.from(o.xInitial), yInitial: Array.from(o.yInitial),
    aep: o.aep, aepInitial: o.aepInitial, iterations: o.iterations, evaluations: o.evaluations, feasible: o.feasible, maxViolationM: o.maxViolationM,
  };
}

const nums = z.array(z.number().finite()).max(100_000);
const worker = z.strictObject({ host: z.string().max(300), pid: z.number().int() });
const outcomeSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    v: z.literal(1), kind: z.literal('result'), attempt: z.number().int(), wallS: z.number().finite(), worker,
    output: z.strictObject({
      x: nums, y: nums, xInitial: nums, yInitial: nums, aep: z.number().finite(), aepInitial: z.number().finite(),
      iterations: z.number().int(), evaluations: z.number().int(), feasible: z.boolean(), maxViolationM: z.number(),
    }),
  }),
  z.strictObject({
    v: z.literal(1), kind: z.literal('error'), attempt: z.number().int(), message: z.string(), wallS: z.number().finite().optional(),
    permanent: z.boolean().optional(), worker,
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
  return parsed.success ? parsed.data : null;
}

export function decodeOutcome(raw: unknown, nTurbines: number): AttemptOutcome {
  let value = raw;
  if (typeof value === 'string') {
    try { value = JSON.parse(value); } catch { return { kind: 'error', message: 'worker returned a value that is not JSON' }; }
  }
  const parsed = outcomeSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const claimed = claimedWorker(value);
    return {
      kind: 'error', invalid: true, message: `worker returned a malformed outcome (${issue.path.map(String).join('.') || 'value'}: ${issue.message})`,
      ...(claimed ? { worker: claimed } : {}),
    };
  }
  const o = parsed.data;
  const message = (m: string): string => m.split('\n')[0].slice(0, 1000);
  if (o.kind === 'result') {
    const e = o.output;
    const output: TaskOutput = {
      ...e, x: Float64Array.from(e.x), y: Float64Array.from(e.y), xInitial: Float64Array.from(e.xInitial), yInitial: Float64Array.from(e.yInitial),
    };
    const problem = taskOutputProblem(output, nTurbines);
    if (problem) return { kind: 'error', invalid: true, message: `invalid result from worker ${o.worker.host}:${o.worker.pid}: ${problem}`, wallS: o.wallS, worker: o.worker };
    return { kind: 'result', output, wallS: o.wallS, worker: o.worker };
  }
  if (o.kind === 'error') return { kind: 'error', message: message(o.message), wallS: o.wallS, permanent: o.permanent, worker: o.worker };
  return { kind: o.kind, message: message(o.message), worker: o.worker };
}
