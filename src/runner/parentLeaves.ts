/**
 * No process outlives its owner: what a process forked by another wflo process (a local pool
 * worker, a queue worker's job process, the run's exporter, a multi-start worker) does when its
 * parent goes away, by a SIGKILL, a crash or a normal end. It ends within about a second, and
 * with it its own process group when it leads one (a command task's program and whatever that
 * started).
 *
 * Two ways to notice. The IPC channel's 'disconnect' comes at once, but only when the event loop
 * turns; a synchronous optimization holds the main thread for minutes (workers of a SIGKILLed
 * coordinator computed on for 150 s). So a watchdog thread (parentWatchdog.ts) also watches the
 * parent pid and, when the main thread is too busy to answer, SIGKILLs the group itself.
 *
 * Leaving: what the process holds between tasks (a command task's persistent program) gets
 * RELEASE_MS to end by itself (its input is closed), then the group is killed and the process
 * exits; the watchdog ends whatever is left BACKSTOP_MS after the leave began.
 */
import { Worker } from 'node:worker_threads';
import { killGroupNow, OWN_GROUP_ENV } from './processGroup.js';
import type { WatchdogData } from './parentWatchdog.js';

/** Set in a forked child's environment: its parent's pid (the child may have started after the parent died). */
export const PARENT_PID_ENV = 'WFLO_PARENT_PID';

/** The environment of a child that calls exitWhenParentLeaves: this process's, `extra`, and its pid as the parent's. */
export function childEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, [PARENT_PID_ENV]: String(process.pid) };
}

/** How long task resources get to end by themselves (a persistent program told to exit), ms. */
const RELEASE_MS = 500;
/** When the process exits after a leave began, whatever the release still waits for, ms. */
const EXIT_MS = 700;
/** When the watchdog ends a leave that has not finished, ms. */
const BACKSTOP_MS = 900;
/** How long a main thread gets to answer the watchdog before it is taken as busy, ms. */
const ANSWER_MS = 300;

/**
 * Exit when the parent goes away. `release(graceMs)`: let go of task resources first (resolves
 * when done; never relied on to resolve).
 */
export function exitWhenParentLeaves(release: (graceMs: number) => Promise<void> = async () => {}): void {
  const ownGroup = process.env[OWN_GROUP_ENV] === '1';
  let leaving = false;
  let watchdog: Worker | null = null;
  const leave = (): void => {
    if (leaving) return;
    leaving = true;
    watchdog?.postMessage('leaving');
    const end = (): void => {
      if (ownGroup) killGroupNow(process.pid);
      process.exit(0);
    };
    setTimeout(end, EXIT_MS).unref();
    void release(RELEASE_MS).then(end, end);
  };
  process.on('disconnect', leave);
  // The parent's pid as the parent said it (a parent that died while this process was loading is
  // noticed too), else the parent now.
  const said = Number(process.env[PARENT_PID_ENV]);
  const data: WatchdogData = { parentPid: Number.isInteger(said) && said > 1 ? said : process.ppid, ownGroup, answerMs: ANSWER_MS, backstopMs: BACKSTOP_MS };
  watchdog = new Worker(new URL('./parentWatchdog.js', import.meta.url), {
    workerData: data,
    // A few MB are all it needs; it never holds data.
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
  });
  watchdog.on('message', (m: unknown) => {
    if (m === 'parent-gone') leave();
  });
  // A watchdog that fails to start leaves the 'disconnect' path, as before it existed.
  watchdog.on('error', () => {
    watchdog = null;
  });
  watchdog.unref();
}
