/**
 * Messages between `wflo worker` and its job processes (Node IPC with 'advanced' serialization,
 * so the decoded farm's typed arrays cross unchanged). One attempt at a time per process.
 */
import type { OptimizerSettings } from '../../../campaign/campaign.js';
import type { AttemptFields } from '../../attemptFields.js';
import type { TaskOutput } from '../../taskOutput.js';

/** One attempt as the worker hands it to a job process (and the pool queues it). */
export interface JobAttempt extends AttemptFields {
  optimizer: OptimizerSettings;
  /** Command tasks: the worker's --task-dir and --workdir. */
  taskDir: string | null;
  workdir?: string;
}

export interface RunMessage extends JobAttempt {
  kind: 'run';
  /** Worker-local sequence number, echoed back. */
  id: number;
}

export type ToJobChild = RunMessage;

export type FromJobChild =
  | { kind: 'ready' }
  | { kind: 'result'; id: number; output: TaskOutput; wallS: number }
  | { kind: 'error'; id: number; message: string; wallS: number; permanent?: boolean };
