/**
 * The queue's address: `redis://[user:pass@]HOST:PORT[/DB]` or `rediss://…` (TLS), as given to
 * `--queue` or in WFLO_QUEUE. Parsing gives the connection settings and a redacted form
 * (`redis://user:***@host:6379/0`) that is the only form ever printed, logged or stored:
 * passwords never reach logs, status, the audit log or layouts.h5. `redactQueueUrls` cleans any
 * text (an error message from the Redis client) of URL passwords it may carry.
 */
import { InputError } from '../../../util/errors.js';

export interface QueueAddress {
  tls: boolean;
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** The URL with the password replaced by `***`: safe to print. */
  redacted: string;
}

const EXPECTED = 'expected redis://[user:pass@]HOST:PORT[/DB] or rediss://… (TLS)';

/** Any redis URL's password in `text`, replaced by `***`. */
export function redactQueueUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:)[^\s@]*@/gi, '$1***@');
}

/** Parse a queue URL; `source` names where it came from (`--queue`, `WFLO_QUEUE`) for the one-line error (exit 2). */
export function parseQueueUrl(text: string, source = '--queue'): QueueAddress {
  const shown = redactQueueUrls(text.trim());
  const fail = (why: string): never => {
    throw new InputError(`${source}: ${why} in '${shown}' (${EXPECTED})`);
  };
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    return fail('not a URL');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') fail(`unsupported scheme '${u.protocol.replace(/:$/, '')}'`);
  if (!u.hostname) fail('no host');
  if (u.search || u.hash) fail('query strings and fragments are not supported');
  const port = u.port === '' ? 6379 : Number(u.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`bad port '${u.port}'`);
  let db = 0;
  const dbText = u.pathname.replace(/^\//, '');
  if (dbText !== '') {
    if (!/^\d{1,5}$/.test(dbText)) fail(`database must be a number, got '${dbText}'`);
    db = Number(dbText);
  }
  const username = u.username ? decodeURIComponent(u.username) : undefined;
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const auth = username || password ? `${u.username}${password ? ':***' : ''}@` : '';
  const redacted = `${u.protocol}//${auth}${u.hostname}:${port}${dbText !== '' ? `/${db}` : ''}`;
  return { tls: u.protocol === 'rediss:', host, port, db, username, password, redacted };
}

/** The queue URL from an option, else WFLO_QUEUE, else null (local mode). */
export function queueUrlFrom(option: string | undefined, env: NodeJS.ProcessEnv = process.env): { url: string; source: string } | null {
  if (option !== undefined) return { url: option, source: '--queue' };
  const fromEnv = env.WFLO_QUEUE;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { url: fromEnv, source: 'WFLO_QUEUE' };
  return null;
}
