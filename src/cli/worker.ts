/** `wflo worker --queue URL [--concurrency N]`: run queued campaign tasks; see src/runner/executors/bullmq/workerLoop.ts. */
import os from 'node:os';
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run tasks from a Redis queue (for `wflo run --queue`), on this or any machine that reaches Redis')
    .option('--queue <url>', 'redis://[user:pass@]HOST:PORT[/DB] or rediss://… (default: $WFLO_QUEUE)')
    .option('--concurrency <n>', 'tasks run at once, each in its own process (default: one per core)')
    .action(async (opts: { queue?: string; concurrency?: string }) => {
      const { queueUrlFrom, parseQueueUrl } = await import('../runner/executors/bullmq/queueUrl.js');
      const { runWorkerLoop } = await import('../runner/executors/bullmq/workerLoop.js');
      const { abortOnInterrupt } = await import('../runner/interrupts.js');
      const given = queueUrlFrom(opts.queue);
      if (!given) throw new InputError('--queue: missing (give --queue redis://HOST:PORT or set WFLO_QUEUE)');
      const address = parseQueueUrl(given.url, given.source);
      let concurrency = os.availableParallelism();
      if (opts.concurrency !== undefined) {
        concurrency = Number(opts.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) throw new InputError(`--concurrency: expected an integer from 1 to 1024, got '${opts.concurrency}'`);
      }
      const lockText = process.env.WFLO_QUEUE_LOCK_MS;
      const lockMs = lockText !== undefined ? Number(lockText) : undefined;
      if (lockMs !== undefined && !(Number.isInteger(lockMs) && lockMs >= 200)) throw new InputError(`WFLO_QUEUE_LOCK_MS: expected an integer >= 200 (ms), got '${lockText}'`);
      const interrupt = abortOnInterrupt();
      try {
        const s = await runWorkerLoop({ address, concurrency, lockMs, log: (line) => process.stderr.write(`${line}\n`), signal: interrupt.signal });
        process.stderr.write(`wflo worker: stopped after ${s.done} tasks done, ${s.failed} failed\n`);
      } finally {
        interrupt.dispose();
      }
    });
}
