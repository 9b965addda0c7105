/**
 * Worker threads that run the gate's costly recomputations (a 100-turbine waked AEP over a
 * 360 × 23 rose takes a few hundred milliseconds), so the coordinator's event loop keeps
 * dispatching and committing meanwhile. Each thread holds its own RecordVerifier for the
 * campaign's farms and farm types (built once, evaluators cached per farm × type); a request is
 * one task and one layout, the answer the verifier's verdict. Requests are spread round-robin;
 * the verdict is the same as on the main thread (same code, same inputs).
 */
import { Worker } from 'node:worker_threads';
import type { Campaign } from '../../campaign/campaign.js';
import type { Task } from '../../campaign/taskGrid.js';
import type { AepCheck, RecordAllowance, RecordToVerify, Verdict } from '../../campaign/verifyRecord.js';

interface Reply {
  id: number;
  verdict?: Verdict;
  error?: string;
}

export class VerifyThreads {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (v: Verdict) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private turn = 0;

  constructor(campaign: Pick<Campaign, 'farms' | 'farmTypes'>, count: number) {
    for (let i = 0; i < Math.max(1, count); i++) {
      const w = new Worker(new URL('./verifyThreadWorker.js', import.meta.url), { workerData: { farms: campaign.farms, farmTypes: campaign.farmTypes } });
      w.on('message', (r: Reply) => this.settle(r));
      w.on('error', (err) => this.failAll(err));
      // An idle verification thread never keeps the process alive.
      w.unref();
      this.workers.push(w);
    }
  }

  verify(task: Task, record: RecordToVerify, check: AepCheck, allowance?: RecordAllowance): Promise<Verdict> {
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.workers.length]!;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({
        id,
        task,
        record: {
          x: record.x,
          y: record.y,
          aep: record.aep,
          turbineTypes: record.turbineTypes,
          xInitial: record.xInitial,
          yInitial: record.yInitial,
          aepInitial: record.aepInitial,
          cableTo: record.cableTo,
        },
        check,
        allowance,
      });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.failAll(new Error('verification threads closed'));
  }

  private settle(r: Reply): void {
    const w = this.waiting.get(r.id);
    if (!w) return;
    this.waiting.delete(r.id);
    if (r.verdict) w.resolve(r.verdict);
    else w.reject(new Error(r.error ?? 'verification thread failed'));
  }

  private failAll(err: Error): void {
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
