/**
 * `--queue URL` / WFLO_QUEUE for `wflo run`: the BullMQ executor when a queue is given (connected
 * and checked, warnings printed through `log`), else undefined (the local pool).
 * WFLO_QUEUE_MAX_QUEUED caps the jobs one run keeps in Redis at once (default 10 000).
 * BullMQ and ioredis are loaded only when a queue is given (a local run never needs them).
 */
import { InputError } from '../../../util/errors.js';
import type { Executor } from '../executor.js';
import { queueUrlFrom } from './queueUrl.js';

export async function queueExecutor(
  option: string | undefined,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Executor | undefined> {
  const given = queueUrlFrom(option, env);
  if (!given) return undefined;
  const maxText = env.WFLO_QUEUE_MAX_QUEUED;
  const maxQueued = maxText !== undefined ? Number(maxText) : undefined;
  if (maxQueued !== undefined && !(Number.isInteger(maxQueued) && maxQueued >= 1))
    throw new InputError(`WFLO_QUEUE_MAX_QUEUED: expected an integer >= 1, got '${maxText}'`);
  const { BullmqExecutor } = await import('./bullmqExecutor.js');
  const ex = await BullmqExecutor.connect(given.url, given.source, { maxQueued });
  for (const w of ex.warnings) log(`wflo: warning: ${w}`);
  return ex;
}
