/**
 * The watchdog thread of a process that must not outlive its parent (runner/parentLeaves.ts;
 * compiled to dist/src/runner/parentWatchdog.js). It runs on a thread of its own, so it keeps
 * looking while the main thread computes (a synchronous optimization holds the main thread's
 * event loop for minutes, and the IPC channel's 'disconnect' waits for it).
 *
 * Every POLL_MS it compares the parent pid with the one the process started under: a parent
 * that died leaves its children to init (or a subreaper), so the pid changes. Then it asks the
 * main thread to leave ('parent-gone'); a main thread that does not answer within `answerMs` is
 * busy, and the watchdog SIGKILLs the process's group (when it leads one: the command task's
 * program goes too) or the process. A main thread that answers ('leaving') is given `backstopMs`
 * to finish; the same backstop covers a leave the main thread began by itself ('disconnect').
 */
import { parentPort, workerData } from 'node:worker_threads';

export interface WatchdogData {
  /** The parent pid the process started under. */
  parentPid: number;
  /** Whether the process leads its own process group (ending it ends what it started). */
  ownGroup: boolean;
  /** How long a busy main thread gets to answer 'parent-gone', ms. */
  answerMs: number;
  /** How long a leave the main thread began may take before the watchdog ends it, ms. */
  backstopMs: number;
}

const POLL_MS = 100;

const data = workerData as WatchdogData;
/** When the watchdog kills, ms since the epoch (null: not due). */
let deadline: number | null = null;
let leaving = false;

function killNow(): void {
  // The group first (this process is in it too), then the process, in case it leads none.
  if (data.ownGroup) {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      /* no such group */
    }
  }
  process.kill(process.pid, 'SIGKILL');
}

parentPort!.on('message', (m: unknown) => {
  if (m === 'leaving' && !leaving) {
    leaving = true;
    deadline = Date.now() + data.backstopMs;
  }
});

setInterval(() => {
  if (deadline === null && process.ppid !== data.parentPid) {
    parentPort!.postMessage('parent-gone');
    deadline = Date.now() + data.answerMs;
  }
  if (deadline !== null && Date.now() >= deadline) killNow();
}, POLL_MS);
