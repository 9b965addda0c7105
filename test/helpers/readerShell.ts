/**
 * The shell a reader types the README's lines into, for tests that run documented lines in a copy
 * of the repository (test/helpers/repoCopy.ts): bash, the real node and npm, and a PATH with no
 * `wflo` on it (a fresh machine has none until the README's `npm install -g .`). npm's global
 * prefix and its cache are temporary folders of their own, so `npm install -g .` links into the
 * prefix, `npx` would write only there, and the user's own npm cache is neither read nor written;
 * npm runs offline (`npm_config_offline`: it may use only that empty cache, so a line that needs
 * the registry fails instead of downloading). No npm setting is changed otherwise: install and
 * prepare scripts run as they would for the reader.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers.js';

export interface ReaderShell {
  env: NodeJS.ProcessEnv;
  /** npm's global prefix (`npm install -g` links into `bin/` and `lib/node_modules/`). */
  prefix: string;
  /** npm's cache (`_npx/` appears there when `npx` installs a package); with `userCache`, the user's. */
  npmCache: string;
  /** One line, as typed, in `cwd`. */
  run(line: string, cwd: string, timeoutMs?: number): SpawnSyncReturns<string>;
  remove(): void;
}

const hasWflo = (dir: string): boolean => {
  try {
    fs.accessSync(path.join(dir, 'wflo'), fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * `userCache`: npm's cache is the user's own (still offline): .ci/run's fresh copy runs `npm ci`
 * again from what its first `npm ci` put there.
 */
export function readerShell(options: { userCache?: boolean } = {}): ReaderShell {
  const root = tempDir('wflo-reader-');
  const prefix = path.join(root, 'prefix');
  const npmCache = path.join(root, 'npm-cache');
  fs.mkdirSync(path.join(prefix, 'bin'), { recursive: true });
  fs.mkdirSync(npmCache);
  const nodeDir = path.dirname(process.execPath);
  const inherited = (process.env.PATH ?? '').split(path.delimiter).filter((d) => d !== '' && !hasWflo(d));
  const PATH = [path.join(prefix, 'bin'), nodeDir, ...inherited].join(path.delimiter);
  if (hasWflo(nodeDir)) throw new Error(`${nodeDir} (node's folder) holds a wflo: a reader's fresh PATH would not`);
  // What `npm test` passes to its scripts (npm_config_*, npm_package_*, npm_lifecycle_*) is the
  // test runner's, not the reader's: a reader's shell has none of it.
  const own = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const env: NodeJS.ProcessEnv = {
    ...own,
    PATH,
    npm_config_prefix: prefix,
    ...(options.userCache ? {} : { npm_config_cache: npmCache }),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    NO_COLOR: '1',
  };
  const cache = options.userCache ? spawnSync('npm', ['config', 'get', 'cache'], { env, encoding: 'utf8' }).stdout.trim() : npmCache;
  return {
    env,
    prefix,
    npmCache: cache,
    run: (line, cwd, timeoutMs = 240_000) => spawnSync('bash', ['-c', line], { cwd, env, encoding: 'utf8', timeout: timeoutMs }),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
