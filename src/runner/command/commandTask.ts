/**
 * A command task: one attempt of a task computed by the user's own program
 * (`optimizer: {method: command, …}`, campaign/commandOptimizer.ts), run where the executor put
 * the attempt (a local worker process, a queue worker's job process, a SLURM shard's worker).
 * It writes the attempt folder and the task document, runs the program per task or hands the
 * task to the slot's persistent program, and turns the answer into a TaskOutput: the layout as
 * the program gave it (feasibility measured here, with the geometry every row is checked with),
 * `aep` = the program's AEP or NaN, `aepReported` = the program's AEP, `metrics`. A failure is
 * one line ending with the attempt folder; `permanent` when retrying cannot help.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AttemptFields } from '../attemptFields.js';
import type { CommandSettings } from '../../campaign/commandOptimizer.js';
import type { Case } from '../../case/case.js';
import { checkFeasibility } from '../../geometry/feasibility.js';
import { checkTaskOutput, type TaskOutput } from '../taskOutput.js';
import { caseSpacing } from '../../optimize/caseEvaluator.js';
import { BoundedLog } from './boundedLog.js';
import { runPerTask, type ProgramLaunch } from './perTaskRun.js';
import { PersistentProgram } from './persistentProgram.js';
import type { ProgramAnswer } from './resultDocument.js';
import { mergedParams, taskDocument, windFileFor } from './taskDocument.js';
import { attemptFolder, emptyScratch, PERSISTENT_FOLDER, WIND_FOLDER } from './taskFolder.js';
import { writeFresh } from './freshFile.js';

export interface CommandTaskRun extends AttemptFields {
  settings: CommandSettings;
  case: Case;
  /** Root of the attempt folders (`<output>/tasks`, a queue worker's --task-dir). */
  taskDir: string;
  /** The program's working directory when not the campaign's `workdir` (a queue worker's --workdir). */
  workdir?: string;
}

/** A command task's failure; `permanent`: the scheduler does not retry it. */
export class CommandTaskError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** The persistent program of this process (one per worker slot), by what it runs. */
let persistent: PersistentProgram | null = null;
let programs = 0;

/** Stop this process's persistent program (end of its input, then SIGKILL after `graceMs`, default the program's own). */
export async function stopPersistentProgram(graceMs?: number): Promise<void> {
  const p = persistent;
  persistent = null;
  await p?.stop(graceMs);
  if (p) fs.rmSync(p.scratchDir, { recursive: true, force: true });
}

async function persistentFor(launch: ProgramLaunch, settings: CommandSettings, taskDir: string): Promise<PersistentProgram> {
  const key = JSON.stringify([launch.argv, launch.cwd, settings.inputFiles, taskDir]);
  if (persistent && (persistent.key !== key || !persistent.alive)) await stopPersistentProgram();
  if (!persistent) {
    const scratchDir = path.join(taskDir, PERSISTENT_FOLDER, `${os.hostname()}-${process.pid}-${++programs}`);
    fs.mkdirSync(scratchDir, { recursive: true });
    persistent = new PersistentProgram(key, launch, scratchDir);
  }
  return persistent;
}

export async function runCommandTask(r: CommandTaskRun): Promise<TaskOutput> {
  const s = r.settings;
  const launch: ProgramLaunch = { argv: s.run, cwd: r.workdir ?? s.workdir };
  const startedAtMs = Date.now();
  const folder = attemptFolder(r.taskDir, r.taskId, r.attempt);
  const windFile = windFileFor(r.farm, path.join(r.taskDir, WIND_FOLDER));
  const params = mergedParams(s.params, r.farm, r.type);
  const identity = { taskId: r.taskId, seed: r.seed, attempt: r.attempt, timeoutS: r.timeoutS, startedAtMs };
  let answer: ProgramAnswer;
  if (s.mode === 'persistent') {
    const program = await persistentFor(launch, s, r.taskDir);
    const doc = taskDocument(identity, r.farm, r.type, params, { scratchDir: program.scratchDir, resultFile: null, windFile });
    const ensure = (): void => folder.ensure();
    const out = new BoundedLog(folder.file('stdout.log'), undefined, ensure),
      err = new BoundedLog(folder.file('stderr.log'), undefined, ensure);
    answer = await program.run(doc, r.taskId, out, err, ` (log: ${folder.dir})`);
    out.close();
    err.close();
    emptyScratch(program.scratchDir);
    // Keep what reproduces a failure by hand.
    if (answer.kind === 'error') {
      try {
        folder.ensure();
        writeFresh(folder.file('task.json'), JSON.stringify(doc));
      } catch {
        /* a courtesy */
      }
    }
  } else {
    const doc = taskDocument(identity, r.farm, r.type, params, { scratchDir: folder.dir, resultFile: folder.resultFile, windFile });
    answer = await runPerTask(launch, doc, folder, r.taskId);
  }
  if (answer.kind === 'error') throw new CommandTaskError(answer.message, answer.permanent);
  const output = toTaskOutput(answer, r.case);
  checkTaskOutput(output, r.case, ` (log: ${folder.dir})`);
  return output;
}

/** The program's answer as the runner's TaskOutput (faithful: the runner's checks judge it). */
function toTaskOutput(a: Extract<ProgramAnswer, { kind: 'result' }>, c: Case): TaskOutput {
  const n = a.x.length;
  const report = a.x.length === a.y.length ? checkFeasibility(c.boundary, a.x, a.y, caseSpacing(c), 1e-6) : { feasible: false, maxViolationM: Infinity };
  const unknown = (): Float64Array => new Float64Array(n).fill(NaN);
  return {
    x: a.x,
    y: a.y,
    xInitial: a.xInitial ?? unknown(),
    yInitial: a.yInitial ?? unknown(),
    aep: a.aepMwh ?? NaN,
    aepInitial: NaN,
    ...(a.aepMwh !== null ? { aepReported: a.aepMwh } : {}),
    iterations: a.iterations ?? -1,
    evaluations: a.evaluations ?? -1,
    feasible: report.feasible,
    maxViolationM: report.maxViolationM,
    ...(a.metrics !== null ? { metrics: a.metrics } : {}),
  };
}
