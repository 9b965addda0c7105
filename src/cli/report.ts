/** `wflo report DIR -o report.html`: a self-contained HTML report of a campaign (opens offline). */
import type { Command } from 'commander';
import { outFlag, withOutFlag } from './outFlag.js';

export function registerReport(program: Command): void {
  const command = program
    .command('report')
    .description('write a self-contained HTML report of a campaign: status, AEP distributions, best/worst layouts, failures, throughput')
    .argument('<dir>', 'campaign output folder (holding ledger.sqlite), or the campaign file (its output folder)')
    .option('--json', 'print what was written as one JSON object on stdout');
  withOutFlag(command, 'file', 'output HTML file (default: report.html)', ['--output']).action(async (given: string, opts: { json?: boolean }) => {
    const dir = await (await import('../runner/campaignFolder.js')).campaignFolderOf(given);
    const output = outFlag(opts, ['--output']) ?? 'report.html';
    const { writeReport } = await import('../views/writeReport.js');
    const r = await writeReport(dir, output);
    const line = `wrote ${r.file}: ${r.done}/${r.total} done, ${r.failed} failed; ${r.charts} charts, ${r.layouts} layout plots, ${(r.bytes / 1e6).toFixed(2)} MB\n`;
    if (opts.json) {
      process.stderr.write(line);
      process.stdout.write(`${JSON.stringify(r)}\n`);
    } else {
      process.stdout.write(line);
    }
  });
}
