#!/usr/bin/env node
/**
 * wflo command-line entry point. Each command lives in its own thin file under cli/ and exports a
 * `register…(program)` function; this file only wires them up and turns errors into exit codes.
 */
import { Command } from 'commander';
import { runCli } from './errors.js';
import { registerAep } from './aep.js';
import { registerOptimize } from './optimize.js';
import { VERSION } from '../version.js';
import { registerRun } from './run.js';
import { registerExport } from './export.js';
import { registerStatus } from './status.js';
import { registerMissing } from './missing.js';
import { registerShards } from './shards.js';
import { registerWorker } from './worker.js';
import { registerValidate } from './validate.js';
import { registerCases } from './cases.js';
import { registerPlot } from './plot.js';
import { registerReport } from './report.js';
import { registerDashboard } from './dashboard.js';
import { registerSlurm } from './slurm.js';
import { registerCollect } from './collect.js';
import { registerLedger } from './ledger.js';
import { registerServe } from './serve.js';

const program = new Command();
program
  .name('wflo')
  .description('Wind farm layout optimization: AEP engine, layout optimizers, crash-safe campaigns, HDF5 shard doctor')
  .version(VERSION)
  // Before and after the command: `wflo aep system.yaml --allow-include-outside` (io/windio/includePolicy.ts).
  .option('--allow-include-outside', 'let windIO !include reach files outside the plant folder (the folder above the top file\'s folder)')
  .hook('preAction', (cmd) => { if (cmd.opts().allowIncludeOutside) process.env.WFLO_ALLOW_INCLUDE_OUTSIDE = '1'; });

registerAep(program);
registerOptimize(program);
registerRun(program);
registerExport(program);
registerStatus(program);
registerMissing(program);
registerShards(program);
registerWorker(program);
registerValidate(program);
registerCases(program);
registerPlot(program);
registerReport(program);
registerDashboard(program);
registerSlurm(program);
registerCollect(program);
registerLedger(program);
registerServe(program);

await runCli(program, process.argv);
