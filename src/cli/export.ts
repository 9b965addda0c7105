/**
 * `wflo export DIR [-o FILE]`: rebuild layouts.h5 from a campaign's ledger.
 * `wflo export DIR --windio -o FILE [--task ID]`: write one optimized layout (default: the best
 * AEP) as a windIO wind_farm YAML (src/io/windio/windFarmWriter.ts). DIR may also be a
 * layouts.h5 file; a campaign folder's layouts.h5 is first rebuilt from its ledger.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';
import { outFlagGiven, withOutFlag } from './outFlag.js';

export function registerExport(program: Command): void {
  const command = program
    .command('export')
    .description('rebuild layouts.h5 from the ledger of a campaign output folder (safe while a run is going on), or write one layout as windIO')
    .argument('<dir>', 'campaign output folder (with --windio also a layouts.h5 file)')
    .option('--windio', 'write one optimized layout as a windIO wind_farm YAML to -o FILE')
    .option('--task <id>', 'with --windio: the task to write, e.g. farm_0_type_0_seed_3 (default: the best AEP)')
    .option('--force', 'replace -o FILE even if it exists and was not written by wflo, or DIR/layouts.h5 even if it holds results the ledger lacks')
    .option('--json', 'print what was written as one JSON object on stdout');
  withOutFlag(command, 'file', 'output file (default: DIR/layouts.h5; required with --windio)', ['--output']).action(
    async (dir: string, flags: { windio?: boolean; task?: string; force?: boolean; json?: boolean }) => {
      const given = outFlagGiven(flags, ['--output']);
      const opts = { ...flags, output: given?.path };
      const { exportLedger } = await import('../runner/exporter.js');
      if (opts.output !== undefined) await (await import('../io/overwrite.js')).checkOverwrite(opts.output, !!opts.force, given!.flag);
      if (opts.windio) {
        if (opts.output === undefined) throw new InputError('--windio: give the YAML file to write with -o FILE');
        let h5 = dir;
        if (!/\.h5$/i.test(dir)) {
          if (fs.existsSync(path.join(dir, 'ledger.sqlite'))) await exportLedger(dir);
          h5 = path.join(dir, 'layouts.h5');
        }
        const { exportWindioFarm } = await import('../io/windio/windFarmWriter.js');
        const w = await exportWindioFarm(h5, opts.output, opts.task);
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(w)}\n`);
          return;
        }
        process.stdout.write(`wrote ${w.file}: windIO wind_farm, task ${w.taskId}, ${w.nTurbines} turbines, AEP ${w.aepMwh} MWh\n`);
        return;
      }
      if (opts.task !== undefined) throw new InputError('--task: only with --windio');
      const r = await exportLedger(dir, opts.output, { force: opts.force });
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(r)}\n`);
        return;
      }
      process.stdout.write(
        `wrote ${r.file}: ${r.rows} rows of ${r.expected} tasks${r.complete ? ' (complete)' : ''}, ${r.bytes} bytes, in ${r.seconds.toFixed(2)} s\n`,
      );
    },
  );
}
