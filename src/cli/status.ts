/**
 * `wflo status DIR|CAMPAIGN.yaml [--json] [--watch]`: a campaign's progress, from its ledger. `--watch` refreshes
 * while a run is live and ends (exit 0) once the campaign is complete or no run is live any more.
 */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('done / failed / running / pending / stale per farm and type, failures, ETA (works during a run)')
    .argument('<dir>', 'campaign output folder, or the campaign file (its output folder)')
    .option('--json', 'print JSON (with --watch: one JSON object per line)')
    .option('--watch', 'refresh while a run is live; ends when the campaign is complete or the run is no longer live')
    .option('--interval <seconds>', 'refresh interval for --watch', '2')
    .option('--queue <url>', 'also show the Redis queue: depth and workers (default: $WFLO_QUEUE)') // issue 9
    .action(async (given: string, opts: { json?: boolean; watch?: boolean; interval: string }) => {
      const dir = await (await import('../runner/campaignFolder.js')).campaignFolderOf(given);
      const intervalS = Number(opts.interval);
      if (!(intervalS > 0)) throw new InputError(`--interval: expected a positive number of seconds, got '${opts.interval}'`);
      const { formatStatus, readStatus } = await import('../runner/campaignStatus.js');
      const clear = opts.watch && !opts.json && process.stdout.isTTY;
      for (;;) {
        const s = readStatus(dir);
        const wantQueue = (opts as { queue?: string }).queue ?? process.env.WFLO_QUEUE; // issue 9: load BullMQ only when asked
        const q = wantQueue ? await import('../runner/executors/bullmq/queueStatus.js') : null;
        const queue = q ? await q.queueStatusFor((opts as { queue?: string }).queue) : null;
        const text = opts.json ? JSON.stringify(queue ? { ...s, queue } : s) : `${formatStatus(s)}${q && queue ? `\n\n${q.formatQueueStatus(queue)}` : ''}`;
        process.stdout.write(`${clear ? '\x1b[H\x1b[2J' : ''}${text}\n`);
        if (!opts.watch || s.complete) return;
        if (s.run?.state !== 'running') {
          if (!opts.json) process.stdout.write(`no run is live in ${dir}${s.run ? ` (last run: ${s.run.endState ?? s.run.state})` : ''}; --watch ends\n`);
          return;
        }
        if (!opts.json && !clear) process.stdout.write('\n');
        await new Promise((r) => setTimeout(r, intervalS * 1000));
      }
    });
}
