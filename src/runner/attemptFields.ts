/**
 * What names one attempt of one task wherever it travels (the worker's TaskRun, a command task's
 * run, a queue job process's attempt): the farm and farm type definitions, the task and seed, the
 * 1-based attempt number and the per-attempt time limit.
 */
import type { FarmSpec, FarmTypeSpec } from '../campaign/campaign.js';

export interface AttemptFields {
  farm: FarmSpec;
  type: FarmTypeSpec;
  taskId: string;
  seed: number;
  /** 1-based; noop's fault injection and command tasks' attempt folders use it. */
  attempt: number;
  /** The per-attempt limit, seconds (a command program is told its deadline). */
  timeoutS: number;
}
