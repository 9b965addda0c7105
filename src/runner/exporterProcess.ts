/**
 * Exporter process entry (compiled to dist/src/runner/exporterProcess.js). `wflo run` keeps one
 * of these alive and asks it to refresh layouts.h5, so the coordinator's event loop never blocks
 * on HDF5 work and never loads h5wasm, and h5wasm is loaded (and warmed up) once per run.
 * Request: {dir}. Reply: {ok: true, report} or {ok: false, message, damagedLedger}. After a failed export the
 * coordinator replaces this process (a failed HDF5 call can leave h5wasm unusable, issue #46).
 * Exits when the coordinator goes away (parentLeaves.ts, also in the middle of an export); a
 * half-written temp file is removed by the next writer.
 */
import { WfloError } from '../util/errors.js';
import { exitWhenParentLeaves } from './parentLeaves.js';
import { DamagedLedger } from './ledgerDamage.js';

process.on('SIGINT', () => {
  /* the coordinator decides */
});
exitWhenParentLeaves();
// Loaded after the watchdog runs: loading HDF5 takes the main thread for a while.
const exporter = import('./exporter.js');

let queue = Promise.resolve();

process.on('message', (msg: { dir: string }) => {
  queue = queue.then(async () => {
    let reply: unknown;
    try {
      reply = { ok: true, report: await (await exporter).exportLedger(msg.dir, undefined, { source: 'wflo run' }) };
    } catch (err) {
      const message = err instanceof WfloError ? err.message : `unexpected export error: ${(err as Error).message ?? String(err)}`;
      reply = { ok: false, message, ...(err instanceof DamagedLedger ? { damagedLedger: err.why } : {}) };
    }
    if (process.connected) process.send!(reply);
  });
});
