/**
 * A bounded number of connections that still lets a newcomer in.
 *
 * Node's own `server.maxConnections` refuses the newest connection once the limit is reached: a
 * page opened while a few hundred clients that never read hold the slots gets "socket hang up".
 * Here the newest connection is kept and the least useful one is shed instead, in this order:
 *
 * 1. a connection whose peer stopped taking what it was sent (bytes have waited in our write
 *    buffer, the kernel's being full, with none taken for `graceMs`): a client that never reads,
 *    longest stalled first;
 * 2. a connection that has not completed a request after `graceMs` (silent or slowloris), oldest first;
 * 3. an idle keep-alive connection (its last answer sent, no new request), oldest first.
 *
 * A connection busy with a request whose answer flows (a page loading, an event stream that
 * reads) is never shed. Only when every connection is such is the newcomer refused (closed at
 * once), which takes `max` pages that all read: a real overload, not a hostile one.
 */
import type http from 'node:http';
import type net from 'node:net';

export interface GovernorOptions {
  /** Most open connections. */
  max: number;
  /** A connection without a complete request is a candidate after this long (default 1000 ms). */
  graceMs?: number;
}

interface Tracked {
  socket: net.Socket;
  since: number;
  /** Requests answered or under way on this connection. */
  requests: number;
  /** A request is under way (its response not closed). */
  active: boolean;
  /** Bytes the kernel took so far, and since when none were taken while some waited (null: not stalled). */
  flushed: number;
  stalledSince: number | null;
}

export class ConnectionGovernor {
  readonly max: number;
  readonly graceMs: number;
  private readonly open = new Map<net.Socket, Tracked>();
  private readonly tick: NodeJS.Timeout;
  /** Connections closed to make room, and newcomers refused (for the server's log). */
  shed = 0;
  refused = 0;

  constructor(server: http.Server, options: GovernorOptions) {
    this.max = options.max;
    this.graceMs = options.graceMs ?? 1000;
    server.on('connection', (socket: net.Socket) => this.admit(socket));
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const t = this.open.get(req.socket);
      if (!t) return;
      t.requests++;
      t.active = true;
      res.once('close', () => {
        t.active = false;
      });
    });
    this.tick = setInterval(
      () => {
        const now = Date.now();
        for (const t of this.open.values()) this.observe(t, now);
      },
      Math.max(100, this.graceMs / 4),
    );
    this.tick.unref();
  }

  close(): void {
    clearInterval(this.tick);
  }

  get size(): number {
    return this.open.size;
  }

  private admit(socket: net.Socket): void {
    const t: Tracked = { socket, since: Date.now(), requests: 0, active: false, flushed: 0, stalledSince: null };
    this.open.set(socket, t);
    socket.once('close', () => this.open.delete(socket));
    if (this.open.size <= this.max) return;
    const victim = this.victim(t);
    if (victim) {
      this.shed++;
      this.open.delete(victim.socket);
      victim.socket.destroy();
    } else {
      this.refused++;
      this.open.delete(socket);
      socket.destroy();
    }
  }

  /** Note whether the kernel took any of what waits for this connection since the last look. */
  private observe(t: Tracked, now: number): void {
    const waiting = t.socket.writableLength;
    const flushed = t.socket.bytesWritten - waiting;
    if (waiting === 0) t.stalledSince = null;
    else if (flushed !== t.flushed || t.stalledSince === null) t.stalledSince = now;
    t.flushed = flushed;
  }

  /** The connection to shed for `newcomer`, or null when every other one is busy and flowing. */
  private victim(newcomer: Tracked): Tracked | null {
    const now = Date.now();
    let best: Tracked | null = null,
      bestRank = Infinity,
      bestSince = Infinity;
    for (const t of this.open.values()) {
      if (t === newcomer || t.socket.destroyed) continue;
      this.observe(t, now);
      const stalled = t.stalledSince !== null && now - t.stalledSince >= this.graceMs;
      const rank = stalled
        ? 0
        : t.requests === 0 && now - t.since >= this.graceMs
          ? 1
          : !t.active && t.requests > 0 && t.socket.writableLength === 0
            ? 2
            : Infinity;
      const since = rank === 0 ? t.stalledSince! : t.since;
      if (rank < bestRank || (rank === bestRank && since < bestSince)) {
        best = t;
        bestRank = rank;
        bestSince = since;
      }
    }
    return bestRank === Infinity ? null : best;
  }
}
