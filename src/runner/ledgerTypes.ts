/** What the ledger's readers return (ledgerReader.ts) and its writer reports (ledger.ts). */
import type { LayoutRecord } from '../io/layoutRecord.js';

/** A campaign task as the ledger has it: done, failed, stale (a result at another spec) or pending. */
export type TaskState = 'done' | 'failed' | 'stale' | 'pending';

export interface TaskLedgerState {
  specHash: string;
  /** Spec hash of the committed result, null when there is none. */
  resultHash: string | null;
  /** Done by the ledger's rule (ledgerSchema.ts): its result carries the task's current spec hash. */
  done: boolean;
  /** Failed attempts so far at this spec (attempt numbers continue from here). */
  attempts: number;
  /** Of those, the ones that count against the attempt limit. */
  attemptsCounted: number;
  failed: boolean;
}

export interface SyncReport {
  total: number;
  done: number;
  stale: number;
  failed: number;
  pending: number;
  /** Tasks in the ledger that this (full) campaign no longer has. */
  retired: number;
  /** Adopted rows carried to their task's new spec hash (only the optimizer changed). */
  adoptedKept: number;
  campaignHash: string;
}

export interface GroupCounts {
  farmId: number;
  farmType: number;
  total: number;
  done: number;
  failed: number;
  stale: number;
  pending: number;
}

export interface FailureInfo {
  taskId: string;
  attempts: number;
  error: string;
}

export interface RunInfo {
  runId: number;
  pid: number;
  host: string;
  startedAt: number;
  heartbeatAt: number;
  endedAt: number | null;
  endState: string | null;
  workers: number;
  ratePerMin: number;
  running: RunningTask[];
}

export interface RunningTask {
  taskId: string;
  workerPid: number;
  attempt: number;
  startedAt: number;
}

/** A done result's layout with the stored definitions of its farm and farm type (plots). */
export interface DoneLayout
  extends Pick<LayoutRecord, 'taskId' | 'farmId' | 'farmType' | 'seed' | 'aep' | 'x' | 'y' | 'turbineTypes' | 'cableTo' | 'cableType' | 'metrics'> {
  /** The stored farm and farm type definitions (JSON as synced), undefined when absent. */
  farm: unknown;
  type: unknown;
}

/** A stored farm or farm type definition and its hash. */
export interface StoredDefinition {
  definition: unknown;
  hash: string;
}

/** AEP statistics of one farm × type cell's done results (quartiles by the lower nearest rank). */
export interface CellAep {
  farmId: number;
  farmType: number;
  n: number;
  mean: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  best: { taskId: string; aep: number; source: string };
  worst: { taskId: string; aep: number; source: string };
  /** Done results whose source is `adopted:…` and `recovered:…` (the rest were computed by wflo). */
  adopted: number;
  recovered: number;
}

/** The done results' AEPs per cell: statistics, every AEP when few, and a histogram. */
export interface DoneAepSummary {
  cells: CellAep[];
  /** Every done AEP, by cell and AEP, when no cell has more than `pointsUpTo`; else empty. */
  points: { farmId: number; farmType: number; taskId: string; aep: number; source: string }[];
  /** Bins per cell of the histogram. */
  bins: number;
  histogram: { farmId: number; farmType: number; bin: number; count: number }[];
  /**
   * Rows adopted or recovered, or carrying the AEP their source reported: how many, and the first
   * `noted` of them, largest difference between wflo's AEP and the reported one first.
   */
  noted: { total: number; rows: { taskId: string; source: string; aep: number; aepReported: number | null }[] };
}
