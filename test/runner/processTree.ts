/**
 * Process trees for the tests that kill an owner (a coordinator, a queue worker, a SLURM shard's
 * `wflo run`): every live descendant of a process (Linux /proc), whether one still runs (not a
 * zombie, not a reused pid), SIGKILL and watch them end within a generous bound, and a campaign
 * whose tasks block their worker's main thread for good.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { noopCampaign, waitFor, writeCampaign } from './runnerTestKit.js';

/** What the test waits for at most after the SIGKILL (the measured time is printed). */
export const BOUND_MS = 10_000;

export interface Proc {
  pid: number;
  start: string;
  cmd: string;
}

function stat(pid: number): { state: string; start: string } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], start: fields[19] };
  } catch {
    return null;
  }
}

function children(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const text = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    /* gone */
  }
  return out;
}

/** Every live descendant of `pid`, with its start time (so a reused pid is not mistaken for it). */
export function descendants(pid: number): Proc[] {
  const out: Proc[] = [];
  const walk = (p: number): void => {
    for (const c of children(p)) {
      const s = stat(c);
      if (!s || s.state === 'Z') continue;
      let cmd = '';
      try {
        cmd = fs.readFileSync(`/proc/${c}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      } catch {
        /* gone */
      }
      out.push({ pid: c, start: s.start, cmd });
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** Still running (not a zombie, not another process under the same pid). */
function survives(p: Proc): boolean {
  const s = stat(p.pid);
  return s !== null && s.state !== 'Z' && s.start === p.start;
}

/** SIGKILL `owner`; wait until none of `procs` is left; returns the ms it took (or fails naming the survivors). */
export async function killAndWatch(owner: number, procs: Proc[], what: string): Promise<number> {
  const t0 = performance.now();
  process.kill(owner, 'SIGKILL');
  const gone = await waitFor(() => procs.every((p) => !survives(p)), BOUND_MS, 10);
  const ms = Math.round(performance.now() - t0);
  const left = procs.filter(survives);
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* ended */
    }
  }
  assert.ok(gone, `${what}: ${left.length} processes still running ${BOUND_MS} ms after the SIGKILL: ${left.map((p) => `${p.pid} ${p.cmd}`).join('; ')}`);
  return ms;
}

/** Tasks the run's last heartbeat says are running. */
export function runningTasks(out: string): string[] {
  try {
    const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const json = db.prepare('SELECT running_json FROM runs ORDER BY run_id DESC LIMIT 1').pluck().get() as string | undefined;
      return json ? (JSON.parse(json) as { taskId: string }[]).map((r) => r.taskId) : [];
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

/** The pid of the run that wrote the ledger's last heartbeat (0 when there is none yet). */
export function runPid(out: string): number {
  try {
    const db = new Database(path.join(out, 'ledger.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT pid FROM runs ORDER BY run_id DESC LIMIT 1').pluck().get() as number | undefined) ?? 0;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

/** The blocking tasks of blockingCampaign are running (each at the head of a worker or job process). */
export const bothBlocked = (out: string): boolean => {
  const running = runningTasks(out);
  return running.includes('farm_0_type_0_seed_1') && running.includes('farm_0_type_0_seed_2');
};

/** Where the main thread of `pid` waits in the kernel (a blocked task: a futex, not the event loop's epoll). */
export function waitChannel(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/wchan`, 'utf8');
  } catch {
    return '?';
  }
}

/**
 * A noop campaign: seed 0 done in 0.3 s (so the exporter runs; a task that long keeps the pool
 * from queueing several on one worker), seeds 1 and 2 block their worker's main thread for good.
 */
export function blockingCampaign(dir: string, out: string): string {
  const c = noopCampaign(out, 3, { sleep_ms: 300, hang_seeds: [1, 2] });
  c.farms = [(c.farms as unknown[])[0]];
  c.farm_types = [(c.farm_types as unknown[])[0]];
  c.timeout_s = 3600;
  return writeCampaign(path.join(dir, 'campaign.yaml'), c);
}
