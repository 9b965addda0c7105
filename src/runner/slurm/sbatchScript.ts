/**
 * The sbatch script that runs a campaign as a SLURM job array: array task I of 0 … N-1 runs
 * `wflo run CAMPAIGN --shard I/N --out <shards>/shard-I --workers <cpus SLURM granted>`. Every
 * array task writes only its own shard folder (its own SQLite ledger: no database is shared over
 * the network file system), so the pieces share nothing while they run; `wflo collect` merges
 * them afterwards. Paths are absolute: the script runs on compute nodes that see the same file
 * system, in whatever working directory SLURM gives them.
 */
import { InputError } from '../../util/errors.js';
import { SHARD_FOLDER_PREFIX } from './shardRun.js';

export interface ArrayJobSpec {
  campaignName: string;
  /** Absolute path of the campaign file. */
  campaignFile: string;
  /** Number of shards = array tasks. */
  shards: number;
  /** Folder holding shard-0 … shard-(N-1). */
  shardsDir: string;
  /** Folder for SLURM's per-array-task output files. */
  logDir: string;
  /** How to start wflo on a compute node, e.g. [node, /abs/dist/src/cli/main.js]. */
  command: readonly string[];
  cpusPerTask: number;
  partition?: string;
  /** HH:MM:SS, D-HH:MM:SS or minutes, as sbatch accepts. */
  timeLimit?: string;
  /** Further sbatch options, one per #SBATCH line (e.g. --mem=4G, --account=wind). */
  extraArgs?: readonly string[];
}

/** Shell single-quoting. */
export const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const TIME_LIMIT = /^(\d+-)?\d+(:\d{1,2}){0,2}$/;

/** SLURM job names: keep them short and shell-safe. */
const jobName = (campaign: string): string => `wflo-${campaign.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 64);

/** A value on an #SBATCH line: sbatch splits those lines at whitespace outside double quotes. */
function directiveValue(value: string): string {
  if (/["\n\r]/.test(value)) throw new InputError(`cannot pass ${value} to sbatch: a double quote or line break in a path`);
  return /\s/.test(value) ? `"${value}"` : value;
}

export function checkArrayJobSpec(s: ArrayJobSpec): void {
  if (!Number.isInteger(s.shards) || s.shards < 1) throw new InputError(`--array: expected a number of shards >= 1, got ${s.shards}`);
  if (!Number.isInteger(s.cpusPerTask) || s.cpusPerTask < 1) throw new InputError(`--cpus-per-task: expected an integer >= 1, got ${s.cpusPerTask}`);
  if (s.timeLimit !== undefined && !TIME_LIMIT.test(s.timeLimit)) {
    throw new InputError(`--time: expected HH:MM:SS, D-HH:MM:SS or minutes, got '${s.timeLimit}'`);
  }
  if (s.partition !== undefined && !/^[A-Za-z0-9_.,-]+$/.test(s.partition)) throw new InputError(`--partition: not a partition name: '${s.partition}'`);
  for (const a of s.extraArgs ?? []) {
    if (!a.startsWith('-') || /[\n\r]/.test(a)) throw new InputError(`--sbatch-arg: expected one sbatch option such as --mem=4G, got '${a}'`);
  }
}

export function sbatchScript(s: ArrayJobSpec): string {
  checkArrayJobSpec(s);
  const directives = [
    `--job-name=${jobName(s.campaignName)}`,
    `--array=0-${s.shards - 1}`,
    '--ntasks=1',
    `--cpus-per-task=${s.cpusPerTask}`,
    ...(s.partition ? [`--partition=${s.partition}`] : []),
    ...(s.timeLimit ? [`--time=${s.timeLimit}`] : []),
    `--output=${directiveValue(`${s.logDir}/slurm-%A_%a.out`)}`,
    ...(s.extraArgs ?? []),
  ];
  const shardDir = `${shellQuote(`${s.shardsDir}/${SHARD_FOLDER_PREFIX}`)}"$I"`;
  return [
    '#!/bin/bash',
    `# wflo campaign '${s.campaignName}' as a SLURM job array: array task I runs shard I of ${s.shards}`,
    `# (wflo run --shard I/${s.shards}) into its own folder; merge them with \`wflo collect\`.`,
    ...directives.map((d) => `#SBATCH ${d}`),
    '',
    'set -eu',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    'I="${SLURM_ARRAY_TASK_ID:?not a SLURM array task: submit this script with sbatch}"',
    `exec ${s.command.map(shellQuote).join(' ')} run ${shellQuote(s.campaignFile)} \\`,
    `  --shard "$I/${s.shards}" --out ${shardDir} \\`,
    `  --workers "\${SLURM_CPUS_PER_TASK:-${s.cpusPerTask}}" --log-every 30`,
    '',
  ].join('\n');
}
