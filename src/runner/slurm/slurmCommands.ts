/**
 * The SLURM client commands wflo calls, and what their output means: `sbatch --parsable`
 * (submit, prints `jobid[;cluster]`), `squeue -r` (one line per array task still pending or
 * running) and `sacct` (finished array tasks, only where the cluster keeps accounting; many
 * do not, and sacct then says "accounting storage is disabled"). SLURM_CONF and the rest of the
 * environment pass through unchanged.
 */
import { spawnSync } from 'node:child_process';
import { RuntimeFailure } from '../../util/errors.js';

export interface CommandResult {
  status: number;
  stdout: string;
  stderr: string;
}

const lastLine = (s: string): string =>
  s
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .pop()
    ?.trim() ?? '';

export function runSlurmCommand(command: string, args: readonly string[], timeoutMs = 60_000): CommandResult {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RuntimeFailure(`${command} not found on PATH: run this on a machine with the SLURM client commands (a login node)`);
    throw new RuntimeFailure(`${command} failed to run (${code ?? r.error.message})`);
  }
  return { status: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** Submit a batch script; returns the job id. */
export function sbatchSubmit(scriptFile: string): string {
  const r = runSlurmCommand('sbatch', ['--parsable', scriptFile]);
  const id = /^(\d+)(;\S+)?$/.exec(r.stdout.trim());
  if (r.status !== 0 || !id) {
    throw new RuntimeFailure(`sbatch ${scriptFile} failed (exit ${r.status}): ${lastLine(r.stderr) || lastLine(r.stdout) || 'no output'}`);
  }
  return id[1];
}

export interface ArrayTaskState {
  arrayTaskId: number;
  /** SLURM's state: PENDING, RUNNING, COMPLETED, CANCELLED, FAILED, TIMEOUT, … */
  state: string;
  /** squeue's reason (pending) or sacct's exit code and elapsed time. */
  detail: string;
}

/** Array tasks of `jobId` still in the queue (pending or running). A job that left the queue gives []. */
export function queuedArrayTasks(jobId: string): { tasks: ArrayTaskState[]; error: string | null } {
  const r = runSlurmCommand('squeue', ['-h', '-r', '-j', jobId, '-o', '%i|%K|%T|%r']);
  if (r.status !== 0) {
    if (/invalid job id/i.test(r.stderr)) return { tasks: [], error: null };
    return { tasks: [], error: `squeue failed (exit ${r.status}): ${lastLine(r.stderr)}` };
  }
  const tasks: ArrayTaskState[] = [];
  for (const line of r.stdout.split('\n')) {
    const [id, k, state, reason] = line.trim().split('|');
    if (!id) continue;
    const index = /^\d+$/.test(k ?? '') ? Number(k) : Number(/_(\d+)$/.exec(id)?.[1] ?? NaN);
    if (Number.isInteger(index)) tasks.push({ arrayTaskId: index, state: state ?? '', detail: reason && reason !== 'None' ? reason : '' });
  }
  return { tasks, error: null };
}

export type AccountingResult = { available: true; tasks: ArrayTaskState[] } | { available: false; reason: string };

/** Array tasks of `jobId` as the accounting database has them (finished ones included). */
export function accountedArrayTasks(jobId: string): AccountingResult {
  let r: CommandResult;
  try {
    r = runSlurmCommand('sacct', ['-n', '-P', '-X', '-j', jobId, '--format=JobID,State,ExitCode,Elapsed']);
  } catch (err) {
    return { available: false, reason: (err as Error).message };
  }
  if (r.status !== 0) return { available: false, reason: lastLine(r.stderr) || `sacct exit ${r.status}` };
  const tasks: ArrayTaskState[] = [];
  for (const line of r.stdout.split('\n')) {
    const [id, state, exitCode, elapsed] = line.trim().split('|');
    const m = /^\d+_(\d+)$/.exec(id ?? '');
    if (!m) continue;
    tasks.push({ arrayTaskId: Number(m[1]), state: (state ?? '').split(' ')[0], detail: `exit ${exitCode ?? '?'}, ${elapsed ?? '?'}` });
  }
  return { available: true, tasks };
}
