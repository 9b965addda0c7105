/**
 * A finished task's row as the ledger stores it: the output record (io/layoutRecord.ts) plus the
 * spec hash it was computed for, where it came from, and what a producer other than wflo's own
 * optimizer reported beside it. Rows reach the ledger only through the gate (gate/rowGate.ts),
 * which turns a candidate of this shape into a `VerifiedRow`.
 */
import type { LayoutRecord } from '../io/layoutRecord.js';

export interface ResultRow extends LayoutRecord {
  specHash: string;
  /**
   * The AEP the producer reported when it is not wflo's own number for the campaign's model (a
   * user's program, an adopted file); NaN or absent otherwise. `aep` is always wflo's.
   */
  aepReported?: number;
  /** Named scalars a user's program asked to keep (LCOE, cable length, …). */
  metrics?: Readonly<Record<string, number>>;
  /** Who computed it, as the worker said (`host:pid` of a queue worker); absent for local work. */
  worker?: string;
  /**
   * An adopted row's identity (campaign/specHash.ts adoptedIdentity: farm, farm type, seed; not
   * the optimizer): while the task keeps it, the row stays done through a change of the optimizer
   * or its program. Set by the gate for adopted rows only.
   */
  adoptedFor?: string;
}

/** Older name of the same shape (a row as committed). */
export type CommittedResult = ResultRow;
