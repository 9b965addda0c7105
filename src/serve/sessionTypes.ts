/**
 * What the engine session's request handlers share (session.ts owns the farms; farmRequests.ts and
 * the other handler files answer the kinds they declare): a reply, an open farm, the session's farm
 * table as handlers see it, and a handler's declaration (its header fields, its arrays, its answer).
 */
import type { FarmEvaluator } from '../physics/aep.js';
import type { Case } from '../case/case.js';

/** A response: its header and arrays (frames.ts encodes them). */
export interface Reply {
  header: Record<string, unknown>;
  arrays?: Record<string, Float64Array>;
  stop?: boolean;
}

/** A farm open on the session: its case, its turbine count, its evaluator, where it came from (for messages). */
export interface OpenFarm {
  c: Case;
  n: number;
  evaluator: FarmEvaluator;
  source: string;
}

/** The session's farms as a handler sees them. */
export interface FarmTable {
  /** The open farm of a request's `handle` field (an InputError naming `kind.handle` otherwise). */
  farm(kind: string, handle: unknown): OpenFarm;
  /** Open a farm for a case: its handle and the `open` response's fields, and the case's layout arrays. */
  open(c: Case, source: string): { fields: Record<string, unknown>; arrays?: Record<string, Float64Array> };
}

/** Send a frame before the reply (an optimize request's `progress` frames): its fields, the session adds protocol, ok, kind, id. */
export type Emit = (fields: Record<string, unknown>) => void;

/** A request kind answered outside session.ts: its allowed header fields and arrays, and its answer. */
export interface RequestHandler {
  fields: string[];
  arrays: string[];
  /** The response's fields and arrays (protocol, ok, kind and id are added by the session). */
  answer(
    farms: FarmTable,
    header: Record<string, unknown>,
    arrays: Map<string, Float64Array>,
    kind: string,
    emit?: Emit,
  ): { fields: Record<string, unknown>; arrays?: Record<string, Float64Array> };
}
