/** Rows for ledger tests: a feasible layout of a task's farm, as a candidate and through the gate. */
import assert from 'node:assert/strict';
import type { Campaign } from '../../src/campaign/campaign.js';
import type { Task } from '../../src/campaign/taskGrid.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import { randomInitialLayout } from '../../src/runner/noopOptimizer.js';
import { RowGate, type VerifiedRow } from '../../src/runner/gate/rowGate.js';
import type { ResultRow } from '../../src/runner/resultRow.js';

/** A plain candidate row for task t: a feasible layout of the task's farm (the layout seed is `value`). */
export function candidateFor(c: Campaign, t: Task, value: number): ResultRow {
  const { x, y } = randomInitialLayout(caseForTask(c.farms[t.farmIndex], c.farmTypes[t.typeIndex]), value);
  return {
    taskId: t.taskId,
    specHash: t.specHash,
    farmId: t.farmId,
    farmType: t.farmType,
    seed: t.seed,
    nTurbines: x.length,
    aep: 1000 + value,
    aepInitial: 900 + value,
    x,
    y,
    xInitial: x.slice(),
    yInitial: y.slice(),
    iterations: 3,
    evaluations: 7,
    wallS: 0.01,
    attempts: 1,
  };
}

/** The same row through the gate (noop campaigns: geometry only, so the AEP may be any number). */
export function resultFor(c: Campaign, t: Task, value: number): VerifiedRow {
  const verdict = new RowGate(c, { threads: 0 }).checkNow(t, candidateFor(c, t, value), { kind: 'computed' });
  assert.ok(verdict.ok, verdict.ok ? '' : verdict.reason);
  return verdict.row;
}
