#!/usr/bin/env node
/**
 * wflo command-line entry point. Each command lives in its own thin file under cli/ and exports a
 * `register…(program)` function; this file only wires them up and turns errors into exit codes.
 *
 * A command's file (and what it imports) is loaded only when needed: `wflo run …` loads run.ts
 * alone, so every wflo process (the tests start thousands) skips loading the other commands'
 * modules. Anything else (`--help`, `help`, a mistyped command, options before the command other
 * than --allow-include-outside) registers every command, in this order, as before.
 */
import { Command } from 'commander';
import { runCli } from './errors.js';
import { VERSION } from '../version.js';

type Register = (program: Command) => void;

/** Every command, in the order `wflo --help` lists them: its name and how to load its register function. */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<Register>]> = [
  ['aep', async () => (await import('./aep.js')).registerAep],
  ['optimize', async () => (await import('./optimize.js')).registerOptimize],
  ['cost', async () => (await import('./cost.js')).registerCost],
  ['cables', async () => (await import('./cables.js')).registerCables],
  ['run', async () => (await import('./run.js')).registerRun],
  ['export', async () => (await import('./export.js')).registerExport],
  ['status', async () => (await import('./status.js')).registerStatus],
  ['missing', async () => (await import('./missing.js')).registerMissing],
  ['shards', async () => (await import('./shards.js')).registerShards],
  ['worker', async () => (await import('./worker.js')).registerWorker],
  ['validate', async () => (await import('./validate.js')).registerValidate],
  ['cases', async () => (await import('./cases.js')).registerCases],
  ['plot', async () => (await import('./plot.js')).registerPlot],
  ['report', async () => (await import('./report.js')).registerReport],
  ['dashboard', async () => (await import('./dashboard.js')).registerDashboard],
  ['slurm', async () => (await import('./slurm.js')).registerSlurm],
  ['collect', async () => (await import('./collect.js')).registerCollect],
  ['ledger', async () => (await import('./ledger.js')).registerLedger],
  ['serve', async () => (await import('./serve.js')).registerServe],
];

/** The command `argv` runs when only --allow-include-outside comes before it; else null (register them all). */
function commandNamed(argv: readonly string[]): string | null {
  const first = argv.slice(2).find((a) => a !== '--allow-include-outside');
  return first !== undefined && COMMANDS.some(([name]) => name === first) ? first : null;
}

const program = new Command();
program
  .name('wflo')
  .description('Wind farm layout optimization: AEP engine, layout optimizers, crash-safe campaigns, HDF5 shard doctor')
  .version(VERSION)
  // Before and after the command: `wflo aep system.yaml --allow-include-outside` (io/windio/includePolicy.ts).
  .option(
    '--allow-include-outside',
    "let windIO !include reach files outside the plant folder (the folder above the top file's folder), and site, bathymetry and wind CSV files outside the folder of the file naming them",
  )
  .hook('preAction', (cmd) => {
    if (cmd.opts().allowIncludeOutside) process.env.WFLO_ALLOW_INCLUDE_OUTSIDE = '1';
  });

const named = commandNamed(process.argv);
// One after another, in the list's order: modules are evaluated in the order the static imports had.
for (const [name, load] of COMMANDS) if (named === null || name === named) (await load())(program);

await runCli(program, process.argv);
