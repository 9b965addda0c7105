/** `wflo run CAMPAIGN.yaml`: run (or resume) a campaign; see src/runner/runCampaign.ts. */
import path from 'node:path';
import type { Command } from 'commander';
import { InputError, RuntimeFailure, WfloError } from '../util/errors.js';
import type { Campaign } from '../campaign/campaign.js';
import type { ShardSpec } from '../campaign/shardSlice.js';
import { givenShardReadFlags, shardReadingOf, withShardReadFlags, type ShardReadCliFlags } from './shardReadFlags.js';

const AEP_MODES = ['verify', 'recompute'] as const;

function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`${flag}: expected an integer >= 1, got '${value}'`);
  return n;
}

export function registerRun(program: Command): void {
  const command = program
    .command('run')
    .description('run a campaign of layout optimizations (resumes: only tasks not done run again)')
    .argument('<campaign>', 'campaign YAML file')
    .option('--workers <n>', "worker processes (default: the campaign's workers, else one per core)")
    .option('-o, --out <dir>', "output folder (overrides the campaign's output)")
    .option('--retry-failed', 'also rerun tasks that failed in earlier runs')
    .option('--log-every <seconds>', 'progress line interval when not on a terminal', '10')
    .option('--quiet', 'no progress output')
    .option('--queue <url>', 'run tasks on `wflo worker`s through Redis: redis://[user:pass@]HOST:PORT[/DB] (default: $WFLO_QUEUE)')
    .option('--dry-run', 'check every input, print the tasks per farm × type and what is done/stale/missing; write nothing')
    .option(
      '--adopt <path...>',
      "verify and adopt results from elsewhere before running: a wflo layouts.h5, a merged rescue file, another pipeline's HDF5 files or a folder of them (read like `wflo shards check`, with the options below)",
    )
    .option(
      '--aep <mode>',
      "adopted AEPs: verify (default: must agree with wflo's recomputation within --aep-tolerance) | recompute (keep the layout, store wflo's AEP and theirs beside it)",
    )
    .option('--aep-tolerance <rel>', 'relative AEP tolerance when verifying adopted results', '1e-6')
    .option(
      '--tolerance-m <m>',
      "metres an adopted layout may lie outside the site or inside an exclusion zone, or a pair short of the minimum spacing (optimizer slack; default 1e-6, the optimizer's own; wflo's own rows are never loosened)",
    )
    .option(
      '--recompute-adopted',
      'compute again the tasks whose rows were adopted (they stay done through a change of the optimizer or its program; a change of their farm or farm type makes them stale anyway)',
    )
    .option(
      '--recheck <fraction>',
      "with --queue: share of the workers' results the coordinator recomputes to prove them honest, besides each worker's first (0 turns it off; default 0.01, 0 for method: command, whose program may not be installed here)",
    )
    .option('--shard <I/N>', 'run only shard I of N (0 <= I < N) of the task grid, into --out or <output>/shard-<I>')
    .option('--json', 'print the summary as one JSON object on stdout (with --dry-run: the dry-run report, as `wflo validate --json`)');
  withShardReadFlags(command, '--adopt files').action(
    async (
      file: string,
      opts: ShardReadCliFlags & {
        workers?: string;
        out?: string;
        retryFailed?: boolean;
        logEvery: string;
        quiet?: boolean;
        shard?: string;
        adopt?: string[];
        aep?: string;
        aepTolerance: string;
        toleranceM?: string;
        recomputeAdopted?: boolean;
        dryRun?: boolean;
        queue?: string;
        recheck?: string;
        json?: boolean;
      },
    ) => {
      const readFlags = givenShardReadFlags(opts);
      if (!opts.adopt && (readFlags.length > 0 || opts.aep !== undefined || opts.toleranceM !== undefined)) {
        throw new InputError(`${readFlags[0] ?? (opts.aep !== undefined ? '--aep' : '--tolerance-m')} applies to the files of --adopt; give --adopt PATH...`);
      }
      if (opts.aep !== undefined && !(AEP_MODES as readonly string[]).includes(opts.aep))
        throw new InputError(`--aep '${opts.aep}': expected ${AEP_MODES.join(' or ')}`);
      const adoptAep = opts.aep as (typeof AEP_MODES)[number] | undefined;
      if (opts.recomputeAdopted && opts.adopt)
        throw new InputError('--recompute-adopted with --adopt would adopt again what it asks to compute; give one of them');
      const reading = opts.adopt ? shardReadingOf(opts) : null;
      const workers = opts.workers !== undefined ? positiveInt('--workers', opts.workers) : undefined;
      const logEvery = Number(opts.logEvery);
      if (!(logEvery > 0)) throw new InputError(`--log-every: expected a positive number of seconds, got '${opts.logEvery}'`);
      const aepTolerance = Number(opts.aepTolerance);
      if (!(aepTolerance >= 0)) throw new InputError(`--aep-tolerance: expected a number >= 0, got '${opts.aepTolerance}'`);
      const adoptToleranceM = opts.toleranceM === undefined ? undefined : Number(opts.toleranceM);
      if (adoptToleranceM !== undefined && !(adoptToleranceM >= 0 && Number.isFinite(adoptToleranceM)))
        throw new InputError(`--tolerance-m: expected a number of metres >= 0, got '${opts.toleranceM}'`);
      const recheck = opts.recheck === undefined ? undefined : Number(opts.recheck);
      if (recheck !== undefined && !(recheck >= 0 && recheck <= 1))
        throw new InputError(`--recheck: expected a fraction between 0 and 1, got '${opts.recheck}'`);
      // The --adopt files are read by probe processes from now on, while this one loads the
      // campaign and the runner (a dry run keeps only their task ids).
      const adoptSources = opts.adopt && reading ? await import('../shards/adoptionSources.js') : null;
      const stopReading = new AbortController();
      const reading$ = adoptSources
        ? adoptSources.readAdoptionFiles(opts.adopt!, { ...reading!, aep: adoptAep, keepRecords: true, signal: stopReading.signal }).then(
            (files) => ({ files }),
            (error: unknown) => ({ error }),
          )
        : null;
      const adoptionFor = async (c: Campaign) => {
        const read = await reading$!;
        if ('error' in read) throw read.error;
        return adoptSources!.describeAdoption(read.files, c);
      };
      let loaded: Campaign;
      let shard: ShardSpec | null;
      let shardRun: typeof import('../runner/slurm/shardRun.js') | null;
      try {
        // Loaded here, not at the top: `wflo --help` and the other commands start faster.
        const { loadCampaign } = await import('../campaign/loadCampaign.js');
        const { optimizerSettingsProblem } = await import('../runner/taskFunction.js');
        loaded = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem, outputOverride: opts.out });
        shard = opts.shard === undefined ? null : (await import('../campaign/shardSlice.js')).parseShardSpec(opts.shard);
        shardRun = shard ? await import('../runner/slurm/shardRun.js') : null;
      } catch (err) {
        stopReading.abort();
        const read = await reading$;
        if (read && 'files' in read) read.files.close();
        throw err;
      }
      if (opts.dryRun) {
        // report and write nothing (a shard: its slice, in its folder)
        const { dryRunWithRecovery, formatDryRun } = await import('../runner/dryRun.js');
        const { restrictToShard } = await import('../campaign/shardSlice.js');
        const checked =
          shard && shardRun
            ? { ...restrictToShard(loaded, shard), outputDir: opts.out !== undefined ? path.resolve(opts.out) : shardRun.defaultShardDir(loaded, shard.index) }
            : loaded;
        // The records pass the same gate a run applies (nothing is committed), so the preview says what the run adopts.
        const scan = reading$ ? await adoptionFor(checked) : null;
        try {
          const adopt = scan
            ? {
                sources: scan.sources.map((s) => ({ label: s.label, files: s.files.length, records: s.records, taskIds: s.taskIds, findings: s.findings })),
                adoption: scan.adoption,
                gate: { aepTolerance, adoptAep, adoptToleranceM },
              }
            : undefined;
          const report = await dryRunWithRecovery(checked, adopt, { recomputeAdopted: opts.recomputeAdopted });
          process.stdout.write(`${opts.json ? JSON.stringify({ kind: 'campaign', ...report }) : formatDryRun(report)}\n`);
        } finally {
          scan?.close();
        }
        return;
      }
      // A shard runs its slice into its own folder.
      const campaign = shard && shardRun ? shardRun.prepareShardRun(loaded, shard, opts.out) : loaded;
      const write = (line: string): void => {
        process.stderr.write(`${line}\n`);
      };
      // What the --adopt files hold is said as soon as they are read (before the runner loads:
      // loading it would hold up the probe processes' answers).
      const scanning = reading$
        ? await adoptionFor(campaign).then(
            (scan) => {
              for (const line of scan.findings) write(`wflo: ${line}`);
              return { scan };
            },
            (error: unknown) => ({ error }),
          )
        : null;
      const { runCampaign } = await import('../runner/runCampaign.js');
      const { barReporter, lineReporter, formatDuration } = await import('../runner/progress.js');
      const { abortOnInterrupt } = await import('../runner/interrupts.js');
      const progress = opts.quiet ? undefined : process.stderr.isTTY ? barReporter(process.stderr) : lineReporter(write, logEvery * 1000);
      const interrupt = abortOnInterrupt();
      let s;
      let adoptScan: import('../shards/adoptionSources.js').AdoptionScan | undefined;
      try {
        if (scanning) {
          if ('error' in scanning) throw scanning.error;
          adoptScan = scanning.scan;
        }
        const executor = await (await import('../runner/executors/bullmq/queueOption.js')).queueExecutor(opts.queue, write);
        s = await runCampaign(campaign, {
          workers,
          retryFailed: opts.retryFailed,
          progress,
          notice: write,
          signal: interrupt.signal,
          executor,
          adopt: adoptScan?.adoption,
          aepTolerance,
          adoptAep,
          adoptToleranceM,
          recomputeAdopted: opts.recomputeAdopted,
          recheck,
        });
      } finally {
        adoptScan?.close();
        interrupt.dispose();
      }
      const exported = s.exported ? `; ${s.exported.rows} rows in ${s.layoutsFile}` : s.exportError ? `; layouts.h5 not refreshed: ${s.exportError}` : '';
      const line =
        `${campaign.name}: ${s.done}/${s.total} done (${s.doneThisRun} this run), ${s.failed} failed, ` +
        `${s.pending + s.stale} not run, in ${formatDuration(s.seconds)}${exported}\n`;
      if (opts.json) {
        const { runSummaryJson } = await import('../runner/runSummaryJson.js');
        process.stderr.write(line);
        process.stdout.write(`${JSON.stringify(runSummaryJson(campaign.name, s))}\n`);
      } else {
        process.stdout.write(line);
      }
      if (s.stopReason === 'interrupted') {
        const behind =
          s.exported && s.exported.rows < s.done
            ? ` (layouts.h5 holds ${s.exported.rows} of them: \`wflo export ${s.outputDir}\` or the next run brings it up to date)`
            : '';
        throw new WfloError(`interrupted: ${s.done}/${s.total} tasks done and kept${behind}; run the same command to resume`, 130);
      }
      if (s.stopReason === 'max_failures') {
        throw new RuntimeFailure(
          `stopped: ${s.failedThisRun} tasks failed in this run (max_failures: ${campaign.maxFailures}); see \`wflo status ${s.outputDir}\``,
        );
      }
      if (s.stopReason === 'incomplete') {
        throw new RuntimeFailure(`${s.failed} tasks failed; see \`wflo status ${s.outputDir}\`, rerun them with --retry-failed`);
      }
    },
  );
}
