/**
 * A `wflo` program with only the commands the SLURM tests use (run, export, status, missing,
 * slurm, collect), wired exactly like src/cli/main.ts (same runCli error mapping), so these tests
 * do not depend on other commands being buildable. `wflo slurm` writes this file's path into the
 * job script, and sbatch passes the environment on, so array tasks run this program too. Runs
 * only when started with WFLO_TEST_CLI=1 (node --test also executes every .js file under test/).
 */
import { Command } from 'commander';
import { runCli } from '../../src/cli/errors.js';
import { registerRun } from '../../src/cli/run.js';
import { registerExport } from '../../src/cli/export.js';
import { registerStatus } from '../../src/cli/status.js';
import { registerMissing } from '../../src/cli/missing.js';
import { registerSlurm } from '../../src/cli/slurm.js';
import { registerCollect } from '../../src/cli/collect.js';

if (process.env.WFLO_TEST_CLI === '1') {
  const program = new Command().name('wflo');
  registerRun(program);
  registerExport(program);
  registerStatus(program);
  registerMissing(program);
  registerSlurm(program);
  registerCollect(program);
  await runCli(program, process.argv);
}
