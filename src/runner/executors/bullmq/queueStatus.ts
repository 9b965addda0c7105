/**
 * The queue part of `wflo status` (with `--queue URL` or WFLO_QUEUE): the queue's depth
 * (waiting, running, finished and not yet collected by a coordinator), and the workers that
 * heartbeat into it (host, pid, tasks done, last seen, reconnects and their latest connection
 * problem). A queue that cannot be reached is reported as such, in one line, never as an error
 * of the status command: the ledger part of the status does not need Redis.
 * Only the redacted URL is ever shown.
 */
import { Queue } from 'bullmq';
import { ENGINE_VERSION } from '../../../version.js';
import { closeQuietly, connectOnce } from './redisClient.js';
import { parseQueueUrl, queueUrlFrom, redactQueueUrls } from './queueUrl.js';
import { KEY_PREFIX, queueNameFor } from './queueNames.js';
import { HEARTBEAT_INTERVAL_MS, readWorkerRecords } from './workerRegistry.js';

export interface QueueWorkerStatus {
  host: string;
  pid: number;
  engine: string;
  concurrency: number;
  done: number;
  failed: number;
  running: number;
  lastSeenS: number;
  /** Missed several heartbeats: probably dead. */
  silent: boolean;
  reconnects: number;
  lastProblem: string;
  /** Command jobs refused and handed back, the latest reason, and the commands it may run. */
  refused: number;
  lastRefusal: string;
  commands: string;
}

export interface QueueStatus {
  url: string;
  queue: string;
  reachable: boolean;
  problem: string | null;
  depth: { waiting: number; running: number; finished: number; failed: number; delayed: number } | null;
  workers: QueueWorkerStatus[];
}

/** The queue status for `--queue`/WFLO_QUEUE, or null when neither is given. Never throws for Redis problems. */
export async function queueStatusFor(option: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<QueueStatus | null> {
  const given = queueUrlFrom(option, env);
  if (!given) return null;
  return readQueueStatus(given.url, given.source);
}

export async function readQueueStatus(url: string, source = '--queue'): Promise<QueueStatus> {
  const a = parseQueueUrl(url, source); // a malformed URL is bad input (exit 2)
  const queue = queueNameFor(ENGINE_VERSION);
  const status: QueueStatus = { url: a.redacted, queue, reachable: false, problem: null, depth: null, workers: [] };
  let client;
  try {
    client = await connectOnce(a, `wflo-status-${process.pid}`);
  } catch (err) {
    status.problem = redactQueueUrls((err as Error).message);
    return status;
  }
  let q: Queue | null = null;
  try {
    status.reachable = true;
    q = new Queue(queue, { connection: client, prefix: KEY_PREFIX, skipMetasUpdate: true });
    q.on('error', () => {
      /* reported below */
    });
    const c = await q.getJobCounts('wait', 'active', 'completed', 'failed', 'delayed', 'prioritized');
    status.depth = {
      waiting: (c.wait ?? 0) + (c.prioritized ?? 0),
      running: c.active ?? 0,
      finished: c.completed ?? 0,
      failed: c.failed ?? 0,
      delayed: c.delayed ?? 0,
    };
    const now = Date.now() / 1000;
    status.workers = (await readWorkerRecords(client)).map((r) => ({
      host: r.host,
      pid: r.pid,
      engine: r.engine,
      concurrency: r.concurrency,
      done: r.done,
      failed: r.failed,
      running: r.running,
      lastSeenS: Math.max(0, Math.round(now - r.lastSeen)),
      silent: now - r.lastSeen > (3 * HEARTBEAT_INTERVAL_MS) / 1000 + 1,
      reconnects: r.reconnects,
      lastProblem: redactQueueUrls(r.lastProblem),
      refused: r.refused,
      lastRefusal: r.lastRefusal,
      commands: r.commands,
    }));
  } catch (err) {
    status.problem = redactQueueUrls((err as Error).message.split('\n')[0]);
  } finally {
    await Promise.race([
      q?.close(),
      new Promise((r) => {
        setTimeout(r, 1000).unref();
      }),
    ]).catch(() => {
      /* closing */
    });
    closeQuietly(client);
  }
  return status;
}

export function formatQueueStatus(s: QueueStatus): string {
  const lines: string[] = [];
  if (!s.reachable || !s.depth) {
    lines.push(`queue ${s.queue} at ${s.url}: ${s.problem ?? 'unreachable'}`);
    return lines.join('\n');
  }
  const d = s.depth;
  lines.push(
    `queue ${s.queue} at ${s.url}: ${d.waiting} waiting, ${d.running} running, ${d.finished} finished (not yet collected), ${d.failed} failed${d.delayed ? `, ${d.delayed} delayed` : ''}`,
  );
  if (s.problem) lines.push(`  problem: ${s.problem}`);
  const mine = s.workers.filter((w) => w.engine === ENGINE_VERSION);
  const others = s.workers.length - mine.length;
  lines.push(`workers (${s.workers.length}${others ? `, ${others} on another engine version: they take no jobs of this one` : ''}):`);
  if (s.workers.length === 0) lines.push('  none (start some with `wflo worker --queue URL`)');
  for (const w of s.workers) {
    const seen = w.silent ? `not seen for ${w.lastSeenS} s (dead?)` : `last seen ${w.lastSeenS} s ago`;
    const problems = w.reconnects > 0 ? `, ${w.reconnects} reconnect${w.reconnects === 1 ? '' : 's'} (latest: ${w.lastProblem})` : '';
    lines.push(
      `  ${w.host} pid ${w.pid}: ${w.done} done, ${w.failed} failed, ${w.running}/${w.concurrency} running, ${seen}${w.engine !== ENGINE_VERSION ? `, engine ${w.engine}` : ''}${problems}`,
    );
    if (w.commands) lines.push(`    may run: ${w.commands}`);
    if (w.refused > 0) lines.push(`    refused ${w.refused} command job${w.refused === 1 ? '' : 's'} (handed back; latest: ${w.lastRefusal})`);
  }
  return lines.join('\n');
}
