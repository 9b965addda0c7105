/**
 * The folder of one attempt of a command task (as Nextflow's task folders):
 *
 *   <output>/tasks/<task_id>/attempt-<n>/
 *     command.sh           the attempt as a shell script: `sh command.sh` reruns it by hand
 *     task.json            the task document
 *     result-<token>.json  what the program wrote (per-task mode; the path is $WFLO_RESULT)
 *     stdout.log           the program's output, at most LOG_LIMIT_BYTES each (first and last half);
 *     stderr.log           only when it printed something
 *     exit_code            `0`, `65`, `signal SIGKILL` (per-task mode)
 *
 * The runner makes the folder itself, new for every attempt (an earlier run's folder of the same
 * attempt number is removed; a symbolic link in place of the task's folder is refused), and the
 * result's name carries a random token of the attempt: a program cannot guess where another
 * task's result goes (a program that wrote result.json into a neighbour's folder was once taken
 * as the neighbour's answer). The runner's own files are created new, never written through a
 * link (freshFile.ts); the result is taken only as resultFile.ts allows.
 *
 * In per-task mode the attempt folder is also the program's scratch folder (its files stay, like
 * the logs). In persistent mode a task gets a folder only when it printed something or failed
 * (then with task.json, to rerun it by hand); the program's scratch folder is one per program
 * process (<tasks>/_persistent/<host>-<pid>-<n>/), emptied after each task that left files in it.
 * Creating and removing folders is what costs on shared and network file systems, so the common
 * path makes one folder per task at most and removes none. On a queue worker the same folders
 * live under its --task-dir. Wind files shared by the tasks of a farm live in <tasks>/_wind/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeFresh } from './freshFile.js';

export const WIND_FOLDER = '_wind';
export const PERSISTENT_FOLDER = '_persistent';

export class AttemptFolder {
  private made = false;
  /** Random per attempt: part of the result file's name. */
  readonly token = randomBytes(8).toString('hex');
  private made_: FolderBirth | null = null;

  constructor(readonly dir: string) {}

  file(name: string): string {
    return path.join(this.dir, name);
  }

  /** Where the program writes its result (per-task mode): `result-<token>.json`. */
  get resultFile(): string {
    return this.file(`result-${this.token}.json`);
  }

  /** The folder's mtime right after the runner made it and its owner (after ensure()). */
  get birth(): FolderBirth {
    if (!this.made_) throw new Error('attempt folder not made yet');
    return this.made_;
  }

  /**
   * Make the folder (once), new: an old folder of the same attempt number (an earlier run's, or
   * anything a program left at that name) is removed first. The task's folder above it must be a
   * folder, not a symbolic link to elsewhere.
   */
  ensure(): void {
    if (this.made) return;
    this.made = true;
    const taskDir = path.dirname(this.dir);
    fs.mkdirSync(path.dirname(taskDir), { recursive: true });
    try {
      fs.mkdirSync(taskDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const st = fs.lstatSync(taskDir);
      if (!st.isDirectory()) {
        throw new AttemptFolderError(
          `${taskDir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}, not a task folder wflo made: refused (remove it)`,
        );
      }
    }
    // rm of a link removes the link, not what it points to.
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir);
    const st = fs.lstatSync(this.dir, { bigint: true });
    this.made_ = { mtimeNs: st.mtimeNs, uid: Number(st.uid) };
  }
}

/** When (the file system's clock, ns) and by whom an attempt folder was made. */
export interface FolderBirth {
  mtimeNs: bigint;
  uid: number;
}

/** An attempt folder that cannot be made as it must be. */
export class AttemptFolderError extends Error {}

export function attemptFolder(root: string, taskId: string, attempt: number): AttemptFolder {
  if (!/^[A-Za-z0-9_-]+$/.test(taskId)) throw new Error(`task id '${taskId}' cannot name a folder`);
  return new AttemptFolder(path.join(root, taskId, `attempt-${attempt}`));
}

/** Empty a persistent program's scratch folder if the last task left anything in it. */
export function emptyScratch(dir: string): void {
  try {
    for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  } catch {
    /* tidying is best effort */
  }
}

const quote = (s: string): string => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** command.sh: the working directory, the WFLO_* variables and the command line of the attempt. */
export function writeCommandScript(f: AttemptFolder, cwd: string, env: Record<string, string>, argv: readonly string[], note: string): void {
  const vars = Object.entries(env)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(' ');
  const text = `#!/bin/sh\n# ${note}\n# rerun by hand: sh ${quote(f.file('command.sh'))}\ncd ${quote(cwd)} || exit 1\n${vars} exec ${argv.map(quote).join(' ')}\n`;
  writeFresh(f.file('command.sh'), text);
}
