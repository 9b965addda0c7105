/**
 * `wflo shards check|merge|missing`: the shard doctor for worker HDF5 files written by any
 * pipeline (logic in src/shards/). Exit codes: 0 fine, 3 problems found or left (check: any
 * file not valid or record unusable; merge: aborted by policy, or merged with invalid inputs
 * skipped or quarantined; missing: tasks missing), 2 bad usage, 1 runtime failure. No command
 * replaces a file it did not write itself without --force.
 */
import type { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { CheckFailed, InputError } from '../util/errors.js';
import { shardFilesOfAll } from '../shards/shardScan.js';
import { checkReportJson, checkShards } from '../shards/shardCheck.js';
import { formatCheckText, formatMergeSummary } from '../shards/shardText.js';
import { CONFLICT_RULES, type ConflictRule } from '../shards/duplicates.js';
import { INVALID_POLICIES, type InvalidPolicy, type ShardFileReport } from '../shards/shardTypes.js';
import { intFlag, shardReadingOf, withShardReadFlags, type ShardReadCliFlags } from './shardReadFlags.js';
import { outFlag, outFlagGiven, withOutFlag } from './outFlag.js';

interface CommonFlags extends ShardReadCliFlags {
  aepTolerance?: string;
  toleranceM?: string;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new InputError(`${flag} '${value}': expected ${allowed.join(', ')}`);
  return value as T;
}

function withReadFlags(command: Command): Command {
  return withShardReadFlags(command, 'worker files')
    .option('--aep-tolerance <rel>', "with --expect CAMPAIGN: largest relative difference between a record's AEP and the recomputed one (default 1e-6)")
    .option(
      '--tolerance-m <m>',
      "with --expect CAMPAIGN: metres a record's turbine may lie outside the site or inside an exclusion zone, or a pair short of the minimum spacing (optimizer slack; default 1e-6, the optimizer's own)",
    );
}

function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InputError(`${flag}: expected a number >= 0, got '${value}'`);
  return n;
}

/** Read options; with a campaign, every record is verified against it (campaign/verifyRecord.ts). */
function common(opts: CommonFlags, campaignFile?: string) {
  const reading = shardReadingOf(opts);
  const aepTolerance = positiveNumber('--aep-tolerance', opts.aepTolerance);
  if (aepTolerance !== undefined && !campaignFile)
    throw new InputError('--aep-tolerance needs --expect CAMPAIGN.yaml (the AEP is recomputed with its farm model)');
  const toleranceM = positiveNumber('--tolerance-m', opts.toleranceM);
  if (toleranceM !== undefined && !campaignFile) throw new InputError('--tolerance-m needs --expect CAMPAIGN.yaml (the layout is checked against its sites)');
  if (campaignFile) {
    reading.read.verify = { campaignFile: path.resolve(campaignFile), aepTolerance: aepTolerance ?? 1e-6, ...(toleranceM !== undefined ? { toleranceM } : {}) };
  }
  return reading;
}

function progressTo(enabled: boolean) {
  if (!enabled || !process.stderr.isTTY) return undefined;
  let last = 0;
  return (done: number, total: number, _report: ShardFileReport) => {
    const now = Date.now();
    if (now - last < 200 && done < total) return;
    last = now;
    process.stderr.write(`\rchecked ${done}/${total} files${done === total ? '\n' : ''}`);
  };
}

export function registerShards(program: Command): void {
  const shards = program.command('shards').description('check, merge and recover worker HDF5 files from any pipeline');
  // Subcommands do not inherit an exitOverride set on the root later (in runCli): without this,
  // commander's own usage errors would call process.exit(1) instead of reaching runCli (exit 2).
  shards.exitOverride();

  withReadFlags(shards.command('check').exitOverride().argument('<paths...>', 'worker files and directories of worker files'))
    .description(
      'classify every worker file (empty, no_signature, truncated, unreadable, placeholder_only, schema_mismatch, rejected, valid), list rejected records and report duplicate keys',
    )
    .option('--expect <campaign.yaml>', 'verify every record against this campaign (turbine count, boundary, spacing, AEP)')
    .option('--json', 'print a JSON report')
    .action(async (paths: string[], opts: CommonFlags & { json?: boolean; expect?: string }) => {
      if (opts.expect) {
        const { expectedGrid } = await import('../shards/expectedGrid.js');
        expectedGrid({ campaign: opts.expect }); // a bad campaign file is exit 2 here, before any file is read
      }
      const { read, jobs, timeoutMs, pattern } = common(opts, opts.expect);
      const files = shardFilesOfAll(paths, pattern);
      const report = await checkShards({ files, read, jobs, timeoutMs, onFile: progressTo(!opts.json) });
      if (opts.json) process.stdout.write(`${JSON.stringify(checkReportJson(report), null, 1)}\n`);
      else process.stdout.write(formatCheckText(report));
      if (report.problems) process.exitCode = 3;
    });

  withOutFlag(
    withReadFlags(shards.command('merge').exitOverride().argument('<paths...>', 'worker files and directories of worker files')),
    'file',
    'output HDF5 file (required)',
    ['--output'],
  )
    .description('merge the valid records into one wflo layouts file, atomically; audit report next to it')
    .option(
      '--on-invalid <policy>',
      'abort | skip | quarantine (move invalid files to quarantine/ beside them); rejected records count as invalid input',
      'abort',
    )
    .option('--max-invalid <n>', 'abort when more than N files are invalid')
    .option('--on-conflict <rule>', 'duplicates with different values: error | first | best-aep', 'error')
    .option('--cleanup', 'delete fully merged inputs after the output is verified')
    .option('--force', 'replace an existing output file')
    .option('--name <name>', "campaign_name stamped into the output (default: the campaign's name with --expect, else the directory name)")
    .option('--expect <campaign.yaml>', 'expected tasks: verify every record against this campaign; sets n_expected and complete in the output')
    .option('--json', 'print the outcome as one JSON object on stdout (the summary text goes to stderr)')
    .action(
      async (
        paths: string[],
        opts: CommonFlags & {
          onInvalid: string;
          maxInvalid?: string;
          onConflict: string;
          cleanup?: boolean;
          force?: boolean;
          name?: string;
          expect?: string;
          json?: boolean;
        },
      ) => {
        const outputFile = outFlag(opts, ['--output']);
        if (outputFile === undefined) throw new InputError('-o, --out <file>: required (the merged HDF5 file to write)');
        const { read, jobs, timeoutMs, pattern } = common(opts, opts.expect);
        const onInvalid = oneOf<InvalidPolicy>('--on-invalid', opts.onInvalid, INVALID_POLICIES);
        const onConflict = oneOf<ConflictRule>('--on-conflict', opts.onConflict, CONFLICT_RULES);
        const maxInvalid = intFlag('--max-invalid', opts.maxInvalid, 0);
        // Loaded on use: these pull in h5wasm and the campaign loader, which other commands never need.
        const { mergeShards } = await import('../shards/shardMerge.js');
        const { expectedGrid } = await import('../shards/expectedGrid.js');
        const grid = opts.expect ? expectedGrid({ campaign: opts.expect }) : undefined;
        const expectedTaskIds = grid ? new Set(grid.tasks.map((t) => t.taskId)) : undefined;
        const output = path.resolve(outputFile);
        const files = shardFilesOfAll(paths, pattern, [output, `${output}.audit.jsonl`, `${output}.audit.txt`]);
        const options = {
          inputs: paths,
          files,
          output,
          read,
          onInvalid,
          maxInvalid,
          onConflict,
          cleanup: !!opts.cleanup,
          force: !!opts.force,
          campaignName: opts.name ?? grid?.campaign?.name,
          expectedTaskIds,
          jobs,
          timeoutMs,
          onFile: progressTo(true),
        };
        try {
          const report = await mergeShards(options);
          if (opts.json) {
            const { mergeReportJson } = await import('../shards/mergeReportJson.js');
            process.stderr.write(formatMergeSummary(report, options));
            process.stdout.write(`${JSON.stringify(mergeReportJson(report))}\n`);
          } else {
            process.stdout.write(formatMergeSummary(report, options));
          }
          if (report.problems) process.exitCode = 3;
        } catch (err) {
          if (err instanceof CheckFailed) process.stderr.write(`wflo: audit written to ${output}.audit.jsonl\n`);
          throw err;
        }
      },
    );

  withOutFlag(withReadFlags(shards.command('missing').exitOverride()), 'file', 'write a campaign file for the missing tasks (needs --expect CAMPAIGN)', [
    '--write',
  ])
    .description('list the expected (farm, type, seed) tasks with no usable record, and write a campaign file for just those')
    .option('--expect <campaign.yaml>', 'expected tasks: a campaign file (or give --farms, --types and --seeds)')
    .option('--farms <ranges>', 'expected farm ids, e.g. 0-9')
    .option('--types <ranges>', 'expected farm type ids, e.g. 0-4')
    .option('--seeds <ranges>', 'expected seeds, e.g. 0-59')
    .requiredOption('--from <file|dir>', 'a merged layouts file or a directory of worker files')
    .option('--force', 'let -o replace a file that `shards missing` did not write')
    .option('--json', 'print JSON: {"expected", "found", "missing": [task ids], "unexpected"}')
    .action(async (flags: CommonFlags & { expect?: string; farms?: string; types?: string; seeds?: string; from: string; force?: boolean; json?: boolean }) => {
      const given = outFlagGiven(flags, ['--write']);
      const opts = { ...flags, write: given?.path };
      const { expectedGrid } = await import('../shards/expectedGrid.js');
      const { findMissing } = await import('../shards/shardsMissing.js');
      const { writeMissingTasksCampaign, writtenByShardsMissing } = await import('../shards/missingCampaign.js');
      const grid = expectedGrid({ campaign: opts.expect, farms: opts.farms, types: opts.types, seeds: opts.seeds });
      if (opts.write && !grid.campaign) {
        throw new InputError(
          `${given!.flag} needs the campaign to copy farms, farm_types and optimizer from: pass --expect CAMPAIGN.yaml (ranges may be added to restrict it)`,
        );
      }
      if (opts.write && fs.existsSync(opts.write) && !opts.force && !writtenByShardsMissing(opts.write)) {
        throw new InputError(`${given!.flag} ${opts.write}: the file exists and was not written by \`wflo shards missing\` (use --force to replace it)`);
      }
      const { read, jobs, timeoutMs, pattern } = common(opts, grid.campaign?.file);
      const report = await findMissing({ grid, from: opts.from, pattern, read, jobs, timeoutMs });
      const ids = report.missing.map((t) => t.taskId);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ expected: report.expected, found: report.found, missing: ids, unexpected: report.unexpected })}\n`);
      } else {
        for (const id of ids) process.stdout.write(`${id}\n`);
      }
      const rejected =
        report.rejected > 0
          ? `, ${report.rejected} records rejected${read.verify ? ' by the checks against the campaign' : ''} (see \`wflo shards check\`)`
          : '';
      process.stderr.write(
        `wflo: ${grid.description}: ${report.missing.length} of ${report.expected} tasks missing in ${opts.from} (${report.found} found, ${report.unexpected} outside the grid${rejected})\n`,
      );
      if (opts.write) {
        if (ids.length === 0) {
          process.stderr.write(`wflo: nothing missing; ${opts.write} not written\n`);
        } else {
          writeMissingTasksCampaign(
            grid.campaign!,
            opts.write,
            ids,
            `Written by \`wflo shards missing\` on ${new Date().toISOString()}:\nthe ${ids.length} tasks of ${path.basename(grid.campaign!.file)} with no usable record in ${opts.from}.`,
          );
          process.stderr.write(`wflo: wrote ${opts.write}; run it with \`wflo run ${opts.write}\`\n`);
        }
      }
      if (ids.length > 0) process.exitCode = 3;
    });
}
