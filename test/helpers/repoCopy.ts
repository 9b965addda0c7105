/**
 * A copy of the repository as a fresh clone would have it, in a new temporary folder with nothing
 * beside it: the tracked files (`git ls-files`; outside a git checkout, every file but
 * node_modules/, dist/, out/ and .git/), plus what `npm ci` would add, taken from the checkout so
 * tests stay fast: node_modules as a symlink to the checkout's, the compiled dist/src/ and the
 * native kernel build/Release/wflo_kernel.node.
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
    fs.cpSync(path.join(repo, 'dist', 'src'), path.join(dir, 'dist', 'src'), { recursive: true });
    // The native kernel `npm ci` builds (node-gyp, package.json's install script).
    const addon = path.join('build', 'Release', 'wflo_kernel.node');
    if (fs.existsSync(path.join(repo, addon))) {
      fs.mkdirSync(path.join(dir, 'build', 'Release'), { recursive: true });
      fs.copyFileSync(path.join(repo, addon), path.join(dir, addon));
    }
  }
  return { dir, files: files.length, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}
