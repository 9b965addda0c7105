/**
 * A `wflo` program with only the runner's commands (run, export, status, missing), wired exactly
 * like src/cli/main.ts (same runCli error mapping), so the runner's CLI tests do not depend on
 * other commands being buildable. Runs only when started with WFLO_TEST_CLI=1 (node --test also
 * executes every .js file under test/ and must find this harmless).
 */
import { Command } from 'commander';
import { runCli } from '../../src/cli/errors.js';
import { registerRun } from '../../src/cli/run.js';
import { registerExport } from '../../src/cli/export.js';
import { registerStatus } from '../../src/cli/status.js';
import { registerMissing } from '../../src/cli/missing.js';
import { registerLedger } from '../../src/cli/ledger.js';

if (process.env.WFLO_TEST_CLI === '1') {
  const program = new Command().name('wflo').showHelpAfterError('(run with --help for usage)');
  registerRun(program);
  registerExport(program);
  registerStatus(program);
  registerMissing(program);
  registerLedger(program);
  await runCli(program, process.argv);
}
