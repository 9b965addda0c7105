/**
 * A copy of the repository as a fresh clone would have it, in a new temporary folder with nothing
 * beside it: the tracked files (`git ls-files`; outside a git checkout, every file but
 * node_modules/, dist/, out/ and .git/), plus what `npm ci` would add, taken from the checkout so
 * tests stay fast: node_modules as a symlink to the checkout's, the compiled dist/ (copied after
 * the sources, so it is newer than them, as `npm ci`'s compile leaves it) and the native kernel
 * build/Release/wflo_kernel.node with the stamp scripts/buildKernel.mjs writes beside it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const NOT_IN_A_CLONE = new Set(['node_modules', 'dist', 'out', '.git']);

/** Repository-relative paths of the files a clone holds. */
export function trackedFiles(repo: string): string[] {
  const git = spawnSync('git', ['-C', repo, 'ls-files', '-z'], { encoding: 'utf8' });
  if (git.status === 0 && git.stdout.length > 0) {
    // Tracked but deleted in the working tree: not in the copy.
    return git.stdout.split('\0').filter((f) => f !== '' && fs.existsSync(path.join(repo, f)));
  }
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(repo, rel), { withFileTypes: true })) {
      if (rel === '' && NOT_IN_A_CLONE.has(entry.name)) continue;
      const child = rel === '' ? entry.name : path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('');
  return out.sort();
}

export interface RepoCopy {
  /** The copy (a folder named `wflo` alone in its own temporary parent). */
  dir: string;
  files: number;
  remove(): void;
}

export function copyRepository(repo: string, options: { withBuild?: boolean } = {}): RepoCopy {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-clone-'));
  const dir = path.join(parent, 'wflo');
  const files = trackedFiles(repo);
  for (const rel of files) {
    const to = path.join(dir, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(repo, rel), to);
  }
  if (options.withBuild ?? true) {
    fs.symlinkSync(fs.realpathSync(path.join(repo, 'node_modules')), path.join(dir, 'node_modules'));
    for (const part of ['src', 'test', 'bench']) {
      if (fs.existsSync(path.join(repo, 'dist', part))) fs.cpSync(path.join(repo, 'dist', part), path.join(dir, 'dist', part), { recursive: true });
    }
    // The native kernel `npm ci` builds (package.json's install script, scripts/buildKernel.mjs).
    for (const file of ['wflo_kernel.node', 'wflo_kernel.stamp']) {
      const rel = path.join('build', 'Release', file);
      if (!fs.existsSync(path.join(repo, rel))) continue;
      fs.mkdirSync(path.join(dir, 'build', 'Release'), { recursive: true });
      fs.copyFileSync(path.join(repo, rel), path.join(dir, rel));
    }
    // The install script `npm ci` runs: nothing to do when the checkout's kernel was built from
    // these sources (the stamp says so); a kernel built before the stamp existed, or from other
    // sources, is built again in the copy, as `npm ci` would.
    const r = spawnSync('npm', ['run', '--silent', 'install'], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run install in ${dir} failed: ${r.stderr.split('\n').slice(-5).join('\n')}`);
  }
  return { dir, files: files.length, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}
