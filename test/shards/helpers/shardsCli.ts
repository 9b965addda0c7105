/**
 * A `wflo` program with the shard doctor's commands plus `run` and `export` (for the incident
 * test), wired like src/cli/main.ts (same runCli error mapping), so these tests do not depend on
 * every other command building. Runs only with WFLO_TEST_CLI=1 (harmless when imported).
 */
import { Command } from 'commander';
import { runCli } from '../../../src/cli/errors.js';
import { registerShards } from '../../../src/cli/shards.js';
import { registerRun } from '../../../src/cli/run.js';
import { registerExport } from '../../../src/cli/export.js';

if (process.env.WFLO_TEST_CLI === '1') {
  const program = new Command().name('wflo').showHelpAfterError('(run with --help for usage)');
  registerShards(program);
  registerRun(program);
  registerExport(program);
  await runCli(program, process.argv);
}
