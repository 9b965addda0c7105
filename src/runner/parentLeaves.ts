/**
 * What a task process (a local pool worker, a queue worker's job process) does when its parent
 * goes away (the IPC channel disconnects): a persistent user program gets a moment to exit by
 * itself, then the process ends, and with it its own process group (the program and anything it
 * left behind) when it leads one.
 */
import { releaseTaskResources } from './taskFunction.js';
import { killGroupNow, OWN_GROUP_ENV } from './processGroup.js';

/** Grace for task resources (a persistent program) before the process ends, ms. */
const GRACE_MS = 1500;

export function exitWhenParentLeaves(): void {
  process.on('disconnect', () => {
    const end = (): void => {
      if (process.env[OWN_GROUP_ENV] === '1') killGroupNow(process.pid);
      process.exit(0);
    };
    setTimeout(end, GRACE_MS).unref();
    void releaseTaskResources().then(end, end);
  });
}
