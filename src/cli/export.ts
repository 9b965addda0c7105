/** `wflo export DIR [-o FILE]`: rebuild layouts.h5 from a campaign's ledger. */
import type { Command } from 'commander';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('rebuild layouts.h5 from the ledger of a campaign output folder (safe while a run is going on)')
    .argument('<dir>', 'campaign output folder')
    .option('-o, --output <file>', 'output file (default: DIR/layouts.h5)')
    .action(async (dir: string, opts: { output?: string }) => {
      const { exportLedger } = await import('../runner/exporter.js');
      const r = await exportLedger(dir, opts.output);
      process.stdout.write(`wrote ${r.file}: ${r.rows} rows of ${r.expected} tasks${r.complete ? ' (complete)' : ''}, ${r.bytes} bytes, in ${r.seconds.toFixed(2)} s\n`);
    });
}
