/** `wflo collect CAMPAIGN.yaml --from 'DIR/shard-*' --out FINAL`: one campaign output from shard outputs; see src/runner/collect/collectShards.ts. */
import path from 'node:path';
import type { Command } from 'commander';
import { CheckFailed, InputError } from '../util/errors.js';

export function registerCollect(program: Command): void {
  program
    .command('collect')
    .description("merge the output folders of a campaign's shards (wflo run --shard, wflo slurm) into one campaign output")
    .argument('<campaign>', 'campaign YAML file (the one the shards ran)')
    .option('--from <folders...>', "shard output folders or quoted patterns (default: '<output>/shard-*')")
    .option('-o, --out <dir>', "collected output folder (default: the campaign's output)")
    .option('--no-export', 'do not write layouts.h5 (run `wflo export` later)')
    .option('--adopt-stale', 'verify rows computed for another spec (campaign changed) like adopted results, and import those that pass')
    .option('--aep-tolerance <rel>', 'relative AEP tolerance for --adopt-stale', '1e-6')
    .option('--json', 'print the report as JSON')
    .action(async (file: string, opts: { from?: string[]; out?: string; export: boolean; json?: boolean; adoptStale?: boolean; aepTolerance: string }) => {
      const aepTolerance = Number(opts.aepTolerance);
      if (!(aepTolerance >= 0)) throw new InputError(`--aep-tolerance: expected a number >= 0, got '${opts.aepTolerance}'`);
      const { loadCampaign } = await import('../campaign/loadCampaign.js');
      const { optimizerSettingsProblem } = await import('../runner/taskFunction.js');
      const { collectShards, collectConflictLine } = await import('../runner/collect/collectShards.js');
      const campaign = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem, outputOverride: opts.out });
      if (!campaign.outputDir) throw new InputError(`${file}: output: missing (give \`output:\` in the campaign file or --out DIR)`);
      const from = opts.from ?? [path.join(campaign.outputDir, 'shard-*')];
      const r = await collectShards(campaign, {
        from,
        outDir: campaign.outputDir,
        noExport: !opts.export,
        adoptStale: opts.adoptStale ? { aepTolerance } : undefined,
      });
      for (const p of r.problems) process.stderr.write(`wflo: collect: ${p}\n`);
      for (const f of r.folders) for (const j of f.rejections) process.stderr.write(`wflo: collect: rejected ${j.taskId} from ${f.dir}: ${j.reason}\n`);
      for (const f of r.folders) for (const k of f.conflicts) process.stderr.write(`wflo: collect: conflict: ${collectConflictLine(f.dir, k)}\n`);
      for (const f of r.folders)
        if (f.foreign > 0)
          process.stderr.write(`wflo: collect: ${f.dir}: ${f.foreign} row${f.foreign > 1 ? 's' : ''} for tasks not in this campaign; not imported\n`);
      const conflicts = r.folders.reduce((s, f) => s + f.conflicts.length, 0);
      const sum = (k: 'imported' | 'alreadyThere' | 'stale' | 'foreign' | 'adopted' | 'rejected'): number => r.folders.reduce((s, f) => s + f[k], 0);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(r)}\n`);
      } else {
        const read = r.folders.filter((f) => !f.problem).length;
        process.stdout.write(
          `${r.campaign}: ${read} of ${r.folders.length} shard folders read into ${r.outDir}: ${sum('imported')} rows imported, ` +
            `${sum('alreadyThere')} already there, ` +
            `${sum('rejected') ? `${sum('rejected')} rejected by verification, ` : ''}${conflicts ? `${conflicts} conflicting (first kept), ` : ''}` +
            `${opts.adoptStale ? `${sum('stale')} stale (${sum('adopted')} verified and adopted)` : `${sum('stale')} stale not imported`}` +
            `${sum('foreign') ? `, ${sum('foreign')} not in this campaign` : ''}\n`,
        );
        process.stdout.write(
          `${r.done}/${r.total} done, ${r.failed} failed, ${r.missing.length - r.failed} missing` +
            `${r.exported ? `; ${r.exported.rows} rows in ${r.exported.file}` : r.layoutsFile ? `; ${r.layoutsFile} unchanged` : ''}\n`,
        );
        for (const m of r.missing) process.stdout.write(`${m.taskId}\t${m.state}\n`);
      }
      if (r.missing.length > 0) {
        throw new CheckFailed(
          `${r.missing.length} of ${r.total} tasks not done${r.problems.length ? ` and ${r.problems.length} problem${r.problems.length > 1 ? 's' : ''} above` : ''}; ` +
            `\`wflo missing ${r.outDir} -o rerun.yaml\` writes a campaign for just them`,
        );
      }
      if (r.problems.length > 0) throw new CheckFailed(`every task is done, but ${r.problems.length} folder problem${r.problems.length > 1 ? 's' : ''} above`);
      const rejected = sum('rejected');
      if (rejected > 0)
        throw new CheckFailed(
          `every task is done, but ${rejected} row${rejected > 1 ? 's' : ''} from the shards failed verification above (not imported; audit.jsonl has each)`,
        );
      if (conflicts > 0)
        throw new CheckFailed(
          `every task is done, but ${conflicts} conflicting result${conflicts > 1 ? 's' : ''} above (the first one kept; both in audit.jsonl)`,
        );
    });
}
