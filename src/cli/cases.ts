/** `wflo cases [--json]`: the built-in cases, turbines and wind resources with their parameters. */
import type { Command } from 'commander';

export function registerCases(program: Command): void {
  program
    .command('cases')
    .description('list the built-in cases, turbines and wind resources with their parameters')
    .option('--json', 'print JSON: {"cases": [...], "turbines": [...], "winds": [...]}')
    .action(async (opts: { json?: boolean }) => {
      const { builtinCatalog, formatCatalog } = await import('../io/builtinCatalog.js');
      const catalog = builtinCatalog();
      process.stdout.write(`${opts.json ? JSON.stringify(catalog) : formatCatalog(catalog)}\n`);
    });
}
