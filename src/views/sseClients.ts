/**
 * The dashboard's server-sent-event clients, with bounded memory whatever the clients do.
 *
 * - At most `max` clients; one more is refused (the caller answers 503 with Retry-After).
 * - Never more than one frame waits per client: a frame is written only when the client's
 *   socket took the previous one ('drain'); while it has not, a newer frame replaces the waiting
 *   one (frames are shared Buffers: a waiting frame costs a reference, not a copy). A client sees
 *   every state it can keep up with and always the newest one last.
 * - A client whose socket has not drained in time is dropped (its socket destroyed): a page that
 *   stopped reading, a stalled network, a client that never reads. In time: `drainTimeoutMs`
 *   plus the frame's size at `minBytesPerS` (a big campaign's frame over a slow link).
 * - A comment line every `heartbeatMs` keeps proxies from cutting an idle stream and lets a dead
 *   peer surface as a write error.
 */
import type http from 'node:http';

export interface SseOptions {
  /** Most clients at once (default 64). */
  max?: number;
  /** A client whose socket did not drain within this long is dropped (default 10 000 ms). */
  drainTimeoutMs?: number;
  /** Slowest reader kept: the time allowed grows by the frame's size at this rate (default 128 KiB/s). */
  minBytesPerS?: number;
  /** Heartbeat interval when nothing else is sent (default 15 000 ms). */
  heartbeatMs?: number;
}

interface Client {
  res: http.ServerResponse;
  /** When the client must have drained, set when a write returned false (null: not blocked). */
  deadline: number | null;
  /** The newest frame not yet written (only while blocked). */
  waiting: Buffer | null;
  lastWrite: number;
}

const HEARTBEAT = Buffer.from(': alive\n\n');

export class SseClients {
  readonly max: number;
  readonly drainTimeoutMs: number;
  readonly heartbeatMs: number;
  readonly minBytesPerS: number;
  private readonly clients = new Set<Client>();
  /** Clients dropped for not draining, and streams refused for want of room (for the server's log). */
  dropped = 0;
  refused = 0;

  constructor(options: SseOptions = {}) {
    this.max = options.max ?? 64;
    this.drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.minBytesPerS = options.minBytesPerS ?? 128 * 1024;
  }

  get size(): number {
    return this.clients.size;
  }

  get full(): boolean {
    return this.clients.size >= this.max;
  }

  /** Register a stream whose headers were written; false when there is no room (nothing registered). */
  add(res: http.ServerResponse): boolean {
    if (this.full) return false;
    const c: Client = { res, deadline: null, waiting: null, lastWrite: Date.now() };
    this.clients.add(c);
    res.on('close', () => this.clients.delete(c));
    res.on('drain', () => {
      c.deadline = null;
      const next = c.waiting;
      c.waiting = null;
      if (next) this.write(c, next);
    });
    return true;
  }

  /** Send `frame` to one client (its first frame), subject to the same rules. */
  sendTo(res: http.ServerResponse, frame: Buffer): void {
    for (const c of this.clients) if (c.res === res) this.send(c, frame);
  }

  broadcast(frame: Buffer): void {
    for (const c of this.clients) this.send(c, frame);
  }

  /** Drop clients that did not drain in time; heartbeat the idle ones. Call about once a second. */
  sweep(now = Date.now()): void {
    for (const c of this.clients) {
      if (c.deadline !== null) {
        if (now > c.deadline) this.drop(c);
      } else if (now - c.lastWrite >= this.heartbeatMs) {
        this.write(c, HEARTBEAT);
      }
    }
  }

  closeAll(): void {
    for (const c of this.clients) c.res.destroy();
    this.clients.clear();
  }

  private send(c: Client, frame: Buffer): void {
    if (c.deadline !== null) c.waiting = frame;
    else this.write(c, frame);
  }

  private write(c: Client, frame: Buffer): void {
    if (c.res.destroyed || c.res.writableEnded) return;
    c.lastWrite = Date.now();
    if (!c.res.write(frame)) c.deadline ??= Date.now() + this.drainTimeoutMs + (1000 * c.res.writableLength) / this.minBytesPerS;
  }

  private drop(c: Client): void {
    this.dropped++;
    this.clients.delete(c);
    c.waiting = null;
    c.res.destroy();
  }
}
