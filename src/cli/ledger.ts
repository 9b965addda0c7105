/** `wflo ledger rebuild DIR`: rebuild a damaged ledger from layouts.h5 and audit.jsonl (runner/rebuildLedger.ts). */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';

export function registerLedger(program: Command): void {
  const ledger = program.command('ledger').description('repair a campaign ledger');
  ledger
    .command('rebuild')
    .description('move a damaged ledger aside and rebuild it from layouts.h5 and audit.jsonl (nothing is recomputed)')
    .argument('<dir>', 'campaign output folder')
    .option('--campaign <file>', "the campaign file (default: the one the folder's last run used, from audit.jsonl)")
    .option('--force', 'rebuild even when the ledger is healthy')
    .option('--json', 'print the outcome as one JSON object on stdout')
    .action(async (dir: string, opts: { campaign?: string; force?: boolean; json?: boolean }) => {
      const { ledgerProblem, lastCampaignFile, rebuildLedger } = await import('../runner/rebuildLedger.js');
      const { loadCampaign } = await import('../campaign/loadCampaign.js');
      const { optimizerSettingsProblem } = await import('../runner/taskFunction.js');
      const problem = ledgerProblem(dir);
      if (problem === null && !opts.force) {
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ dir, rebuilt: false, problem: null })}\n`);
          return;
        }
        process.stdout.write(`${dir}: the ledger is healthy; nothing to rebuild (--force rebuilds it anyway)\n`);
        return;
      }
      const file = opts.campaign ?? lastCampaignFile(dir);
      if (!file) throw new InputError(`${dir}: cannot tell which campaign wrote this folder (no run in audit.jsonl); give --campaign FILE`);
      const campaign = loadCampaign(file, { optimizerProblem: optimizerSettingsProblem, outputOverride: dir });
      const r = await rebuildLedger(dir, campaign);
      if (r.movedAside) process.stderr.write(`wflo: old ledger kept as ${r.movedAside}\n`);
      if (r.recovered.layoutsProblem) process.stderr.write(`wflo: warning: layouts.h5 not used: ${r.recovered.layoutsProblem}\n`);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ dir, rebuilt: true, problem, campaign: campaign.name, campaignFile: file, ...r })}\n`);
        return;
      }
      process.stdout.write(
        `${dir}: ledger rebuilt for ${campaign.name}: ${r.done}/${r.total} tasks done ` +
          `(${r.recovered.fromLayouts} from layouts.h5, ${r.recovered.fromAudit} from audit.jsonl); \`wflo run ${file}\` runs the rest\n`,
      );
    });
}
