/**
 * Throughput over time from a campaign's audit log (`audit.jsonl`, runner/auditLog.ts): tasks
 * finished and failed per time bucket. The log is read incrementally (the dashboard calls this
 * every second while it grows): only bytes appended since the last call are parsed, and a torn
 * last line waits for the next call. Only the time stamps of `attempt … outcome done` and
 * `failed` events are kept, as numbers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AUDIT_FILE } from '../runner/auditLog.js';

export interface ThroughputBucket {
  /** Bucket start, ISO time. */
  t: string;
  done: number;
  failed: number;
  /** Tasks finished per minute in this bucket. */
  donePerMin: number;
}

export interface Throughput {
  bucketS: number;
  buckets: ThroughputBucket[];
  /** Run starts (ISO times), drawn as rules. */
  runStarts: string[];
}

/** Bytes of a line that hold its time, event and outcome (`{"t":…,"event":…,"task":…,"attempt":…,"outcome":…`). */
const HEAD_BYTES = 240;
const LINE_HEAD = /^\{"t":"([^"]+)","event":"([a-z_]+)"/;

export class ThroughputLog {
  private offset = 0;
  /** Head of a line longer than the read buffer, until its end is found. */
  private longLineHead: string | null = null;
  private doneTimes: number[] = [];
  private failedTimes: number[] = [];
  private runStarts: number[] = [];
  readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, AUDIT_FILE);
  }

  /** Parse what was appended since the last call (complete lines only; a torn last line waits). */
  refresh(): void {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return;
    }
    try {
      const size = fs.fstatSync(fd).size;
      if (size < this.offset) {
        this.offset = 0;
        this.longLineHead = null;
        this.doneTimes = [];
        this.failedTimes = [];
        this.runStarts = [];
      }
      // Lines can be long (attempt lines carry the result): find newlines in the bytes and decode
      // only the head of each line, where the time, the event and the outcome are.
      const chunk = Buffer.alloc(4 << 20);
      while (this.offset < size) {
        const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - this.offset), this.offset);
        if (n <= 0) break;
        let lineStart = 0;
        let nl = chunk.indexOf(10, 0);
        while (nl !== -1 && nl < n) {
          this.take(this.longLineHead ?? chunk.toString('latin1', lineStart, Math.min(nl, lineStart + HEAD_BYTES)));
          this.longLineHead = null;
          lineStart = nl + 1;
          nl = chunk.indexOf(10, lineStart);
        }
        if (lineStart === 0) {
          if (n < chunk.length) break; // a torn last line: wait for the rest
          this.longLineHead ??= chunk.toString('latin1', 0, HEAD_BYTES); // a line longer than the buffer
          this.offset += n;
          continue;
        }
        this.offset += lineStart;
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  private take(line: string): void {
    const m = LINE_HEAD.exec(line);
    if (!m) return;
    const event = m[2];
    if (event === 'attempt') {
      if (line.includes('"outcome":"done"')) this.doneTimes.push(Date.parse(m[1]));
    } else if (event === 'failed') this.failedTimes.push(Date.parse(m[1]));
    else if (event === 'run_start') this.runStarts.push(Date.parse(m[1]));
  }

  /** Buckets of a "nice" width giving at most `maxBuckets` over the whole history. */
  buckets(maxBuckets = 120): Throughput {
    const all = [...this.doneTimes, ...this.failedTimes].filter(Number.isFinite);
    if (all.length === 0) return { bucketS: 0, buckets: [], runStarts: this.runStarts.map((t) => new Date(t).toISOString()) };
    let first = Infinity,
      last = -Infinity;
    for (const t of all) {
      if (t < first) first = t;
      if (t > last) last = t;
    }
    const spanS = Math.max(1, (last - first) / 1000);
    const widths = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400];
    const bucketS = widths.find((w) => spanS / w <= maxBuckets) ?? Math.ceil(spanS / maxBuckets);
    const start = Math.floor(first / 1000 / bucketS) * bucketS * 1000;
    const count = Math.floor((last - start) / 1000 / bucketS) + 1;
    const done = new Float64Array(count),
      failed = new Float64Array(count);
    for (const t of this.doneTimes) if (Number.isFinite(t)) done[Math.floor((t - start) / 1000 / bucketS)]++;
    for (const t of this.failedTimes) if (Number.isFinite(t)) failed[Math.floor((t - start) / 1000 / bucketS)]++;
    const buckets: ThroughputBucket[] = [];
    for (let k = 0; k < count; k++) {
      buckets.push({ t: new Date(start + k * bucketS * 1000).toISOString(), done: done[k], failed: failed[k], donePerMin: (done[k] * 60) / bucketS });
    }
    return { bucketS, buckets, runStarts: this.runStarts.map((t) => new Date(t).toISOString()) };
  }
}
