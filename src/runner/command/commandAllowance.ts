/**
 * Whether a queue worker may run a job's command: a queue message alone never makes a machine
 * run a program. The worker's operator names what it may run (`wflo worker --allow-command
 * 'python3 opt.py'`, repeatable): a job's `run` must begin with one of those argument lists (the
 * program compared by name or by the file it resolves to, the other arguments exactly). And the
 * job's inputs must hash, on this machine's copy (the worker's --workdir), to exactly the job's
 * list: a script that differs from the coordinator's would compute something else under the same
 * spec hash. Nothing is started before both checks pass; a refused job is handed back to the queue.
 *
 * Allowing just an interpreter (`--allow-command python3`) lets any job run any Python code
 * through `python3 -c …`: name the script too.
 */
import { COMMAND_METHOD, commandSettingsProblem, resolveProgram, type CommandSettings } from '../../campaign/commandOptimizer.js';
import { hashInputs, inputsDifference, InputsProblem, type HashCache } from '../../campaign/commandInputs.js';
import type { OptimizerSettings } from '../../campaign/campaign.js';

export interface CommandAllowance {
  /** Argument-list prefixes this worker may run. */
  allowed: string[][];
  /** This machine's copy of the command's working directory (absolute). */
  workdir: string;
}

export type CommandCheck =
  | { ok: true }
  /** Not for this worker: hand the job back (another worker may take it). */
  | { ok: false; refuse: string }
  /** Malformed: no worker can run it. */
  | { ok: false; invalid: string };

/** Split an --allow-command value into its arguments (whitespace-separated; quote with ' or "). */
export function parseAllowedCommand(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

const show = (argv: readonly string[]): string =>
  argv
    .map((a) => (/\s/.test(a) ? `'${a}'` : a))
    .join(' ')
    .slice(0, 200);

/** Whether `run` begins with `prefix` (program by name or resolved file; arguments exactly). */
function matches(prefix: readonly string[], run: readonly string[], cwd: string): boolean {
  if (prefix.length === 0 || prefix.length > run.length) return false;
  for (let i = 1; i < prefix.length; i++) if (prefix[i] !== run[i]) return false;
  if (prefix[0] === run[0]) return true;
  const mine = resolveProgram(prefix[0], cwd);
  return mine !== null && mine === resolveProgram(run[0], cwd);
}

const hashCache: HashCache = new Map();

/** Check a job's optimizer settings against this worker's allowance (not command jobs: always ok). */
export function checkCommandJob(settings: OptimizerSettings, allowance: CommandAllowance | null): CommandCheck {
  if (settings.method !== COMMAND_METHOD) return { ok: true };
  const problem = commandSettingsProblem(settings);
  if (problem) return { ok: false, invalid: `optimizer.${problem.field}: ${problem.message}` };
  const s = settings as CommandSettings;
  if (!allowance || allowance.allowed.length === 0) {
    return { ok: false, refuse: `this worker may not run commands (it was started without --allow-command); the job wants: ${show(s.run)}` };
  }
  if (!allowance.allowed.some((p) => matches(p, s.run, allowance.workdir))) {
    return {
      ok: false,
      refuse: `command '${show(s.run)}' is not allowed on this worker (allowed: ${allowance.allowed.map((p) => `'${show(p)}'`).join(', ')})`,
    };
  }
  // Hash this machine's copy (a file whose size and mtime did not change is not read again).
  let local;
  try {
    local = hashInputs(allowance.workdir, s.inputs, null, hashCache);
  } catch (err) {
    if (!(err instanceof InputsProblem)) throw err;
    return { ok: false, refuse: `its inputs cannot be checked in this worker's --workdir ${allowance.workdir}: ${err.message}` };
  }
  const diff = inputsDifference(s.inputFiles, local);
  if (diff) return { ok: false, refuse: `its inputs differ from this worker's copy in ${allowance.workdir}: ${diff}` };
  return { ok: true };
}
