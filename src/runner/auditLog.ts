/**
 * The audit log: `audit.jsonl` in the output folder, one JSON object per line, appended by the
 * coordinator: every attempt (with its outcome), retry, failure, timeout, export, resume and
 * the run's start and end. It is a history for people, not the record of done (the ledger is),
 * so lines are buffered and written a few times a second; a crash can lose the last few.
 *
 * Line fields: `t` (ISO time), `event`, then event-specific fields such as `task`, `attempt`,
 * `outcome`, `error`, `wall_s`, `delay_s`, `rows`, `seconds`.
 */
import fs from 'node:fs';
import path from 'node:path';

export const AUDIT_FILE = 'audit.jsonl';

export type AuditEvent = { event: string } & Record<string, unknown>;

export class AuditLog {
  readonly path: string;
  private fd: number | null;
  private buffer: string[] = [];
  private bufferedBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Called when a write fails (e.g. ENOSPC); the log stops writing after the first failure. */
  onError: (err: Error) => void = () => {};

  constructor(dir: string) {
    this.path = path.join(dir, AUDIT_FILE);
    // Never through a link (io/noSymlink.ts): O_NOFOLLOW makes a link at the name fail with ELOOP.
    const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = fs.constants;
    this.fd = fs.openSync(this.path, O_WRONLY | O_APPEND | O_CREAT | (O_NOFOLLOW ?? 0), 0o666);
  }

  write(e: AuditEvent): void {
    if (this.fd === null) return;
    const line = JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n';
    this.buffer.push(line);
    this.bufferedBytes += line.length;
    if (this.bufferedBytes > 256 * 1024) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), 250);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.fd === null || this.buffer.length === 0) return;
    const text = this.buffer.join('');
    this.buffer = [];
    this.bufferedBytes = 0;
    try {
      fs.writeSync(this.fd, text);
    } catch (err) {
      const fd = this.fd;
      this.fd = null;
      try {
        fs.closeSync(fd);
      } catch {
        /* already failing */
      }
      this.onError(err as Error);
    }
  }

  close(): void {
    this.flush();
    if (this.fd !== null) {
      try {
        fs.fsyncSync(this.fd);
      } catch {
        /* best effort */
      }
      fs.closeSync(this.fd);
      this.fd = null;
    }
  }
}

/** Read an audit log back (tests, tools); a torn last line (crash mid-write) is skipped. */
export function readAuditLog(dir: string): AuditEvent[] {
  const file = path.join(dir, AUDIT_FILE);
  if (!fs.existsSync(file)) return [];
  const out: AuditEvent[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as AuditEvent);
    } catch {
      /* torn line */
    }
  }
  return out;
}
