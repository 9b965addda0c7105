/**
 * Ending a process group: what the executors do to an attempt they give up on (timeout, stop).
 * Worker and job processes are started as leaders of their own process group (detached), and
 * whatever they start (a command task's program and its children) stays in that group, so one
 * signal to the group reaches them all: SIGTERM first (a program may clean up), SIGKILL to
 * whatever is left after the grace period (a grandchild that ignores SIGTERM). The kill runs in
 * the background; `settleGroupKills()` waits for every one still under way, so a coordinator or
 * worker does not exit before the SIGKILL is sent (it would leave the ignorer behind).
 *
 * A process that makes itself a new session or group (setsid, a daemonizing fork) leaves the
 * group and is out of reach; docs/own-optimizer.md says so.
 */

/** Set (to '1') in the environment of a process started as its group's leader: it may end its group. */
export const OWN_GROUP_ENV = 'WFLO_OWN_PROCESS_GROUP';

/** How long a group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

const pending = new Set<Promise<void>>();

/** Whether any process of group `pgid` exists (zombies count until reaped). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* gone */
  }
}

/**
 * SIGTERM the group `pgid` now, SIGKILL it after `graceMs` if anything is left; resolves when the
 * group is gone (or shortly after the SIGKILL). Never throws.
 */
export function terminateGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  if (!(pgid > 1)) return Promise.resolve();
  signalGroup(pgid, 'SIGTERM');
  const done = new Promise<void>((resolve) => {
    const started = Date.now();
    let killed = false;
    const poll = (): void => {
      if (!groupAlive(pgid)) {
        resolve();
        return;
      }
      const elapsed = Date.now() - started;
      if (!killed && elapsed >= graceMs) {
        killed = true;
        signalGroup(pgid, 'SIGKILL');
      }
      // Zombies waiting for a parent that never reaps them keep the group "alive": stop looking.
      if (killed && elapsed >= graceMs + 2000) {
        resolve();
        return;
      }
      setTimeout(poll, elapsed < 200 ? 10 : 50);
    };
    poll();
  });
  pending.add(done);
  void done.then(() => pending.delete(done));
  return done;
}

/** SIGKILL the group `pgid` at once (the caller is going away and cannot wait). */
export function killGroupNow(pgid: number): void {
  if (pgid > 1) signalGroup(pgid, 'SIGKILL');
}

/** Wait for every terminateGroup still under way. */
export async function settleGroupKills(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
