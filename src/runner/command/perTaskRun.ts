/**
 * `mode: per-task`: one process of the user's program per attempt. It gets the task document's
 * path in WFLO_TASK and writes its result document to the path in WFLO_RESULT; its stdout and
 * stderr are its own (captured to bounded logs in the attempt folder). The process stays in the
 * worker's process group, so an executor that ends the attempt (timeout, stop) ends the program
 * and everything it started with it (runner/processGroup.ts).
 *
 * How it ended, in order: could not start (permanent: a missing program stays missing); killed by
 * a signal; exit code 65 (the program says: permanent failure); another non-zero exit code; exit 0
 * with its task document changed meanwhile (another program wrote into the folder), with no
 * result (naming a result-like file that is not the attempt's), a result refused unread
 * (resultFile.ts: a link, another owner, older than the attempt, oversized), or the result
 * document's answer.
 */
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { BoundedLog } from './boundedLog.js';
import { ENV, EXIT_PERMANENT_FAILURE, TASK_PROTOCOL } from './protocol.js';
import { readResultDocument, type ProgramAnswer } from './resultDocument.js';
import { writeCommandScript, type AttemptFolder } from './taskFolder.js';
import { writeFresh } from './freshFile.js';
import { readResultFile } from './resultFile.js';
import { printable } from '../../util/printable.js';

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
  const resultFile = folder.resultFile;
  const taskText = JSON.stringify(doc);
  writeFresh(taskFile, taskText);
  const env = { [ENV.protocol]: TASK_PROTOCOL, [ENV.mode]: 'per-task', [ENV.task]: taskFile, [ENV.result]: resultFile };
  writeCommandScript(folder, launch.cwd, env, launch.argv, `wflo command task ${taskId}, attempt folder ${folder.dir}`);
  const out = new BoundedLog(folder.file('stdout.log'));
  const err = new BoundedLog(folder.file('stderr.log'));
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { startError: NodeJS.ErrnoException }>((resolve) => {
    const child = spawn(launch.argv[0], launch.argv.slice(1), { cwd: launch.cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (b: Buffer) => out.write(b));
    child.stderr!.on('data', (b: Buffer) => err.write(b));
    let settled = false;
    child.once('error', (e) => {
      if (!settled) {
        settled = true;
        resolve({ startError: e as NodeJS.ErrnoException });
      }
    });
    child.once('exit', (code, signal) => {
      // Read what is still in the pipes; a leftover child of the program may keep them open.
      const drained = new Promise<void>((r) => child.once('close', () => r()));
      const cap = new Promise<void>((r) => setTimeout(r, PIPE_DRAIN_MS).unref());
      void Promise.race([drained, cap]).then(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        if (!settled) {
          settled = true;
          resolve({ code, signal });
        }
      });
    });
  });
  out.close();
  err.close();
  const where = ` (log: ${folder.dir})`;
  if ('startError' in ended) return { kind: 'error', permanent: true, message: startFailure(launch, ended.startError) };
  try {
    writeFresh(folder.file('exit_code'), `${ended.signal ? `signal ${ended.signal}` : ended.code}\n`);
  } catch {
    /* the log is a courtesy */
  }
  if (ended.signal) return { kind: 'error', permanent: false, message: `program killed by signal ${ended.signal}${quoteLogs(err, out)}${where}` };
  const read = readResultFile(resultFile, folder.birth);
  const answer = read.kind === 'text' ? readResultDocument(read.text, taskId, false) : read.kind === 'refused' ? refusal(read.why) : null;
  if (ended.code === EXIT_PERMANENT_FAILURE) {
    const said = answer?.kind === 'error' && read.kind === 'text' ? `: ${answer.message}` : quoteLogs(err, out);
    return { kind: 'error', permanent: true, message: `program reported a permanent failure (exit code ${EXIT_PERMANENT_FAILURE})${said}${where}` };
  }
  if (ended.code !== 0) return { kind: 'error', permanent: false, message: `program exited with code ${ended.code}${quoteLogs(err, out)}${where}` };
  // A task document changed while the program ran: another program wrote into this folder.
  if (!sameText(taskFile, taskText)) {
    return {
      kind: 'error',
      permanent: false,
      message: `task.json was changed while the program ran (another program writing into this attempt folder?); its answer is not taken${where}`,
    };
  }
  if (answer === null) {
    const strays = strayResults(folder);
    const stray = strays.length > 0 ? ` (the folder holds ${strays.join(', ')}, not the file named in $${ENV.result}: write to that path)` : '';
    return { kind: 'error', permanent: false, message: `program exited 0 without writing a result to $${ENV.result}${stray}${quoteLogs(err, out)}${where}` };
  }
  if (answer.kind === 'error') return { ...answer, message: `${answer.message}${where}` };
  return answer;
}

function refusal(why: string): ProgramAnswer {
  return { kind: 'error', permanent: false, message: `result ${why}` };
}

/** Whether `file` (not followed if a link) still holds exactly `text`. */
function sameText(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return false;
  }
  try {
    const st = fs.fstatSync(fd);
    const expected = Buffer.byteLength(text);
    if (!st.isFile() || st.size !== expected) return false;
    const buf = Buffer.alloc(expected);
    return fs.readSync(fd, buf, 0, expected, 0) === expected && buf.toString('utf8') === text;
  } finally {
    fs.closeSync(fd);
  }
}

/** Names in the attempt folder that look like a result but are not this attempt's. */
function strayResults(folder: AttemptFolder): string[] {
  try {
    const own = `result-${folder.token}.json`;
    return fs
      .readdirSync(folder.dir)
      .filter((n) => /^result.*\.json$/.test(n) && n !== own)
      .slice(0, 3)
      .map((n) => printable(n).slice(0, 80));
  } catch {
    return [];
  }
}
