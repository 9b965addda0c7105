/**
 * Errors that reach the user. Each carries the process exit code and a one-line message;
 * the CLI prints `wflo: <message>` and exits with `exitCode`. Anything else is a bug (exit 1
 * with the stack shown only under WFLO_DEBUG=1).
 *
 * Exit codes (CONTRIBUTING.md "Errors and exit codes"): 0 success, 1 runtime failure, 2 bad input or usage,
 * 3 a check command found problems.
 */
export class WfloError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** Bad input: a file, field or argument the user gave is wrong. Exit code 2. */
export class InputError extends WfloError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** Something failed at run time (I/O, a crashed worker, disk full). Exit code 1. */
export class RuntimeFailure extends WfloError {
  constructor(message: string) {
    super(message, 1);
  }
}

/** A check command ran fine and found problems. Exit code 3. */
export class CheckFailed extends WfloError {
  constructor(message: string) {
    super(message, 3);
  }
}

/**
 * A task failure that will happen again on every attempt (the input cannot be placed, an invalid
 * input reached a worker): the scheduler records the task as failed at once instead of retrying.
 * Reaches the user through the run's failure report; as a command's own error it is bad input.
 */
export class PermanentTaskError extends WfloError {
  readonly permanent = true;
  constructor(message: string) {
    super(message, 2);
  }
}
