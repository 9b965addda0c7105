/**
 * `wflo worker --queue URL [--concurrency N] [--allow-command 'PROGRAM ARGS…'…] [--workdir DIR]
 * [--task-dir DIR]`: run queued campaign tasks; see src/runner/executors/bullmq/workerLoop.ts and,
 * for command tasks, src/runner/command/commandAllowance.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run tasks from a Redis queue (for `wflo run --queue`), on this or any machine that reaches Redis')
    .option('--queue <url>', 'redis://[user:pass@]HOST:PORT[/DB] or rediss://… (default: $WFLO_QUEUE)')
    .option('--concurrency <n>', 'tasks run at once, each in its own process (default: one per core)')
    .option(
      '--allow-command <argv>',
      "run command tasks whose `run` begins with these arguments, e.g. 'python3 opt.py' (repeatable; without it, command tasks are refused)",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--workdir <dir>', "this machine's copy of the command tasks' working directory: `run` and `inputs` resolve there (default: the current directory)")
    .option('--task-dir <dir>', 'where command tasks keep their attempt folders and logs (default: ./wflo-tasks)')
    .action(async (opts: { queue?: string; concurrency?: string; allowCommand: string[]; workdir?: string; taskDir?: string }) => {
      const { queueUrlFrom, parseQueueUrl } = await import('../runner/executors/bullmq/queueUrl.js');
      const { runWorkerLoop } = await import('../runner/executors/bullmq/workerLoop.js');
      const { abortOnInterrupt } = await import('../runner/interrupts.js');
      const given = queueUrlFrom(opts.queue);
      if (!given) throw new InputError('--queue: missing (give --queue redis://HOST:PORT or set WFLO_QUEUE)');
      const address = parseQueueUrl(given.url, given.source);
      let concurrency = os.availableParallelism();
      if (opts.concurrency !== undefined) {
        concurrency = Number(opts.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024)
          throw new InputError(`--concurrency: expected an integer from 1 to 1024, got '${opts.concurrency}'`);
      }
      const lockText = process.env.WFLO_QUEUE_LOCK_MS;
      const lockMs = lockText !== undefined ? Number(lockText) : undefined;
      if (lockMs !== undefined && !(Number.isInteger(lockMs) && lockMs >= 200))
        throw new InputError(`WFLO_QUEUE_LOCK_MS: expected an integer >= 200 (ms), got '${lockText}'`);
      const { parseAllowedCommand } = await import('../runner/command/commandAllowance.js');
      const allowed = opts.allowCommand.map((text) => {
        const argv = parseAllowedCommand(text);
        if (argv.length === 0) throw new InputError(`--allow-command: expected a program and optionally its first arguments, got '${text}'`);
        return argv;
      });
      const workdir = path.resolve(opts.workdir ?? '.');
      if (!fs.statSync(workdir, { throwIfNoEntry: false })?.isDirectory()) throw new InputError(`--workdir: ${workdir} is not a folder`);
      const commands = allowed.length > 0 ? { allowed, workdir } : null;
      const interrupt = abortOnInterrupt();
      try {
        const s = await runWorkerLoop({
          address,
          concurrency,
          lockMs,
          log: (line) => process.stderr.write(`${line}\n`),
          signal: interrupt.signal,
          commands,
          ...(opts.taskDir !== undefined ? { taskDir: opts.taskDir } : {}),
        });
        process.stderr.write(`wflo worker: stopped after ${s.done} tasks done, ${s.failed} failed\n`);
      } finally {
        interrupt.dispose();
      }
    });
}
