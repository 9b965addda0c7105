/** `wflo dashboard DIR [--port P] [--host H]`: a live, read-only page for a campaign. */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

export function registerDashboard(program: Command): void {
  program
    .command('dashboard')
    .description('serve a live read-only page for a campaign (report views + running tasks, workers, ETA)')
    .argument('<dir>', 'campaign output folder (holding ledger.sqlite), or the campaign file (its output folder)')
    .option('--port <port>', 'TCP port (0: any free port)', '8765')
    .option('--host <host>', 'address to bind; anything but loopback requires the printed token', '127.0.0.1')
    .action(async (given: string, opts: { port: string; host: string }) => {
      const dir = await (await import('../runner/campaignFolder.js')).campaignFolderOf(given);
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InputError(`--port: expected 0 to 65535, got '${opts.port}'`);
      const { startDashboard } = await import('../views/dashboardServer.js');
      const d = await startDashboard({ dir, host: opts.host, port, onNotice: (line) => process.stderr.write(`wflo dashboard: ${line}\n`) });
      process.stdout.write(`wflo dashboard for ${dir}: ${d.url}\n`);
      if (d.token) process.stdout.write(`token: ${d.token} (required: bound to ${d.host}, not loopback)\n`);
      process.stdout.write('Ctrl-C to stop\n');
      await new Promise<void>((resolve) => {
        const stop = () => {
          void d.close().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
