/**
 * `mode: per-task`: one process of the user's program per attempt. It gets the task document's
 * path in WFLO_TASK and writes its result document to the path in WFLO_RESULT; its stdout and
 * stderr are its own (captured to bounded logs in the attempt folder). The process stays in the
 * worker's process group, so an executor that ends the attempt (timeout, stop) ends the program
 * and everything it started with it (runner/processGroup.ts).
 *
 * How it ended, in order: could not start (permanent: a missing program stays missing); killed by
 * a signal; exit code 65 (the program says: permanent failure); another non-zero exit code; exit 0
 * with no result, an oversized result (refused unread, deleted), or the result document's answer.
 */
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { BoundedLog } from './boundedLog.js';
import { ENV, EXIT_PERMANENT_FAILURE, MAX_RESULT_BYTES, TASK_PROTOCOL } from './protocol.js';
import { readResultDocument, type ProgramAnswer } from './resultDocument.js';
import { writeCommandScript, type AttemptFolder } from './taskFolder.js';

export interface ProgramLaunch {
  argv: readonly string[];
  cwd: string;
}

/** How long the output pipes may stay open after the program exited (a child of it may hold them). */
const PIPE_DRAIN_MS = 200;

/** The last lines a failure message quotes: stderr's, else stdout's. */
export function quoteLogs(err: BoundedLog, out: BoundedLog): string {
  const lines = err.lastLines() || out.lastLines();
  return lines ? `: ${lines}` : ' (no output)';
}

export function startFailure(launch: ProgramLaunch, err: NodeJS.ErrnoException): string {
  const program = launch.argv[0];
  if (err.code === 'ENOENT') {
    return program.includes('/') ? `cannot start '${program}': no such file in ${launch.cwd}` : `cannot start '${program}': not found on PATH`;
  }
  if (err.code === 'EACCES') return `cannot start '${program}': not executable (EACCES)`;
  return `cannot start '${program}': ${err.code ?? err.message}`;
}

export async function runPerTask(launch: ProgramLaunch, doc: Record<string, unknown>, folder: AttemptFolder, taskId: string): Promise<ProgramAnswer> {
  folder.ensure();
  const taskFile = folder.file('task.json');
  const resultFile = folder.file('result.json');
  fs.writeFileSync(taskFile, JSON.stringify(doc));
  const env = { [ENV.protocol]: TASK_PROTOCOL, [ENV.mode]: 'per-task', [ENV.task]: taskFile, [ENV.result]: resultFile };
  writeCommandScript(folder, launch.cwd, env, launch.argv, `wflo command task ${taskId}, attempt folder ${folder.dir}`);
  const out = new BoundedLog(folder.file('stdout.log'));
  const err = new BoundedLog(folder.file('stderr.log'));
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { startError: NodeJS.ErrnoException }>((resolve) => {
    const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd: launch.cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (b: Buffer) => out.write(b));
    child.stderr!.on('data', (b: Buffer) => err.write(b));
    let settled = false;
    child.once('error', (e) => { if (!settled) { settled = true; resolve({ startError: e as NodeJS.ErrnoException }); } });
    child.once('exit', (code, signal) => {
      // Read what is still in the pipes; a leftover child of the program may keep them open.
      const drained = new Promise<void>((r) => child.once('close', () => r()));
      const cap = new Promise<void>((r) => setTimeout(r, PIPE_DRAIN_MS).unref());
      void Promise.race([drained, cap]).then(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        if (!settled) { settled = true; resolve({ code, signal }); }
      });
    });
  });
  out.close();
  err.close();
  const where = ` (log: ${folder.dir})`;
  if ('startError' in ended) return { kind: 'error', permanent: true, message: startFailure(launch, ended.startError) };
  try { fs.writeFileSync(folder.file('exit_code'), `${ended.signal ? `signal ${ended.signal}` : ended.code}\n`); } catch { /* the log is a courtesy */ }
  if (ended.signal) return { kind: 'error', permanent: false, message: `program killed by signal ${ended.signal}${quoteLogs(err, out)}${where}` };
  const answer = readResult(resultFile, taskId);
  if (ended.code === EXIT_PERMANENT_FAILURE) {
    const said = answer?.kind === 'error' ? `: ${answer.message}` : quoteLogs(err, out);
    return { kind: 'error', permanent: true, message: `program reported a permanent failure (exit code ${EXIT_PERMANENT_FAILURE})${said}${where}` };
  }
  if (ended.code !== 0) return { kind: 'error', permanent: false, message: `program exited with code ${ended.code}${quoteLogs(err, out)}${where}` };
  if (answer === null) return { kind: 'error', permanent: false, message: `program exited 0 without writing a result to $${ENV.result}${quoteLogs(err, out)}${where}` };
  if (answer.kind === 'error') return { ...answer, message: `${answer.message}${where}` };
  return answer;
}

/** The result file's answer; null when there is none. Oversized files are refused unread and deleted. */
function readResult(file: string, taskId: string): ProgramAnswer | null {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) return null;
  if (!st.isFile()) return { kind: 'error', permanent: false, message: `$${ENV.result} is not a regular file` };
  if (st.size > MAX_RESULT_BYTES) {
    fs.rmSync(file, { force: true });
    return { kind: 'error', permanent: false, message: `result is ${(st.size / 2 ** 20).toFixed(0)} MiB, over the ${MAX_RESULT_BYTES / 2 ** 20} MiB limit (refused unread, deleted)` };
  }
  return readResultDocument(fs.readFileSync(file, 'utf8'), taskId, false);
}
