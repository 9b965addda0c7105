/**
 * `wflo dashboard DIR`: a read-only live page for a campaign, on node:http.
 *
 * A fixed route table (exact paths, compared before any decoding): `/` (the page),
 * `/assets/page.js`, `/assets/vega.min.js`, `/assets/vega-lite.min.js` (files chosen by the
 * server, never by the request), `/api/data` (the payload of the report) and `/api/events`
 * (server-sent events: the payload again whenever the ledger or the audit log changes). Anything
 * else is 404, so no request path reaches the file system (`/../ledger.sqlite`, `%2e%2e`,
 * absolute paths). Only GET and HEAD.
 *
 * Binds 127.0.0.1 by default. On any other address a random token is required (query
 * `?token=…`, `Authorization: Bearer …`, or the cookie the page sets), else 401. On loopback the
 * Host header must name a loopback host (DNS-rebinding guard).
 *
 * Change detection polls once a second: SQLite's `PRAGMA data_version` on a long-lived
 * read-only connection (changes when another connection commits) and the audit log's size.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ledger } from '../runner/ledger.js';
import { AUDIT_FILE } from '../runner/auditLog.js';
import { RuntimeFailure } from '../util/errors.js';
import { CampaignViewCache } from './campaignData.js';
import { browserBuildPath, dashboardHtml } from './pageHtml.js';
import { PAGE_SCRIPT } from './pageScript.js';
import { campaignPayload, requireCampaignFolder } from './writeReport.js';
import path from 'node:path';

export interface DashboardOptions {
  dir: string;
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** Poll interval for changes, ms (default 1000). */
  pollMs?: number;
}

export interface Dashboard {
  url: string;
  host: string;
  port: number;
  /** null on loopback binds. */
  token: string | null;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
export const isLoopbackHost = (host: string): boolean => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const dir = options.dir;
  requireCampaignFolder(dir);
  const host = options.host ?? '127.0.0.1';
  const token = isLoopbackHost(host) ? null : crypto.randomBytes(18).toString('base64url');
  const cache = new CampaignViewCache();
  const assets: Record<string, { type: string; body: () => Buffer }> = {};
  const lazyFile = (file: string) => { let b: Buffer | null = null; return () => (b ??= fs.readFileSync(file)); };
  assets['/assets/vega.min.js'] = { type: 'text/javascript; charset=utf-8', body: lazyFile(browserBuildPath('vega')) };
  assets['/assets/vega-lite.min.js'] = { type: 'text/javascript; charset=utf-8', body: lazyFile(browserBuildPath('vega-lite')) };
  assets['/assets/page.js'] = { type: 'text/javascript; charset=utf-8', body: () => Buffer.from(PAGE_SCRIPT) };

  // The payload, recomputed only when the ledger or the audit log changed. The first request
  // gets a quick view (status and statistics, no layout plots or throughput) at once; the full
  // view follows over the event stream.
  const watch = Ledger.open(dir, { readonly: true });
  let latest: { json: string; signature: string; partial: boolean } | null = null;
  let computing: Promise<string> | null = null;
  const signature = (): string => {
    let auditSize = -1;
    try { auditSize = fs.statSync(path.join(dir, AUDIT_FILE)).size; } catch { /* no log yet */ }
    return `${watch.db.pragma('data_version', { simple: true }) as number}/${auditSize}`;
  };
  // A big campaign's full view takes a second or more: while a run changes the ledger every
  // second, recompute at most every 3 × its last duration, so the page never starves the run.
  let lastFullMs = 0, lastFullEnd = 0;
  const compute = (quick: boolean): Promise<string> => {
    computing ??= (async () => {
      const t0 = Date.now();
      try {
        const sig = signature();
        const json = JSON.stringify(await campaignPayload(dir, { cache, quick }));
        latest = { json, signature: sig, partial: quick };
        if (!quick) { lastFullMs = Date.now() - t0; lastFullEnd = Date.now(); }
        return json;
      } finally {
        computing = null;
      }
    })();
    return computing;
  };
  const dueForRefresh = (): boolean => Date.now() - lastFullEnd >= 3 * lastFullMs;
  /** The freshest full payload, recomputed when something changed. */
  const fullPayload = async (): Promise<string> => {
    if (latest && !latest.partial && (latest.signature === signature() || !dueForRefresh())) return latest.json;
    if (computing) await computing.catch(() => {});
    if (latest && !latest.partial && latest.signature === signature()) return latest.json;
    return compute(false);
  };
  /** What a page gets first: the latest payload, or a quick one when there is none. */
  const firstPayload = async (): Promise<string> => {
    if (latest) return latest.json;
    if (computing) return computing;
    return compute(true);
  };

  const clients = new Set<http.ServerResponse>();
  const authorized = (req: http.IncomingMessage, query: URLSearchParams): boolean => {
    if (token === null) return true;
    const given = [query.get('token'), /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1], /(?:^|;\s*)wflo_token=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]];
    const expected = Buffer.from(token);
    return given.some((g) => typeof g === 'string' && g.length === token.length && crypto.timingSafeEqual(Buffer.from(g), expected));
  };
  const send = (res: http.ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...extra });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };

  const server = http.createServer((req, res) => {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const route = q === -1 ? raw : raw.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
    const hostHeader = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (token === null && !isLoopbackHost(hostHeader)) return send(res, 403, 'text/plain', 'forbidden host\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'read-only\n', { Allow: 'GET, HEAD' });
    const known = route === '/' || route === '/api/data' || route === '/api/events' || route in assets;
    if (!known) return send(res, 404, 'text/plain', 'not found\n');
    if (!authorized(req, query)) return send(res, 401, 'text/plain', 'token required: open the URL printed by wflo dashboard\n');
    if (route === '/') {
      const cookie: Record<string, string> = token ? { 'Set-Cookie': `wflo_token=${token}; HttpOnly; SameSite=Strict; Path=/` } : {};
      return send(res, 200, 'text/html; charset=utf-8', dashboardHtml('wflo dashboard'), cookie);
    }
    if (route in assets) return send(res, 200, assets[route].type, assets[route].body());
    if (route === '/api/data') {
      firstPayload().then((json) => send(res, 200, 'application/json', json), (err: Error) => send(res, 500, 'text/plain', `${err.message}\n`));
      return;
    }
    // /api/events
    if (req.method === 'HEAD') return send(res, 200, 'text/event-stream', '');
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    clients.add(res);
    // A page that got a quick or older payload gets the current full one right away.
    void fullPayload().then((json) => { if (clients.has(res)) res.write(`event: data\ndata: ${json}\n\n`); }, () => {});
    req.on('close', () => clients.delete(res));
  });

  let lastSent = '';
  let polling = false;
  const poll = setInterval(() => {
    if (clients.size === 0 || polling) return;
    polling = true;
    fullPayload().then((json) => {
      if (json !== lastSent) {
        lastSent = json;
        for (const c of clients) c.write(`event: data\ndata: ${json}\n\n`);
      } else {
        for (const c of clients) c.write(': alive\n\n');
      }
    }, () => { /* the next poll retries */ }).finally(() => { polling = false; });
  }, options.pollMs ?? 1000);

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      clearInterval(poll);
      watch.close();
      if (err.code === 'EADDRINUSE') reject(new RuntimeFailure(`port ${options.port} on ${host} is in use; pick another with --port`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') reject(new RuntimeFailure(`cannot bind ${host}: not an address of this machine`));
      else if (err.code === 'EACCES') reject(new RuntimeFailure(`port ${options.port} on ${host}: permission denied`));
      else reject(new RuntimeFailure(`cannot listen on ${host}:${options.port}: ${err.message}`));
    });
    server.listen(options.port ?? 8765, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/${token ? `?token=${token}` : ''}`,
    host, port, token,
    close: () => new Promise<void>((resolve) => {
      clearInterval(poll);
      for (const c of clients) c.end();
      clients.clear();
      watch.close();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
