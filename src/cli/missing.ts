/**
 * `wflo missing DIR [--write FILE]`: the tasks not done, and a campaign file to run just them.
 * Exit 0 when every task is done, 3 when some are not (like `wflo shards missing`).
 */
import type { Command } from 'commander';

export function registerMissing(program: Command): void {
  program
    .command('missing')
    .description('list the tasks of a campaign that are not done (pending, stale or failed)')
    .argument('<dir>', 'campaign output folder')
    .option('--write <file>', 'write a campaign file restricted to those tasks (run it with `wflo run FILE`)')
    .option('--json', 'print JSON: [{"taskId", "state"}]')
    .option('--force', 'replace --write FILE even if it exists and was not written by wflo')
    .action(async (dir: string, opts: { write?: string; json?: boolean; force?: boolean }) => {
      const { listMissing, writeMissingCampaign } = await import('../runner/missingTasks.js');
      if (opts.write) await (await import('../io/overwrite.js')).checkOverwrite(opts.write, !!opts.force, '--write');
      const { campaign, total, missing } = listMissing(dir);
      if (opts.json) process.stdout.write(`${JSON.stringify(missing)}\n`);
      else for (const m of missing) process.stdout.write(`${m.taskId}\t${m.state}\n`);
      const count = (state: string): number => missing.filter((m) => m.state === state).length;
      const failed = count('failed');
      process.stderr.write(`wflo: ${campaign}: ${missing.length} of ${total} tasks not done (${count('pending')} pending, ${count('stale')} stale, ${failed} failed)\n`);
      if (opts.write) {
        if (missing.length === 0) {
          process.stderr.write(`wflo: nothing missing; ${opts.write} not written\n`);
          return;
        }
        writeMissingCampaign(dir, opts.write, missing);
        process.stderr.write(`wflo: wrote ${opts.write}; run it with \`wflo run ${opts.write}${failed > 0 ? ' --retry-failed' : ''}\`\n`);
      }
      if (missing.length > 0) process.exitCode = 3;
    });
}
