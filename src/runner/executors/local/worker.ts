/**
 * Worker process entry (forked by the local pool; compiled to dist/src/runner/executors/local/worker.js).
 * Runs tasks one at a time, in the order received, and reports each result or error. It holds
 * no state that matters: killing it loses only the task it is running. It exits when the
 * coordinator goes away (parentLeaves.ts: within a second, even in the middle of a synchronous
 * optimization) and ignores SIGINT, so a terminal's Ctrl-C reaches
 * the coordinator, which then stops the workers itself. It leads its own process group (the
 * pool starts it detached): what it starts (a command task's program) is in that group, and
 * going away it ends the group, so a coordinator killed with SIGKILL leaves no program behind.
 */
import { caseForTask } from '../../../campaign/caseForTask.js';
import type { Case } from '../../../case/case.js';
import { releaseTaskResources, runTask } from '../../taskFunction.js';
import { exitWhenParentLeaves } from '../../parentLeaves.js';
import type { FromWorker, SetupMessage, TaskMessage, ToWorker } from './workerProtocol.js';

/** Errors that will repeat on every attempt say so (`permanent: true`, e.g. PermanentTaskError, InputError). */
function isPermanent(err: unknown): boolean {
  return err instanceof Error && ((err as { permanent?: unknown }).permanent === true || err.name === 'InputError');
}

if (!process.send) {
  process.stderr.write('wflo worker: must be started by the runner (no IPC channel)\n');
  process.exit(2);
}

process.on('SIGINT', () => {
  /* the coordinator decides */
});
exitWhenParentLeaves(releaseTaskResources);

let setup: SetupMessage | null = null;
const cases = new Map<string, Case>();
const queue: TaskMessage[] = [];
let busy = false;

/**
 * Send to the coordinator; resolves once the message is written to the channel. A task's answer is
 * awaited before the next task starts: a task that kills this process at once (SIGKILL, an abort)
 * can then not take the previous task's unsent answer with it (the coordinator would charge the
 * crash to the task whose answer was lost).
 */
function send(msg: FromWorker): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected) {
      resolve();
      return;
    }
    process.send!(msg, undefined, undefined, () => resolve());
  });
}

function caseOf(t: TaskMessage): Case {
  const key = `${t.farmIndex}/${t.typeIndex}`;
  let c = cases.get(key);
  if (!c) {
    c = caseForTask(setup!.farms[t.farmIndex], setup!.farmTypes[t.typeIndex]);
    cases.set(key, c);
  }
  return c;
}

async function drain(): Promise<void> {
  if (busy) return;
  busy = true;
  while (queue.length > 0) {
    const t = queue.shift()!;
    const start = performance.now();
    try {
      const c = caseOf(t);
      const output = await runTask({
        case: c,
        settings: setup!.optimizer,
        farm: setup!.farms[t.farmIndex],
        type: setup!.farmTypes[t.typeIndex],
        taskId: t.taskId,
        seed: t.seed,
        attempt: t.attempt,
        timeoutS: setup!.timeoutS,
        taskDir: setup!.taskDir,
      });
      await send({ kind: 'result', taskId: t.taskId, output, wallS: (performance.now() - start) / 1000 });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await send({
        kind: 'error',
        taskId: t.taskId,
        message: message.split('\n')[0] || 'error without a message',
        wallS: (performance.now() - start) / 1000,
        permanent: isPermanent(err),
      });
    }
  }
  busy = false;
}

process.on('message', (msg: ToWorker) => {
  if (msg.kind === 'setup') {
    setup = msg;
    cases.clear();
    void send({ kind: 'ready' });
  } else if (msg.kind === 'task') {
    queue.push(msg);
    void drain();
  }
});
