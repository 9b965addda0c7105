/**
 * `wflo slurm CAMPAIGN.yaml --array N …`: run a campaign as a SLURM job array (one array task per
 * shard), and `wflo slurm status CAMPAIGN.yaml`: its progress. See src/runner/slurm/.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`${flag}: expected an integer >= 1, got '${value}'`);
  return n;
}

const collectArgs = (value: string, previous: string[] = []): string[] => [...previous, value];

async function loadForSlurm(file: string) {
  const { loadCampaign } = await import('../campaign/loadCampaign.js');
  const { optimizerSettingsProblem } = await import('../runner/taskFunction.js');
  return loadCampaign(file, { optimizerProblem: optimizerSettingsProblem });
}

interface SubmitOptions {
  array?: string;
  partition?: string;
  time?: string;
  cpusPerTask?: string;
  sbatchArg?: string[];
  print?: boolean;
  out?: string;
}

export function registerSlurm(program: Command): void {
  const slurm = program
    .command('slurm')
    .description('run a campaign as a SLURM job array (one array task per shard; merge with `wflo collect`)')
    .argument('<campaign>', 'campaign YAML file')
    .option('--array <n>', 'number of shards = array tasks (required)')
    .option('--partition <p>', 'SLURM partition')
    .option('--time <limit>', 'time limit of each array task (HH:MM:SS or D-HH:MM:SS)')
    .option('--cpus-per-task <c>', "CPUs of each array task = its worker processes (default: the campaign's workers, else 1)")
    .option('--sbatch-arg <option>', 'another sbatch option, e.g. --sbatch-arg=--mem=4G (repeatable)', collectArgs)
    .option('-o, --out <dir>', "folder for shard-0 … shard-(N-1), logs and job records (default: the campaign's output)")
    .option('--print', 'print the job script and submit nothing')
    .action(async (file: string, opts: SubmitOptions) => {
      if (opts.array === undefined) throw new InputError('--array <n>: required (the number of shards)');
      const shards = positiveInt('--array', opts.array);
      const cpusPerTask = opts.cpusPerTask !== undefined ? positiveInt('--cpus-per-task', opts.cpusPerTask) : undefined;
      const campaign = await loadForSlurm(file);
      const { arrayJobSpec, submitArrayJob } = await import('../runner/slurm/arrayJob.js');
      const { sbatchScript } = await import('../runner/slurm/sbatchScript.js');
      const options = {
        shards,
        cpusPerTask,
        partition: opts.partition,
        timeLimit: opts.time,
        extraArgs: opts.sbatchArg,
        shardsDir: opts.out,
        command: [process.execPath, fs.realpathSync(process.argv[1])],
      };
      if (opts.print) {
        process.stdout.write(sbatchScript(arrayJobSpec(campaign, options)));
        return;
      }
      const { jobId, scriptFile, spec } = submitArrayJob(campaign, options);
      process.stdout.write(`${jobId}\n`);
      process.stderr.write(
        `wflo: submitted job ${jobId}: ${shards} array tasks of ${campaign.name} (script ${scriptFile}); ` +
          `follow it with \`wflo slurm status ${file}\`, merge with \`wflo collect ${file} --from '${spec.shardsDir}/shard-*'\`\n`,
      );
    });

  slurm
    .command('status')
    .description('progress of a campaign submitted with `wflo slurm`: shard ledgers, squeue, and sacct when the cluster keeps accounting')
    .argument('<campaign>', 'campaign YAML file')
    .option('-o, --out <dir>', "the folder given to `wflo slurm --out` (default: the campaign's output)")
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { out?: string; json?: boolean }) => {
      const campaign = await loadForSlurm(file);
      // `--out` after `status` is taken by the parent command (it has the same option): read both.
      const dir = opts.out ?? (slurm.opts() as { out?: string }).out ?? campaign.outputDir;
      if (!dir) throw new InputError(`${file}: output: missing (give \`output:\` in the campaign file or --out DIR)`);
      const { readSlurmStatus, formatSlurmStatus } = await import('../runner/slurm/slurmStatus.js');
      const s = readSlurmStatus(campaign, dir);
      process.stdout.write(`${opts.json ? JSON.stringify(s) : formatSlurmStatus(s)}\n`);
    });
}
