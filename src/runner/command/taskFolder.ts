/**
 * The folder of one attempt of a command task (as Nextflow's task folders):
 *
 *   <output>/tasks/<task_id>/attempt-<n>/
 *     command.sh      the attempt as a shell script: `sh command.sh` reruns it by hand
 *     task.json       the task document
 *     result.json     what the program wrote (per-task mode)
 *     stdout.log      the program's output, at most LOG_LIMIT_BYTES each (first and last half);
 *     stderr.log      only when it printed something
 *     exit_code       `0`, `65`, `signal SIGKILL` (per-task mode)
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

export const WIND_FOLDER = '_wind';
export const PERSISTENT_FOLDER = '_persistent';

export class AttemptFolder {
  private made = false;

  constructor(readonly dir: string) {}

  file(name: string): string {
    return path.join(this.dir, name);
  }

  /** Make the folder (once); an old folder of the same attempt number, from an earlier run, is replaced. */
  ensure(): void {
    if (this.made) return;
    this.made = true;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    // mkdir that found the folder: it is an earlier run's; start it empty.
    if (fs.readdirSync(this.dir).length > 0) {
      fs.rmSync(this.dir, { recursive: true, force: true });
      fs.mkdirSync(this.dir, { recursive: true });
    }
  }
}

export function attemptFolder(root: string, taskId: string, attempt: number): AttemptFolder {
  if (!/^[A-Za-z0-9_-]+$/.test(taskId)) throw new Error(`task id '${taskId}' cannot name a folder`);
  return new AttemptFolder(path.join(root, taskId, `attempt-${attempt}`));
}

/** Empty a persistent program's scratch folder if the last task left anything in it. */
export function emptyScratch(dir: string): void {
  try {
    for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  } catch { /* tidying is best effort */ }
}

const quote = (s: string): string => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** command.sh: the working directory, the WFLO_* variables and the command line of the attempt. */
export function writeCommandScript(f: AttemptFolder, cwd: string, env: Record<string, string>, argv: readonly string[], note: string): void {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
  const text = `#!/bin/sh\n# ${note}\n# rerun by hand: sh ${quote(f.file('command.sh'))}\ncd ${quote(cwd)} || exit 1\n${vars} exec ${argv.map(quote).join(' ')}\n`;
  fs.writeFileSync(f.file('command.sh'), text);
}
