/**
 * The folder of one attempt of a command task (as Nextflow's task folders):
 *
 *   <output>/tasks/<task_id>/attempt-<n>/
 *     command.sh      the attempt as a shell script: `sh command.sh` reruns it by hand
 *     task.json       the task document (per-task mode; persistent mode keeps it only on failure)
 *     result.json     what the program wrote (per-task mode)
 *     stdout.log      the program's output, at most LOG_LIMIT_BYTES each (first and last half)
 *     stderr.log
 *     exit_code       `0`, `65`, `signal SIGKILL` (per-task mode)
 *     scratch/        the program's scratch folder; removed after a successful attempt
 *
 * On a queue worker the same folders live under its --task-dir. Wind files shared by the tasks
 * of a farm live in <tasks>/_wind/.
 */
import fs from 'node:fs';
import path from 'node:path';

export const WIND_FOLDER = '_wind';

export interface AttemptFolder {
  dir: string;
  scratch: string;
  file(name: string): string;
}

/** Make a fresh folder for `attempt` of `taskId` (an old one of the same number, from an earlier run, is replaced). */
export function attemptFolder(root: string, taskId: string, attempt: number): AttemptFolder {
  if (!/^[A-Za-z0-9_-]+$/.test(taskId)) throw new Error(`task id '${taskId}' cannot name a folder`);
  const dir = path.join(root, taskId, `attempt-${attempt}`);
  if (fs.existsSync(dir)) fs.rmSync(dir, { recursive: true, force: true });
  const scratch = path.join(dir, 'scratch');
  fs.mkdirSync(scratch, { recursive: true });
  return { dir, scratch, file: (name) => path.join(dir, name) };
}

/** After a successful attempt: drop the scratch folder, and the attempt folder itself when nothing else is in it. */
export function tidyAfterSuccess(f: AttemptFolder): void {
  try {
    fs.rmSync(f.scratch, { recursive: true, force: true });
    if (fs.readdirSync(f.dir).length === 0) {
      fs.rmdirSync(f.dir);
      try { fs.rmdirSync(path.dirname(f.dir)); } catch { /* other attempts are kept */ }
    }
  } catch { /* tidying is best effort */ }
}

const quote = (s: string): string => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** command.sh: the working directory, the WFLO_* variables and the command line of the attempt. */
export function writeCommandScript(f: AttemptFolder, cwd: string, env: Record<string, string>, argv: readonly string[], note: string): void {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
  const text = `#!/bin/sh\n# ${note}\n# rerun by hand: sh ${quote(f.file('command.sh'))}\ncd ${quote(cwd)} || exit 1\n${vars} exec ${argv.map(quote).join(' ')}\n`;
  fs.writeFileSync(f.file('command.sh'), text);
}
