/**
 * Entry of a gate verification thread (verifyThreads.ts): verifies one layout at a time with the
 * campaign's RecordVerifier and posts the verdict back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RecordVerifier, type AepCheck, type RecordAllowance, type RecordToVerify } from '../../campaign/verifyRecord.js';
import type { Task } from '../../campaign/taskGrid.js';

const verifier = new RecordVerifier(workerData as ConstructorParameters<typeof RecordVerifier>[0]);

parentPort!.on('message', (m: { id: number; task: Task; record: RecordToVerify; check: AepCheck; allowance?: RecordAllowance }) => {
  try {
    parentPort!.postMessage({ id: m.id, verdict: verifier.verify(m.task, m.record, m.check, m.allowance) });
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: (err as Error).message });
  }
});
