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
 * Binds 127.0.0.1 by default. On any other address a random token is required, else 401: the
 * printed URL carries it once (`/?token=…`, accepted on the page route only), the page answer
 * sets it as an HttpOnly cookie (named per port: two dashboards on one host keep theirs) and the
 * page removes it from the address bar (history.replaceState); API calls carry the cookie, or
 * `Authorization: Bearer …` from a script. Every answer says `Referrer-Policy: no-referrer`, so
 * no URL leaves in a Referer header. On loopback the Host header must name a loopback host
 * (DNS-rebinding guard), and a request with two Host headers (the second foreign) is 400.
 *
 * Under load (a page left open in 200 tabs, a client that never reads, a port scanner) memory
 * stays bounded: at most `maxClients` event streams (then 503 with Retry-After), one shared frame
 * per change and never more than one waiting per client, a stream that does not drain is dropped
 * (sseClients.ts); at most 4 × maxClients connections, a newcomer taking the place of a client
 * that stopped reading or never sent a request (connectionGovernor.ts); a connection that sends
 * no complete request within 10 s, or stays silent for `idleTimeoutMs`, is cut.
 *
 * Payloads and their freshness: dashboardPayload.ts (a first paint is never older than the
 * campaign at the request). Change detection polls every `pollMs`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RuntimeFailure } from '../util/errors.js';
import { browserBuildPath, dashboardHtml } from './pageHtml.js';
import { PAGE_SCRIPT } from './pageScript.js';
import { requireCampaignFolder } from './writeReport.js';
import { DashboardPayload } from './dashboardPayload.js';
import { SseClients } from './sseClients.js';
import { ConnectionGovernor } from './connectionGovernor.js';

export interface DashboardOptions {
  dir: string;
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** Poll interval for changes, ms (default 1000). */
  pollMs?: number;
  /** Most event streams at once (default 64); one more gets 503 with Retry-After. */
  maxClients?: number;
  /** An event stream whose socket does not drain within this (plus its frame at 128 KiB/s) is dropped (default 10 000 ms). */
  drainTimeoutMs?: number;
  /** A connection with no traffic either way for this long is cut (default 30 000 ms; streams get a heartbeat every 15 s). */
  idleTimeoutMs?: number;
  /** Told (at most every 10 s) when streams were dropped or refused: one line for the operator. */
  onNotice?: (line: string) => void;
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

/** How many Host headers a request carries (`rawHeaders`: name, value, name, value, …). */
export function hostHeaderCount(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === 'host') n++;
  return n;
}

export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const dir = options.dir;
  requireCampaignFolder(dir);
  const host = options.host ?? '127.0.0.1';
  const token = isLoopbackHost(host) ? null : crypto.randomBytes(18).toString('base64url');
  const assets: Record<string, { type: string; body: () => Buffer }> = {};
  const lazyFile = (file: string) => {
    let b: Buffer | null = null;
    return () => (b ??= fs.readFileSync(file));
  };
  assets['/assets/vega.min.js'] = { type: 'text/javascript; charset=utf-8', body: lazyFile(browserBuildPath('vega')) };
  assets['/assets/vega-lite.min.js'] = { type: 'text/javascript; charset=utf-8', body: lazyFile(browserBuildPath('vega-lite')) };
  const pageScript = Buffer.from(PAGE_SCRIPT);
  assets['/assets/page.js'] = { type: 'text/javascript; charset=utf-8', body: () => pageScript };
  const pageHtml = Buffer.from(dashboardHtml('wflo dashboard'));

  const payload = new DashboardPayload(dir);
  const streams = new SseClients({ max: options.maxClients, drainTimeoutMs: options.drainTimeoutMs });
  let port = 0;
  const cookieName = () => `wflo_token_${port}`;

  const tokenMatches = (g: unknown): boolean =>
    token !== null && typeof g === 'string' && g.length === token.length && crypto.timingSafeEqual(Buffer.from(g), Buffer.from(token));
  /** The page route also takes `?token=` (the printed URL); every other route the cookie or a Bearer header. */
  const authorized = (req: http.IncomingMessage, query: URLSearchParams, page: boolean): boolean => {
    if (token === null) return true;
    const cookie = new RegExp(`(?:^|;\\s*)${cookieName()}=([^;]+)`).exec(req.headers.cookie ?? '')?.[1];
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return [cookie, bearer, page ? query.get('token') : null].some(tokenMatches);
  };
  const COMMON = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };
  const send = (res: http.ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'Content-Type': type, ...COMMON, ...extra });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  };

  const server = http.createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const route = q === -1 ? raw : raw.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
    // Node keeps the first of several Host headers: a second, foreign one would pass unseen to
    // whatever reads the last (a proxy), so a request with more than one is refused (RFC 9112 §3.2: 400).
    if (hostHeaderCount(req.rawHeaders) > 1) return send(res, 400, 'text/plain', 'bad request: more than one Host header\n');
    const hostHeader = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (token === null && !isLoopbackHost(hostHeader)) return send(res, 403, 'text/plain', 'forbidden host\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'read-only\n', { Allow: 'GET, HEAD' });
    const known = route === '/' || route === '/api/data' || route === '/api/events' || route in assets;
    if (!known) return send(res, 404, 'text/plain', 'not found\n');
    if (!authorized(req, query, route === '/')) return send(res, 401, 'text/plain', 'token required: open the URL printed by wflo dashboard\n');
    if (route === '/') {
      const cookie: Record<string, string> = token ? { 'Set-Cookie': `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/` } : {};
      return send(res, 200, 'text/html; charset=utf-8', pageHtml, cookie);
    }
    if (route in assets) return send(res, 200, assets[route].type, assets[route].body());
    if (route === '/api/data') {
      payload.first().then(
        (p) => send(res, 200, 'application/json', p.body),
        (err: Error) => send(res, 500, 'text/plain', `${err.message}\n`),
      );
      return;
    }
    // /api/events
    if (req.method === 'HEAD') return send(res, 200, 'text/event-stream', '');
    if (streams.full) {
      streams.refused++;
      return send(res, 503, 'text/plain', `busy: ${streams.max} live pages already; retry later\n`, { 'Retry-After': '10', Connection: 'close' });
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', ...COMMON, Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    res.write('retry: 2000\n\n');
    streams.add(res);
    // A page that got a quick or older payload gets the current full one right away.
    payload.full().then(
      (p) => streams.sendTo(res, p.frame),
      () => {
        /* the next poll retries */
      },
    );
  });
  // Idle and half-open connections are cut; the number of sockets is bounded.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  server.timeout = options.idleTimeoutMs ?? 30_000;
  const connections = new ConnectionGovernor(server, { max: 4 * streams.max });

  let lastSent: Buffer | null = null;
  let polling = false;
  let told = { dropped: 0, refused: 0, shed: 0, full: 0, at: 0 };
  const notice = () => {
    const dropped = streams.dropped - told.dropped,
      refused = streams.refused - told.refused;
    const shed = connections.shed - told.shed,
      full = connections.refused - told.full;
    if ((dropped === 0 && refused === 0 && shed === 0 && full === 0) || Date.now() - told.at < 10_000) return;
    const parts = [
      dropped > 0 ? `dropped ${dropped} event stream${dropped === 1 ? '' : 's'} that stopped reading` : '',
      refused > 0 ? `refused ${refused} (503: ${streams.max} open already)` : '',
      shed > 0 ? `closed ${shed} stalled or idle connection${shed === 1 ? '' : 's'} to let new ones in (${connections.max} at most)` : '',
      full > 0 ? `turned away ${full} connection${full === 1 ? '' : 's'} (${connections.max} busy already)` : '',
    ].filter(Boolean);
    options.onNotice?.(`${parts.join('; ')}; ${streams.size} open`);
    told = { dropped: streams.dropped, refused: streams.refused, shed: connections.shed, full: connections.refused, at: Date.now() };
  };
  const poll = setInterval(() => {
    streams.sweep();
    notice();
    if (streams.size === 0 || polling) return;
    polling = true;
    payload
      .full()
      .then(
        (p) => {
          if (p.frame !== lastSent) {
            lastSent = p.frame;
            streams.broadcast(p.frame);
          }
        },
        () => {
          /* the next poll retries */
        },
      )
      .finally(() => {
        polling = false;
      });
  }, options.pollMs ?? 1000);

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      clearInterval(poll);
      connections.close();
      payload.close();
      if (err.code === 'EADDRINUSE') reject(new RuntimeFailure(`port ${options.port} on ${host} is in use; pick another with --port`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') reject(new RuntimeFailure(`cannot bind ${host}: not an address of this machine`));
      else if (err.code === 'EACCES') reject(new RuntimeFailure(`port ${options.port} on ${host}: permission denied`));
      else reject(new RuntimeFailure(`cannot listen on ${host}:${options.port}: ${err.message}`));
    });
    server.listen(options.port ?? 8765, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/${token ? `?token=${token}` : ''}`,
    host,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(poll);
        connections.close();
        streams.closeAll();
        payload.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
