/**
 * `wflo validate FILE [--kind K] [--json]`: every check wflo makes on an input file (campaign,
 * case, turbine, wind, boundary or layout; the kind is detected), without running anything or
 * writing anything. A campaign gets the same report as `wflo run CAMPAIGN --dry-run`.
 * Exit 0 valid, 2 not (one line: file:line: path: what is wrong).
 */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check an input file (campaign, case, turbine, wind, boundary, layout) without running or writing anything')
    .argument('<file>', 'YAML input file, or a built-in case name (`wflo cases`)')
    .option('--kind <kind>', 'campaign | case | turbine | wind | boundary | layout (default: detected)')
    .option('-o, --out <dir>', "campaign: output folder to compare with (overrides the campaign's output)")
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { kind?: string; out?: string; json?: boolean }) => {
      const { INPUT_KINDS, detectInputKind, validateInputFile } = await import('../io/inputKind.js');
      const { readYamlFile } = await import('../io/yamlFile.js');
      const { isCsvPath } = await import('../io/timeSeriesCsv.js');
      if (opts.kind !== undefined && !(INPUT_KINDS as readonly string[]).includes(opts.kind)) {
        throw new InputError(`--kind: unknown kind '${opts.kind}' (known: ${INPUT_KINDS.join(', ')})`);
      }
      // A built-in case name is that case; a CSV file is a time series (never parsed as YAML); a YAML file is parsed once, here.
      const { caseArgument } = await import('../io/caseArgument.js');
      const builtin = (opts.kind === undefined || opts.kind === 'case') && caseArgument(file).kind === 'builtin';
      const doc = opts.kind === undefined && !builtin && !isCsvPath(file) ? readYamlFile(file) : undefined;
      const kind = (opts.kind as (typeof INPUT_KINDS)[number] | undefined) ?? (builtin ? 'case' : doc === undefined ? undefined : detectInputKind(doc));
      if (kind === 'campaign') {
        const { loadCampaign } = await import('../campaign/loadCampaign.js');
        const { optimizerSettingsProblem } = await import('../runner/taskFunction.js');
        const { dryRun, formatDryRun } = await import('../runner/dryRun.js');
        const report = dryRun(loadCampaign(file, { optimizerProblem: optimizerSettingsProblem, outputOverride: opts.out }));
        process.stdout.write(`${opts.json ? JSON.stringify({ kind, ...report }) : formatDryRun(report)}\n`);
        return;
      }
      const r = validateInputFile(file, opts.kind as (typeof INPUT_KINDS)[number] | undefined, doc);
      process.stdout.write(`${opts.json ? JSON.stringify({ kind: r.kind, file, ...r.details }) : r.summary}\n`);
    });
}
