/**
 * Entry of a job process (compiled to dist/src/runner/executors/bullmq/jobChild.js): forked by
 * `wflo worker`, it runs the attempts it is sent, one at a time, and answers each with a result
 * or an error. Isolation is the point: an optimizer that crashes, runs out of memory or hangs
 * takes down only this process (the worker kills it on timeout and starts another); the worker's
 * connection to Redis and its other jobs are untouched. Holds no state that matters (a small
 * cache of prepared cases). Exits when its worker goes away; ignores SIGINT (the worker decides).
 * It leads its own process group: a command task's program runs in it and goes with it.
 */
import { caseForTask } from '../../../campaign/caseForTask.js';
import type { Case } from '../../../case/case.js';
import { optimizerSettingsProblem, releaseTaskResources, runTask } from '../../taskFunction.js';
import type { FromJobChild, ToJobChild } from './jobChildProtocol.js';
import { exitWhenParentLeaves } from '../../parentLeaves.js';

const CASE_CACHE = 16;

if (!process.send) {
  process.stderr.write('wflo job process: must be started by `wflo worker` (no IPC channel)\n');
  process.exit(2);
}
process.on('SIGINT', () => {
  /* the worker decides */
});
exitWhenParentLeaves(releaseTaskResources);

const cases = new Map<string, Case>();

function send(msg: FromJobChild): void {
  if (process.connected) process.send!(msg);
}

function isPermanent(err: unknown): boolean {
  return err instanceof Error && ((err as { permanent?: unknown }).permanent === true || err.name === 'InputError');
}

process.on('message', (msg: ToJobChild) => {
  void run(msg);
});

async function run(msg: ToJobChild): Promise<void> {
  if (msg.kind !== 'run') return;
  const start = performance.now();
  const wallS = (): number => (performance.now() - start) / 1000;
  try {
    const settingsProblem = optimizerSettingsProblem(msg.optimizer);
    if (settingsProblem) {
      send({ kind: 'error', id: msg.id, message: `optimizer.${settingsProblem.field}: ${settingsProblem.message}`, wallS: wallS(), permanent: true });
      return;
    }
    const key = `${msg.farm.hash}/${msg.type.hash}`;
    let c = cases.get(key);
    if (!c) {
      c = caseForTask(msg.farm, msg.type);
      if (cases.size >= CASE_CACHE) cases.delete(cases.keys().next().value!);
      cases.set(key, c);
    }
    const output = await runTask({
      case: c,
      settings: msg.optimizer,
      farm: msg.farm,
      type: msg.type,
      taskId: msg.taskId,
      seed: msg.seed,
      attempt: msg.attempt,
      timeoutS: msg.timeoutS,
      taskDir: msg.taskDir,
      ...(msg.workdir !== undefined ? { workdir: msg.workdir } : {}),
    });
    send({ kind: 'result', id: msg.id, output, wallS: wallS() });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    send({ kind: 'error', id: msg.id, message: message.split('\n')[0] || 'error without a message', wallS: wallS(), permanent: isPermanent(err) });
  }
}
send({ kind: 'ready' });
