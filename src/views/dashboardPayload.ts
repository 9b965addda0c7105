/**
 * What `wflo dashboard` serves: the campaign payload (campaignData.ts + chartSpecs.ts via
 * writeReport.ts), serialized once per change of the campaign and shared by every client (one
 * Buffer holds the server-sent-event frame, and the JSON body of `/api/data` is a view into it;
 * it is written to every socket as it is, no per-client copy).
 *
 * A change is seen from a signature: SQLite's `PRAGMA data_version` on a long-lived read-only
 * connection (it changes whenever another connection commits) and the audit log's size.
 *
 * Two freshness rules:
 * - `first()` (a page's first paint, `/api/data`): never older than the campaign at the time of
 *   the request. A cached payload is served only when the signature still matches; otherwise a
 *   quick payload (counts, running tasks, failures; no statistics or plots) is computed, or the
 *   full one when that is cheap. The full view follows over the event stream.
 * - `full()` (the event stream): the full view, recomputed when something changed, but at most
 *   every 3 × its last duration while a run keeps changing the ledger, so a big campaign's page
 *   never starves the run.
 * Computations run one at a time. A payload is current for a request when the campaign has not
 * changed since, or when its computation began after the request arrived: requests that pile up
 * while one computation runs share the next one (a burst of requests costs one computation,
 * not one each, however fast the ledger changes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { LedgerReader } from '../runner/ledgerReader.js';
import { AUDIT_FILE } from '../runner/auditLog.js';
import { CampaignViewCache } from './campaignData.js';
import { campaignPayload } from './writeReport.js';

export interface Payload {
  /** The JSON body of `/api/data`. */
  body: Buffer;
  /** The same JSON as one server-sent event (`event: data`). */
  frame: Buffer;
  /** The campaign signature read before the payload was computed (the payload is at least as new). */
  signature: string;
  /** When the signature was read, on this object's request clock. */
  readAt: number;
  partial: boolean;
}

/** A full view that took less than this is computed for a first paint instead of the quick one. */
const CHEAP_FULL_MS = 300;

export class DashboardPayload {
  private readonly cache = new CampaignViewCache();
  private readonly watch: LedgerReader;
  private latestFull: Payload | null = null;
  private latestQuick: Payload | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private lastFullMs = Infinity;
  /** Orders requests and computations: a payload read after a request is current for it. */
  private clock = 0;
  private lastFullEnd = 0;

  constructor(private readonly dir: string) {
    this.watch = LedgerReader.open(dir);
  }

  signature(): string {
    let auditSize = -1;
    try {
      auditSize = fs.statSync(path.join(this.dir, AUDIT_FILE)).size;
    } catch {
      /* no log yet */
    }
    return `${this.watch.dataVersion()}/${auditSize}`;
  }

  /** A payload no older than the campaign at the time of the call (a page's first paint). */
  first(): Promise<Payload> {
    const asked = ++this.clock;
    const hit = this.current(this.signature(), asked);
    if (hit) return Promise.resolve(hit);
    return this.serial(() => {
      const again = this.current(this.signature(), asked);
      return again ? Promise.resolve(again) : this.compute(this.lastFullMs > CHEAP_FULL_MS);
    });
  }

  /** The full payload: recomputed when the campaign changed and a refresh is due. */
  full(): Promise<Payload> {
    const fresh = (): Payload | null => {
      const f = this.latestFull;
      if (f && (f.signature === this.signature() || !this.dueForRefresh())) return f;
      return null;
    };
    const hit = fresh();
    if (hit) return Promise.resolve(hit);
    return this.serial(() => {
      const again = fresh();
      return again ? Promise.resolve(again) : this.compute(false);
    });
  }

  close(): void {
    this.watch.close();
  }

  /** The fullest payload current for a request made at `asked` (null: none). */
  private current(sig: string, asked: number): Payload | null {
    for (const p of [this.latestFull, this.latestQuick]) if (p && (p.signature === sig || p.readAt > asked)) return p;
    return null;
  }

  private dueForRefresh(): boolean {
    return Date.now() - this.lastFullEnd >= 3 * (Number.isFinite(this.lastFullMs) ? this.lastFullMs : 0);
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => {});
    return run;
  }

  private async compute(quick: boolean): Promise<Payload> {
    const t0 = Date.now();
    // Read before the ledger is: the payload is at least as new as this signature.
    const readAt = ++this.clock;
    const sig = this.signature();
    const json = JSON.stringify(await campaignPayload(this.dir, { cache: this.cache, quick }));
    // One buffer: the event frame, whose middle is the JSON body (JSON.stringify writes no raw newline).
    const head = 'event: data\ndata: ';
    const frame = Buffer.from(`${head}${json}\n\n`);
    const payload: Payload = {
      body: frame.subarray(Buffer.byteLength(head), frame.length - 2),
      frame,
      signature: sig,
      readAt,
      partial: quick,
    };
    if (quick) this.latestQuick = payload;
    else {
      this.latestFull = payload;
      this.latestQuick = null;
      this.lastFullMs = Date.now() - t0;
      this.lastFullEnd = Date.now();
    }
    return payload;
  }
}
