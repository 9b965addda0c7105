/**
 * `wflo status`: what the ledger says about a campaign, read while a run may be going on (WAL
 * readers never block the writer): counts per farm × type, failures with their last error, the
 * coordinator's liveness (the run lock's holder), its rate and an ETA. "Running" comes only from a
 * live coordinator's heartbeat; a coordinator that was killed shows as such, with nothing running.
 */
import { runLockHolder } from './runLock.js';
import { parseTaskId } from '../io/layoutRecord.js';
import { QUARANTINE_META } from './gate/recheck.js';
import { LedgerReader, type FailureInfo, type GroupCounts, type RunningTask } from './ledgerReader.js';
import { formatDuration } from './progress.js';

export interface GroupStatus extends GroupCounts {
  running: number;
}

export interface CampaignStatus {
  campaign: string;
  outputDir: string;
  total: number;
  done: number;
  failed: number;
  running: number;
  pending: number;
  stale: number;
  ratePerMin: number;
  etaS: number | null;
  complete: boolean;
  run: { state: 'running' | 'ended' | 'killed'; pid: number; startedAt: string; heartbeatAgeS: number; endState: string | null; workers: number } | null;
  groups: GroupStatus[];
  failures: FailureInfo[];
  runningTasks: RunningTask[];
  /** Queue workers caught returning results the gate or a recheck refused (gate/recheck.ts). */
  quarantined: { worker: string; reason: string; at: string }[];
}

export function readStatus(dir: string): CampaignStatus {
  const ledger = LedgerReader.open(dir);
  try {
    return ledger.snapshot(() => {
      const groups: GroupStatus[] = ledger.groupCounts().map((g) => ({ ...g, running: 0 }));
      const failures = ledger.failures(50);
      const lastRun = ledger.lastRun();
      const campaign = ledger.getMeta('campaign_name') ?? '';
      let quarantined: CampaignStatus['quarantined'] = [];
      try {
        quarantined = JSON.parse(ledger.getMeta(QUARANTINE_META) ?? '[]') as CampaignStatus['quarantined'];
      } catch {
        /* unreadable: none shown */
      }
      let run: CampaignStatus['run'] = null;
      let runningTasks: RunningTask[] = [];
      let ratePerMin = 0;
      if (lastRun) {
        const age = Date.now() / 1000 - lastRun.heartbeatAt;
        // Live exactly when `wflo run` would refuse to start: the run lock's holder is alive (same
        // boot, same process start time) and is this run's coordinator.
        const holder = runLockHolder(dir);
        const alive = lastRun.endedAt === null && holder !== null && holder.pid === lastRun.pid && holder.host === lastRun.host;
        const state = alive ? 'running' : lastRun.endedAt !== null ? 'ended' : 'killed';
        run = {
          state,
          pid: lastRun.pid,
          startedAt: new Date(lastRun.startedAt * 1000).toISOString(),
          heartbeatAgeS: Math.round(age * 10) / 10,
          endState: lastRun.endState ?? (state === 'killed' ? 'killed' : null),
          workers: lastRun.workers,
        };
        if (alive) {
          runningTasks = lastRun.running;
          ratePerMin = lastRun.ratePerMin;
        }
      }
      // Running tasks are pending (or stale) in the ledger: move them to "running".
      // The heartbeat is up to a second old: skip tasks committed since.
      const byKey = new Map(groups.map((g) => [`${g.farmId}/${g.farmType}`, g]));
      const states = ledger.statesOf(runningTasks.map((r) => r.taskId));
      runningTasks = runningTasks.filter((r) => states.get(r.taskId) !== 'done');
      for (const r of runningTasks) {
        const id = parseTaskId(r.taskId);
        const g = id ? byKey.get(`${id.farmId}/${id.farmType}`) : undefined;
        const state = states.get(r.taskId);
        if (!g || !state || g[state] === 0) continue;
        g.running++;
        g[state]--;
      }
      const sum = (k: 'total' | 'done' | 'failed' | 'running' | 'pending' | 'stale'): number => groups.reduce((s, g) => s + g[k], 0);
      const total = sum('total'),
        done = sum('done'),
        failed = sum('failed');
      const remaining = total - done - failed;
      return {
        campaign,
        outputDir: dir,
        total,
        done,
        failed,
        running: sum('running'),
        pending: sum('pending'),
        stale: sum('stale'),
        ratePerMin,
        etaS: ratePerMin > 0 ? (remaining / ratePerMin) * 60 : remaining === 0 ? 0 : null,
        complete: total > 0 && done === total,
        run,
        groups,
        failures,
        runningTasks,
        quarantined,
      };
    });
  } finally {
    ledger.close();
  }
}

/** The status as text: a summary line, the farm × type table, the latest failures. */
export function formatStatus(s: CampaignStatus): string {
  const lines: string[] = [];
  const runText = !s.run
    ? 'never run'
    : s.run.state === 'running'
      ? `running (pid ${s.run.pid}, ${s.run.workers} workers, ${s.ratePerMin.toFixed(1)} tasks/min, ETA ${formatDuration(s.etaS)})`
      : s.run.state === 'killed'
        ? `not running (last run, pid ${s.run.pid}, was killed)`
        : `not running (last run: ${s.run.endState})`;
  lines.push(`campaign ${s.campaign} in ${s.outputDir}: ${runText}`);
  lines.push(`${s.done}/${s.total} done, ${s.failed} failed, ${s.running} running, ${s.pending} pending, ${s.stale} stale${s.complete ? ' (complete)' : ''}`);
  lines.push('');
  const header = ['farm', 'type', 'total', 'done', 'failed', 'running', 'pending', 'stale'];
  const rows = s.groups.map((g) => [g.farmId, g.farmType, g.total, g.done, g.failed, g.running, g.pending, g.stale].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]): string => r.map((v, i) => v.padStart(widths[i])).join('  ');
  lines.push(fmt(header));
  for (const r of rows) lines.push(fmt(r));
  if (s.failures.length > 0) {
    lines.push('');
    lines.push(`failed tasks (${s.failed}${s.failed > s.failures.length ? `, latest ${s.failures.length} shown` : ''}):`);
    for (const f of s.failures) lines.push(`  ${f.taskId} after ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}: ${f.error}`);
  }
  if (s.quarantined.length > 0) {
    lines.push('');
    lines.push(`quarantined queue workers (${s.quarantined.length}; their results were recomputed by the coordinator):`);
    for (const q of s.quarantined) lines.push(`  ${q.worker} at ${q.at}: ${q.reason}`);
  }
  return lines.join('\n');
}
