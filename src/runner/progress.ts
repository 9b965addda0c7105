/**
 * Progress of a run as the coordinator sees it, and how it is shown: a live bar (cli-progress)
 * on a terminal, plain log lines at an interval otherwise (CI logs, nohup, pipes).
 */
import { createRequire } from 'node:module';
import type CliProgress from 'cli-progress';

// cli-progress is loaded by the first bar (a terminal): a run logging lines never loads it.
const require = createRequire(import.meta.url);

export interface ProgressSnapshot {
  /** Tasks this run is responsible for. */
  total: number;
  done: number;
  failed: number;
  running: number;
  /** Not done, not failed, not running (includes stale tasks and retries waiting out a backoff). */
  pending: number;
  ratePerMin: number;
  /** Seconds to finish at the current rate; null when the rate is unknown. */
  etaS: number | null;
  elapsedS: number;
}

export interface ProgressReporter {
  update(p: ProgressSnapshot): void;
  /** Stop the bar; print a plain line instead from here on. */
  stop(): void;
  /** A message that must not be garbled by the bar. */
  log(line: string): void;
  /** How often the coordinator should call update, ms. */
  readonly intervalMs: number;
}

export function formatDuration(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.round(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function progressLine(p: ProgressSnapshot): string {
  return (
    `${p.done}/${p.total} done, ${p.failed} failed, ${p.running} running, ${p.pending} pending, ` +
    `${p.ratePerMin.toFixed(p.ratePerMin < 10 ? 1 : 0)} tasks/min, ETA ${formatDuration(p.etaS)}`
  );
}

/** Plain lines to `write` every `intervalMs` (only when something changed). */
export function lineReporter(write: (line: string) => void, intervalMs = 10_000): ProgressReporter {
  let last = '';
  return {
    intervalMs,
    update(p) {
      const line = progressLine(p);
      if (line !== last) write(`wflo: ${line}`);
      last = line;
    },
    stop() {},
    log: write,
  };
}

/** A live bar on `stream` (a TTY). */
export function barReporter(stream: NodeJS.WriteStream): ProgressReporter {
  const cliProgress = require('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{bar} {value}/{total} done | {failed} failed | {running} running | {pending} pending | {rate}/min | ETA {eta_h}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 1,
      fps: 4,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    intervalMs: 500,
    update(p) {
      const payload = { failed: p.failed, running: p.running, pending: p.pending, rate: p.ratePerMin.toFixed(1), eta_h: formatDuration(p.etaS) };
      if (!started) {
        bar.start(p.total, p.done, payload);
        started = true;
      } else {
        bar.setTotal(p.total);
        bar.update(p.done, payload);
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
    log(line) {
      if (started) {
        stream.write('\r\x1b[2K');
        stream.write(`${line}\n`);
        bar.render();
      } else stream.write(`${line}\n`);
    },
  };
}
