/**
 * `wflo missing DIR [-o FILE]`: the tasks not done, and a campaign file to run just them.
 * Exit 0 when every task is done, 3 when some are not (like `wflo shards missing`).
 */
import type { Command } from 'commander';
import { outFlagGiven, withOutFlag } from './outFlag.js';

export function registerMissing(program: Command): void {
  const command = program
    .command('missing')
    .description('list the tasks of a campaign that are not done (pending, stale or failed)')
    .argument('<dir>', 'campaign output folder, or the campaign file (its output folder)')
    .option('--json', 'print JSON: [{"taskId", "state"}, with "attempts" and "error" for a failed task]')
    .option('--force', 'replace -o FILE even if it exists and was not written by wflo');
  withOutFlag(command, 'file', 'write a campaign file restricted to those tasks (run it with `wflo run FILE`)', ['--write']).action(
    async (folderOrCampaign: string, flags: { json?: boolean; force?: boolean }) => {
      const dir = await (await import('../runner/campaignFolder.js')).campaignFolderOf(folderOrCampaign);
      const given = outFlagGiven(flags, ['--write']);
      const opts = { ...flags, write: given?.path };
      const { listMissing, writeMissingCampaign } = await import('../runner/missingTasks.js');
      if (opts.write) await (await import('../io/overwrite.js')).checkOverwrite(opts.write, !!opts.force, given!.flag);
      const { campaign, total, missing } = listMissing(dir);
      if (opts.json) process.stdout.write(`${JSON.stringify(missing)}\n`);
      else
        for (const m of missing)
          process.stdout.write(
            `${m.taskId}\t${m.state}${m.error !== undefined ? `\tafter ${m.attempts} attempt${m.attempts === 1 ? '' : 's'}: ${m.error}` : ''}\n`,
          );
      const count = (state: string): number => missing.filter((m) => m.state === state).length;
      const failed = count('failed');
      process.stderr.write(
        `wflo: ${campaign}: ${missing.length} of ${total} tasks not done (${count('pending')} pending, ${count('stale')} stale, ${failed} failed)\n`,
      );
      if (opts.write) {
        if (missing.length === 0) {
          process.stderr.write(`wflo: nothing missing; ${opts.write} not written\n`);
          return;
        }
        const { namesFilesOutside } = writeMissingCampaign(dir, opts.write, missing);
        // In another folder, the file names the campaign's own files outside its folder: the file door refuses that unless allowed.
        const before = namesFilesOutside ? ' --allow-include-outside' : '';
        process.stderr.write(
          `wflo: wrote ${opts.write}; run it with \`wflo${before} run ${opts.write}${failed > 0 ? ' --retry-failed' : ''}\`${namesFilesOutside ? " (it names the campaign's files, outside its own folder)" : ''}\n`,
        );
      }
      if (missing.length > 0) process.exitCode = 3;
    },
  );
}
