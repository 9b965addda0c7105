/**
 * `wflo run --json`: the run's summary as one JSON object (what the last line says, and the
 * counts behind it), in the shape `wflo collect --json` and `wflo status --json` print: the
 * runner's own field names. Rejected and conflicting rows are listed as the stderr lines name them.
 */
import type { RunSummary } from './runCampaign.js';

export function runSummaryJson(campaign: string, s: RunSummary): Record<string, unknown> {
  return {
    campaign,
    outputDir: s.outputDir,
    layoutsFile: s.layoutsFile,
    stopReason: s.stopReason,
    total: s.total,
    done: s.done,
    failed: s.failed,
    pending: s.pending,
    stale: s.stale,
    doneThisRun: s.doneThisRun,
    failedThisRun: s.failedThisRun,
    retries: s.retries,
    scheduled: s.scheduled,
    seconds: s.seconds,
    exported: s.exported,
    exportError: s.exportError,
    recovered: s.recovered,
    adoption: s.adoption ? { ...s.adoption, perSource: Object.fromEntries(s.adoption.perSource) } : null,
  };
}
