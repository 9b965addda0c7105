/**
 * The command-task protocol's fixed names and numbers (docs/own-optimizer.md, schemas/*.v1.json):
 * what a user's program finds in its environment, the exit code that means "do not retry", and
 * the limits wflo applies to what a program sends back.
 */

/** Version tags in the documents (a program may check them). */
export const TASK_PROTOCOL = 'wflo-task/1';
export const RESULT_PROTOCOL = 'wflo-result/1';
export const WIND_PROTOCOL = 'wflo-wind/1';

/** Environment of the program. */
export const ENV = {
  /** `wflo-task/1` */
  protocol: 'WFLO_PROTOCOL',
  /** `per-task` or `persistent` */
  mode: 'WFLO_MODE',
  /** per-task: the task document's path */
  task: 'WFLO_TASK',
  /** per-task: where the program writes its result document */
  result: 'WFLO_RESULT',
  /** persistent: descriptor the program reads task lines from */
  tasksFd: 'WFLO_TASKS_FD',
  /** persistent: descriptor the program writes result lines to */
  resultsFd: 'WFLO_RESULTS_FD',
} as const;

/** Persistent mode's descriptors (fixed; also in the environment). */
export const TASKS_FD = 3;
export const RESULTS_FD = 4;

/**
 * Exit code (per-task mode) meaning "this task fails the same way every time, do not retry"
 * (sysexits.h's EX_DATAERR). Persistent programs say `"permanent": true` in an error result.
 */
export const EXIT_PERMANENT_FAILURE = 65;

/** Largest result document read (a bigger one is refused unread and deleted). */
export const MAX_RESULT_BYTES = 16 * 1024 * 1024;
/** Each of stdout and stderr keeps at most this much per attempt: the first half and the last half. */
export const LOG_LIMIT_BYTES = 1024 * 1024;
/** Most named metrics one result may carry. */
export const MAX_METRICS = 64;
