/**
 * `optimizer: {method: command, …}`: the user's own program as the optimizer of every task.
 *
 *   optimizer:
 *     method: command
 *     run: [python3, opt.py, --iters, "200"]   # program and arguments (strings), run in `workdir`
 *     inputs: [opt.py, mylib/]                  # files/folders whose content enters the spec hash
 *     mode: per-task                            # per-task (one process per attempt) | persistent
 *     aep: recompute                            # recompute (keep both AEPs) | verify (must agree)
 *     aep_tolerance: 1.0e-6                     # verify's relative tolerance (default: the run's)
 *     params: {iterations: 200}                 # passed to the program (also per farm / farm type)
 *     workdir: .                                # default: the campaign file's folder
 *
 * The program runs in `workdir`; a relative program path in `run` (one with a `/`) and every
 * entry of `inputs` resolve there; a bare name (`python3`) is looked up on PATH. `run`, `params`
 * and the (path, sha256) of every input file enter the spec hash; `mode`, `aep`, `aep_tolerance`
 * and `workdir` do not (how to run and check, not what is computed). The verification gate
 * (runner/gate/rowGate.ts) reads `aep` and `aep_tolerance` from the resolved settings
 * (`aepModeOf` below says the mode). The protocol between
 * wflo and the program is docs/own-optimizer.md; the program itself runs in
 * runner/command/commandTask.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { strict, zodToInputError } from '../io/zodIssue.js';
import { errorAt, type FieldPath } from '../io/sourceMap.js';
import { paramsSchema, type Params } from './paramsSchema.js';
import { hashInputs, InputsProblem, type InputFile } from './commandInputs.js';
import { parseYamlText } from '../io/yamlFile.js';
import type { Campaign } from './campaign.js';

export const COMMAND_METHOD = 'command';
export const COMMAND_MODES = ['per-task', 'persistent'] as const;
export const AEP_MODES = ['recompute', 'verify'] as const;
export type CommandMode = (typeof COMMAND_MODES)[number];
export type AepMode = (typeof AEP_MODES)[number];

/** Limits shared with queue jobs (a campaign that loads can always be enqueued). */
const MAX_ARGS = 1000;
const MAX_ARG_CHARS = 10_000;

/** A `method: command` optimizer as the runner sees it (camelCase like every resolved setting). */
export interface CommandSettings {
  method: typeof COMMAND_METHOD;
  /** Program and arguments, as written. */
  run: string[];
  /** Input files and folders, as written (relative to `workdir`). */
  inputs: string[];
  /** Every file under `inputs`, sorted by path: what the spec hash covers. */
  inputFiles: InputFile[];
  mode: CommandMode;
  /** How the gate treats the program's AEP: `recompute` stores wflo's and the program's, `verify` also requires agreement. */
  aep: AepMode;
  /** `verify`'s relative tolerance (the gate's default when absent); named as in the file, the gate reads it so. */
  aep_tolerance?: number;
  /** The campaign-level params (farm and farm type params are on FarmSpec / FarmTypeSpec). */
  params: Params;
  /** Absolute working directory on this machine (a queue worker uses its own --workdir instead). */
  workdir: string;
  [setting: string]: unknown;
}

const arg = z
  .string({
    error: (iss) =>
      typeof iss.input === 'number' || typeof iss.input === 'boolean' ? `expected a string; quote it: "${String(iss.input)}"` : 'expected a string',
  })
  .max(MAX_ARG_CHARS, { error: `at most ${MAX_ARG_CHARS} characters` });

export const commandOptimizerSchema = strict({
  method: z.literal(COMMAND_METHOD),
  run: z
    .array(arg, { error: 'expected a list: the program and its arguments, e.g. [python3, opt.py]' })
    .min(1, { error: 'must name the program to run' })
    .max(MAX_ARGS),
  inputs: z.array(z.string().min(1), { error: 'expected a list of files and folders' }).max(1000),
  mode: z.enum(COMMAND_MODES).default('per-task'),
  aep: z.enum(AEP_MODES).default('recompute'),
  aep_tolerance: z.number().min(0).optional(),
  params: paramsSchema.default({}),
  workdir: z.string().min(1).optional(),
});

/** Whether a campaign's settings are a command optimizer's. */
export function isCommandSettings(settings: { method: string }): settings is CommandSettings {
  return settings.method === COMMAND_METHOD;
}

/** The campaign's `aep` mode for the verification gate: the command optimizer's setting, or null for wflo's own optimizers. */
export function aepModeOf(settings: { method: string; [k: string]: unknown }): AepMode | null {
  return isCommandSettings(settings) ? settings.aep : null;
}

/**
 * Validate and resolve the campaign's `optimizer:` mapping (`raw`, as parsed, so errors name the
 * line). `campaignDir`: the campaign file's folder; `outputDir`: skipped when hashing inputs.
 */
export function resolveCommandOptimizer(raw: Record<string, unknown>, file: string, campaignDir: string, outputDir: string | null): CommandSettings {
  const fail = (at: FieldPath, message: string): never => {
    throw errorAt(raw, at, message, file);
  };
  const parsed = commandOptimizerSchema.safeParse(raw);
  if (!parsed.success) {
    // A missing `inputs` says what to list (after any misspelt key, which may be the reason).
    if (raw.inputs === undefined && !parsed.error.issues.some((i) => i.code === 'unrecognized_keys')) {
      fail(['inputs'], 'missing: list the files and folders of your program (e.g. [opt.py, mylib/]) so that editing them makes its results stale; [] if none');
    }
    throw zodToInputError(parsed.error, file, raw);
  }
  const o = parsed.data;
  if (o.run[0].trim() === '') fail(['run', 0], 'must name the program to run');
  const workdir = path.resolve(campaignDir, o.workdir ?? '.');
  const st = fs.statSync(workdir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) fail(o.workdir !== undefined ? ['workdir'] : [], `working directory ${workdir} is not a folder`);
  let inputFiles: InputFile[] = [];
  try {
    inputFiles = hashInputs(workdir, o.inputs, outputDir);
  } catch (err) {
    if (!(err instanceof InputsProblem)) throw err;
    fail(err.index === null ? ['inputs'] : ['inputs', err.index], err.message);
  }
  return {
    method: COMMAND_METHOD,
    run: o.run,
    inputs: o.inputs,
    inputFiles,
    mode: o.mode,
    aep: o.aep,
    ...(o.aep_tolerance !== undefined ? { aep_tolerance: o.aep_tolerance } : {}),
    params: o.params,
    workdir,
  };
}

/** The file a program name runs: a path (relative to `cwd`) or the first executable on PATH; null if none. */
export function resolveProgram(name: string, cwd: string): string | null {
  const candidates = name.includes('/')
    ? [path.resolve(cwd, name)]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((d) => path.join(d, name));
  for (const c of candidates) {
    try {
      fs.accessSync(c, fs.constants.X_OK);
      if (fs.statSync(c).isFile()) return fs.realpathSync(c);
    } catch {
      /* next */
    }
  }
  return null;
}

/**
 * Before a local run (or a shard) starts: the program `run` names must exist here, else one line
 * `file:line: optimizer.run[0]: …` (a queue run's coordinator need not have it: its workers do).
 */
export function checkCommandProgram(c: Campaign): void {
  if (!isCommandSettings(c.optimizer)) return;
  const program = c.optimizer.run[0];
  if (resolveProgram(program, c.optimizer.workdir) !== null) return;
  const raw = parseYamlText(c.sourceText, c.file, { uniqueKeys: true });
  const why = program.includes('/') ? `no executable file '${program}' in ${c.optimizer.workdir}` : `program '${program}' is not found on PATH`;
  throw errorAt(raw, ['optimizer', 'run', 0], why, c.file);
}

const inputFileSchema = z.strictObject({ path: z.string().min(1).max(4096), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** The resolved settings' shape (what a worker checks before running a job's command). */
const resolvedSchema = z.strictObject({
  method: z.literal(COMMAND_METHOD),
  run: z.array(z.string().max(MAX_ARG_CHARS)).min(1).max(MAX_ARGS),
  inputs: z.array(z.string().max(4096)).max(1000),
  inputFiles: z.array(inputFileSchema).max(10_000),
  mode: z.enum(COMMAND_MODES),
  aep: z.enum(AEP_MODES),
  aep_tolerance: z.number().min(0).optional(),
  params: paramsSchema,
  workdir: z.string().max(4096),
});

/** The first problem with resolved command settings, as {field, message}, or null. */
export function commandSettingsProblem(settings: Record<string, unknown>): { field: string; message: string } | null {
  const r = resolvedSchema.safeParse(settings);
  if (r.success) return null;
  const issue = r.error.issues[0];
  const field = issue.path.map(String).join('.');
  return { field: issue.code === 'unrecognized_keys' ? String(issue.keys[0]) : field, message: issue.message };
}
