/** `wflo status DIR [--json] [--watch]`: a campaign's progress, from its ledger. */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('done / failed / running / pending / stale per farm and type, failures, ETA (works during a run)')
    .argument('<dir>', 'campaign output folder')
    .option('--json', 'print JSON (with --watch: one JSON object per line)')
    .option('--watch', 'refresh until the campaign is complete or Ctrl-C')
    .option('--interval <seconds>', 'refresh interval for --watch', '2')
    .action(async (dir: string, opts: { json?: boolean; watch?: boolean; interval: string }) => {
      const intervalS = Number(opts.interval);
      if (!(intervalS > 0)) throw new InputError(`--interval: expected a positive number of seconds, got '${opts.interval}'`);
      const { formatStatus, readStatus } = await import('../runner/campaignStatus.js');
      const clear = opts.watch && !opts.json && process.stdout.isTTY;
      for (;;) {
        const s = readStatus(dir);
        const text = opts.json ? JSON.stringify(s) : formatStatus(s);
        process.stdout.write(`${clear ? '\x1b[H\x1b[2J' : ''}${text}\n`);
        if (!opts.watch || s.complete) return;
        if (!opts.json && !clear) process.stdout.write('\n');
        await new Promise((r) => setTimeout(r, intervalS * 1000));
      }
    });
}
