/**
 * The README's first command, and what npm does when a reader types `npx wflo` inside the clone
 * anyway, in a copy of the repository as `npm ci` leaves it (test/helpers/repoCopy.ts), with the
 * real npm, offline, and no `wflo` on PATH (test/helpers/readerShell.ts). Neither may rebuild,
 * replace or remove the native kernel (build/Release/wflo_kernel.node: same bytes, same
 * modification time, build/ holding the same files), and the README's line installs nothing into
 * npm's npx cache. The README's `npm ci` is the step that prepared the copy (.ci/run runs the line
 * whole, `npm ci` included, in its fresh copy: test/ciFirstCommand.ts). Last, the install script
 * itself: a kernel build killed halfway leaves the previous kernel loadable and in place.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { VERSION } from '../../src/version.js';
import { copyRepository, type RepoCopy } from '../helpers/repoCopy.js';
import { readerShell, type ReaderShell } from '../helpers/readerShell.js';
import { kernelFile } from '../helpers/kernelFile.js';
import { readmeFirstCommands } from '../helpers/docCommands.js';

let copy: RepoCopy;
let shell: ReaderShell;
before(() => {
  copy = copyRepository(REPO);
  shell = readerShell();
});
after(() => {
  copy?.remove();
  shell?.remove();
});

test("the README's first command runs as typed and leaves the native kernel as npm ci built it", () => {
  const first = readmeFirstCommands(fs.readFileSync(path.join(copy.dir, 'README.md'), 'utf8'));
  assert.ok(
    first.some((line) => /(^|&& )\.\/wflo /.test(line)),
    `the README's first block runs no ./wflo: ${first.join(' | ')}`,
  );
  const kernel = kernelFile(copy.dir);
  for (const line of first) {
    const r = shell.run(line, copy.dir);
    assert.equal(r.status, 0, `\`${line}\` exited ${r.status ?? r.signal}\n${r.stderr.split('\n').slice(-10).join('\n')}`);
  }
  assert.ok(fs.existsSync(path.join(copy.dir, 'out')), 'the first command wrote its output');
  assert.deepEqual(kernelFile(copy.dir), kernel, 'build/Release/wflo_kernel.node untouched');
  assert.ok(!fs.existsSync(path.join(shell.npmCache, '_npx')), "nothing installed into npm's npx cache");
});

test('`npx wflo` typed inside the clone out of habit: npm installs it as a link, its scripts compile and build nothing', () => {
  const kernel = kernelFile(copy.dir);
  const mainJs = path.join(copy.dir, 'dist', 'src', 'cli', 'main.js');
  const compiledAt = fs.statSync(mainJs).mtimeMs;
  const r = shell.run('npx wflo --version', copy.dir);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), VERSION);
  // npm did install the clone into its npx cache (libnpmexec: the folder's own package.json names
  // a `wflo` bin), so the install and prepare scripts ran: they found everything up to date.
  assert.ok(fs.existsSync(path.join(shell.npmCache, '_npx')), 'npx installed the clone into its cache (what the README tells readers to avoid)');
  assert.deepEqual(kernelFile(copy.dir), kernel, 'build/Release/wflo_kernel.node untouched');
  assert.equal(fs.statSync(mainJs).mtimeMs, compiledAt, 'dist/ not compiled again');
});

test('a kernel build killed halfway leaves the previous kernel in place and loadable; the next install finds it up to date', async () => {
  const header = path.join(copy.dir, 'src', 'physics', 'native', 'kernel.h');
  const original = fs.readFileSync(header);
  const kernel = kernelFile(copy.dir);
  // Another source: the install script must build (its stamp no longer matches).
  fs.appendFileSync(header, '\n// changed by firstCommand.test.ts\n');
  const npm = spawn('npm', ['run', 'install'], { cwd: copy.dir, env: shell.env, detached: true, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  const build = path.join(copy.dir, 'build');
  let compiling: string | null = null;
  try {
    // Kill it once the compiler is at work in the staging folder (objects appear there).
    for (let waited = 0; waited < 300_000 && compiling === null && npm.exitCode === null; waited += 100) {
      compiling =
        fs
          .readdirSync(build)
          .filter((n) => n.startsWith('staging-'))
          .map((n) => path.join(build, n, 'build', 'Release', 'obj.target'))
          .find((d) => fs.existsSync(d)) ?? null;
      if (compiling === null) await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
    await exited;
  }
  assert.ok(compiling, 'the install script started building in a staging folder');
  assert.deepEqual(fs.readdirSync(path.join(build, 'Release')).sort(), ['wflo_kernel.node', 'wflo_kernel.stamp'], 'no partial file beside the kernel');
  assert.deepEqual({ ...kernelFile(copy.dir), build: [] }, { ...kernel, build: [] }, 'the previous kernel: same bytes, same modification time');
  const load = spawnSync(process.execPath, ['-e', `console.log(require(${JSON.stringify(path.join(build, 'Release', 'wflo_kernel.node'))}).bestIsa())`], {
    encoding: 'utf8',
  });
  assert.equal(load.status, 0, load.stderr);
  assert.match(load.stdout, /^(avx2|sse2)$/m);
  // The sources as they were: up to date again, nothing compiled, the killed build's folder removed.
  fs.writeFileSync(header, original);
  const again = spawnSync('npm', ['run', 'install'], { cwd: copy.dir, env: shell.env, encoding: 'utf8' });
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /native kernel up to date/);
  assert.deepEqual(kernelFile(copy.dir), kernel);
});
