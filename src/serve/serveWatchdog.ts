/**
 * The watchdog thread of `wflo serve --stdio` (started by stdioServer.ts through watchdogLink.ts;
 * compiled to dist/src/serve/serveWatchdog.js). It runs beside the main thread because one
 * synchronous call (an `optimize`, an AEP of a large farm) holds the main thread's event loop for
 * seconds to minutes, and a dead client or a closed stdin was seen only when the call was done
 * (2.7–15.8 s after a SIGKILL of Python).
 *
 * Every POLL_MS it looks at:
 * - the parent pid: the client process that started the server died (its children go to init or
 *   a subreaper, so the pid changes; this also covers a client whose stdin pipe lives on in
 *   another process, a fork). A main thread in a call is ended at once (SIGKILL of the process:
 *   nobody will read the answer); an idle one is told ('client-gone') and gets `answerMs`.
 * - the end of stdin, when stdin is a pipe or a socket: the main thread reports it when it is
 *   free; during a call longer than STEAL_AFTER_MS this thread reads stdin itself (non-blocking,
 *   under a lock the main thread takes after each call, into a shared buffer the main thread then
 *   takes in order before reading on), so it sees the end while the call runs. A call that is
 *   still computing `answerMs` after the end (or that started after it and has computed that
 *   long) is abandoned: SIGKILL of the process.
 * The main thread's hot path costs two atomic stores and one uncontended compare-exchange per
 * call; this thread never sits between a request and its answer.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { SLOT, type WatchdogData } from './watchdogLink.js';

const POLL_MS = 50;
/** How long a call runs before this thread starts reading stdin for its end, ms. */
const STEAL_AFTER_MS = 100;
const O_NONBLOCK = 0o4000;

/** Whether fd 0 is non-blocking (a read then never waits; the main thread's stream made it so). */
function nonBlocking(): boolean {
  try {
    const m = /^flags:\s*([0-7]+)/m.exec(fs.readFileSync('/proc/self/fdinfo/0', 'utf8'));
    return m !== null && (parseInt(m[1], 8) & O_NONBLOCK) !== 0;
  } catch {
    return false;
  }
}

const data = workerData as WatchdogData;
const slots = new Int32Array(data.slots);
const stolen = new Uint8Array(data.stolen);
const killNow = (): void => {
  process.kill(process.pid, 'SIGKILL');
};

let goneAt: number | null = null;
let endedAt: number | null = null;
let call = 0,
  callSince = 0;
let mayRead: boolean | null = null; // decided at the first long call

/** Read what stdin holds now into the shared buffer (under the lock, only while the main thread is in `current`). */
function steal(current: number): void {
  if (Atomics.compareExchange(slots, SLOT.lock, 0, 1) !== 0) return;
  try {
    if (Atomics.load(slots, SLOT.call) !== current || Atomics.load(slots, SLOT.stealable) !== 1) return;
    for (;;) {
      const have = Atomics.load(slots, SLOT.stolen);
      if (have >= stolen.length) return; // full: the end is seen when the main thread reads again
      let n: number;
      try {
        n = fs.readSync(0, stolen, have, stolen.length - have, null);
      } catch {
        return; // EAGAIN: nothing now
      }
      if (n === 0) {
        Atomics.store(slots, SLOT.ended, 1);
        return;
      }
      Atomics.store(slots, SLOT.stolen, have + n);
    }
  } finally {
    Atomics.store(slots, SLOT.lock, 0);
    Atomics.notify(slots, SLOT.lock);
  }
}

setInterval(() => {
  const now = Date.now();
  const current = Atomics.load(slots, SLOT.call);
  if (goneAt === null && process.ppid !== data.parentPid) {
    if (current !== 0) killNow();
    goneAt = now;
    parentPort!.postMessage('client-gone');
  }
  if (goneAt !== null && now - goneAt >= data.answerMs) killNow();
  if (current === 0) {
    call = 0;
    return;
  }
  if (current !== call) {
    call = current;
    callSince = now;
  }
  if (data.pipe && endedAt === null && now - callSince >= STEAL_AFTER_MS) {
    mayRead ??= nonBlocking();
    if (mayRead) steal(current);
  }
  if (endedAt === null && Atomics.load(slots, SLOT.ended) === 1) endedAt = now;
  if (endedAt !== null && now - Math.max(callSince, endedAt) >= data.answerMs) killNow();
}, POLL_MS);
