/**
 * Multi-start optimization: K seeds over W worker processes (child_process.fork), one seed per
 * message so fast and slow starts balance. Keeps every record; the caller picks the best. A seed
 * whose optimization throws is reported as failed, never as a result. Deterministic per seed, so
 * the best of K starts does not depend on W or on timing.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { OptimizerSettings } from '../optimize/settings.js';
import type { OptimizationRecord } from '../optimize/runOptimization.js';
import { RuntimeFailure } from '../util/errors.js';
import { childEnvironment } from './parentLeaves.js';

export interface MultiStartOptions {
  caseSpec: string;
  /** `--directions` of `wflo optimize`, applied to the case in every worker. */
  directions?: string;
  /** `--objective` of `wflo optimize`, applied to the case in every worker. */
  objective?: string;
  settings: OptimizerSettings;
  seeds: number[];
  workers: number;
  onResult?: (done: number, total: number, record: OptimizationRecord | null, seed: number, error?: string) => void;
}

export interface MultiStartOutcome {
  records: OptimizationRecord[];
  failures: { seed: number; error: string }[];
}

const WORKER = fileURLToPath(new URL('./multiStartWorker.js', import.meta.url));

export function runMultiStart(opts: MultiStartOptions): Promise<MultiStartOutcome> {
  const queue = [...opts.seeds];
  const total = queue.length;
  const records: OptimizationRecord[] = [];
  const failures: { seed: number; error: string }[] = [];
  const children: ChildProcess[] = [];
  let done = 0;
  return new Promise((resolve, reject) => {
    let finished = false;
    const stopAll = () => {
      for (const c of children) c.kill('SIGKILL');
    };
    const onSigint = () => {
      stopAll();
      finish(new RuntimeFailure(`interrupted after ${done} of ${total} starts`));
    };
    const finish = (err?: Error) => {
      if (finished) return;
      finished = true;
      process.off('SIGINT', onSigint);
      for (const c of children) if (c.connected) c.disconnect();
      if (err) reject(err);
      else resolve({ records, failures });
    };
    process.on('SIGINT', onSigint);
    const feed = (child: ChildProcess) => {
      const seed = queue.shift();
      if (seed === undefined) {
        if (child.connected) child.disconnect();
        return;
      }
      child.send({ caseSpec: opts.caseSpec, directions: opts.directions, objective: opts.objective, settings: opts.settings, seed });
    };
    const nWorkers = Math.max(1, Math.min(opts.workers, total));
    for (let w = 0; w < nWorkers; w++) {
      const child = fork(WORKER, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: childEnvironment() });
      children.push(child);
      child.on('message', (msg: { ok: boolean; seed: number; record?: OptimizationRecord; error?: string }) => {
        done++;
        if (msg.ok) records.push(msg.record!);
        else failures.push({ seed: msg.seed, error: msg.error! });
        opts.onResult?.(done, total, msg.record ?? null, msg.seed, msg.error);
        if (done === total) finish();
        else feed(child);
      });
      child.on('exit', (code, signal) => {
        if (!finished && done < total && (code !== 0 || signal)) {
          stopAll();
          finish(new RuntimeFailure(`an optimization worker died (${signal ?? `exit ${code}`}) after ${done} of ${total} starts`));
        }
      });
      feed(child);
    }
  });
}
