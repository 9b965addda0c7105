/**
 * Messages between the coordinator and its worker processes (Node IPC with 'advanced'
 * serialization, so typed arrays cross unchanged). The coordinator sends the campaign's farms,
 * farm types and optimizer settings once, then task references; a worker answers each task with
 * a result or an error, in the order it received them.
 */
import type { FarmSpec, FarmTypeSpec, OptimizerSettings } from '../../../campaign/campaign.js';
import type { TaskOutput } from '../../taskOutput.js';

export interface SetupMessage {
  kind: 'setup';
  farms: FarmSpec[];
  farmTypes: FarmTypeSpec[];
  optimizer: OptimizerSettings;
  /** Per-attempt limit, seconds (a command task's program is told its deadline). */
  timeoutS: number;
  /** Where command tasks keep their attempt folders, or null. */
  taskDir: string | null;
}

export interface TaskMessage {
  kind: 'task';
  taskId: string;
  farmIndex: number;
  typeIndex: number;
  seed: number;
  /** 1-based attempt number. */
  attempt: number;
}

export type ToWorker = SetupMessage | TaskMessage;

export interface ReadyMessage {
  kind: 'ready';
}

export interface ResultMessage {
  kind: 'result';
  taskId: string;
  output: TaskOutput;
  wallS: number;
}

export interface ErrorMessage {
  kind: 'error';
  taskId: string;
  message: string;
  wallS: number;
  /** Retrying cannot help (invalid input reaching the worker, turbines that cannot be placed). */
  permanent?: boolean;
}

export type FromWorker = ReadyMessage | ResultMessage | ErrorMessage;
