/**
 * The scheduler's lifecycle transitions (runner/schedulerPhase.ts): the stop precedence the
 * runner promises (CONTRIBUTING.md, "The runner's seam": a fatal stop is never replaced, an
 * interrupt beats max_failures, a stop during finish() still counts) and what each transition
 * keeps. The runs themselves are tested end to end in run.test.ts, chaos.test.ts, queueDoor.test.ts.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  STARTING,
  afterExecutorStarted,
  afterExecutorStopped,
  afterFinish,
  afterStop,
  executorStartedIn,
  executorStoppedIn,
  mayFinish,
  stopModeOf,
  stopOf,
  type SchedulerPhase,
} from '../../src/runner/schedulerPhase.js';

test('starting → running → finished: no stop, the executor counts as started once start() settled', () => {
  assert.equal(executorStartedIn(STARTING), false);
  assert.equal(mayFinish(STARTING), false);
  const running = afterExecutorStarted(STARTING);
  assert.equal(running.kind, 'running');
  assert.equal(executorStartedIn(running), true);
  assert.equal(mayFinish(running), true);
  const finished = afterFinish(running);
  assert.deepEqual(finished, { kind: 'finished', stop: null });
  assert.equal(mayFinish(finished), false);
  assert.equal(stopModeOf(finished), null);
});

test('a stop before the executor started waits for the start before the run may finish', () => {
  const stopping = afterStop(STARTING, 'interrupted')!;
  assert.equal(stopping.kind, 'stopping');
  assert.equal(executorStartedIn(stopping), false);
  assert.equal(mayFinish(stopping), false);
  const started = afterExecutorStarted(stopping);
  assert.equal(stopModeOf(started), 'interrupted');
  assert.equal(mayFinish(started), true);
});

test('precedence: fatal is never replaced, interrupted beats max_failures, the same mode twice is ignored', () => {
  const running: SchedulerPhase = { kind: 'running' };
  const maxF = afterStop(running, 'max_failures')!;
  assert.equal(afterStop(maxF, 'max_failures'), null);
  const interrupted = afterStop(maxF, 'interrupted')!;
  assert.equal(stopModeOf(interrupted), 'interrupted');
  assert.equal(afterStop(interrupted, 'max_failures'), null);
  assert.equal(afterStop(interrupted, 'interrupted'), null);
  const err = new Error('ledger deleted');
  const fatal = afterStop(interrupted, 'fatal', err)!;
  assert.equal(stopOf(fatal)!.error, err);
  for (const mode of ['max_failures', 'interrupted', 'fatal'] as const) assert.equal(afterStop(fatal, mode, new Error('later')), null);
});

test('executor stopped: kept across a later stop, and a stop during finish() changes the finished phase', () => {
  const interrupted = afterStop({ kind: 'running' }, 'interrupted')!;
  assert.equal(executorStoppedIn(interrupted), false);
  const stopped = afterExecutorStopped(interrupted);
  assert.equal(executorStoppedIn(stopped), true);
  assert.equal(executorStoppedIn(afterStop(stopped, 'fatal', new Error('x'))!), true);
  const finished = afterFinish(afterExecutorStarted(STARTING));
  const late = afterStop(finished, 'interrupted')!;
  assert.equal(late.kind, 'finished');
  assert.equal(stopModeOf(late), 'interrupted');
  assert.equal(mayFinish(late), false);
});
