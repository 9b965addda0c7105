/**
 * A throwaway redis-server for tests: Debian's /usr/bin/redis-server on a free 127.0.0.1 port, in
 * a temporary folder, with what the BullMQ executor needs (AOF on, fsync always, noeviction, no
 * RDB snapshots), optionally a password. `stop()` kills it (call it from an after-hook, so it
 * also runs when the test fails); `kill9()` + `restart()` simulate a crash and a restart on the
 * same data folder (the AOF replays).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REDIS_SERVER = '/usr/bin/redis-server';

export function hasRedisServer(): boolean {
  return fs.existsSync(REDIS_SERVER);
}

export interface RedisServerOptions {
  password?: string;
  /** Override the eviction policy (tests of the config check). */
  maxmemoryPolicy?: string;
  /** AOF fsync policy (default 'always': tests must not lose an acknowledged write). */
  appendfsync?: 'always' | 'everysec';
}

/** A port nobody listens on now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function waitForPort(port: number, child: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(
          new Error(
            `redis-server exited (${child.exitCode ?? child.signalCode}): ${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-500) : ''}`,
          ),
        );
        return;
      }
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.destroy();
        resolve();
      });
      sock.once('error', () => {
        sock.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

export class RedisServer {
  readonly dir: string;
  port = 0;
  private child: ChildProcess | null = null;
  private readonly options: RedisServerOptions;

  private constructor(dir: string, options: RedisServerOptions) {
    this.dir = dir;
    this.options = options;
  }

  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const server = new RedisServer(fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-redis-')), options);
    await server.launch(await freePort());
    return server;
  }

  /** redis://[:password@]127.0.0.1:PORT */
  get url(): string {
    return `redis://${this.options.password ? `:${encodeURIComponent(this.options.password)}@` : ''}127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child?.pid ?? -1;
  }

  private async launch(port: number): Promise<void> {
    this.port = port;
    const logFile = path.join(this.dir, 'redis.log');
    const args = [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--dir',
      this.dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      this.options.appendfsync ?? 'always',
      '--save',
      '',
      '--maxmemory-policy',
      this.options.maxmemoryPolicy ?? 'noeviction',
      '--logfile',
      logFile,
      '--daemonize',
      'no',
      '--protected-mode',
      'yes',
    ];
    if (this.options.password) args.push('--requirepass', this.options.password);
    // Own process group: an after-hook can kill it even if this test process is being torn down.
    this.child = spawn(REDIS_SERVER, args, { stdio: 'ignore', detached: true });
    await waitForPort(port, this.child, 10_000, logFile);
  }

  /** SIGKILL (a crash): the data folder and its AOF stay. */
  async kill9(): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    await exited;
  }

  /** Start again on the same port and folder (the AOF replays). */
  async restart(): Promise<void> {
    await this.kill9();
    await this.launch(this.port);
  }

  /** SIGKILL, delete everything it had persisted, start again on the same port (a server that lost its data). */
  async restartEmpty(): Promise<void> {
    await this.kill9();
    for (const entry of fs.readdirSync(this.dir)) if (entry !== 'redis.log') fs.rmSync(path.join(this.dir, entry), { recursive: true, force: true });
    await this.launch(this.port);
  }

  /** Kill it and delete its folder. Safe to call twice. */
  async stop(): Promise<void> {
    await this.kill9();
    this.child = null;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
