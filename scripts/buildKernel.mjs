/**
 * package.json's `install` script: build the native wake kernel (binding.gyp,
 * src/physics/native/) into build/Release/wflo_kernel.node, unless the kernel there was built
 * from the same sources for the same platform and still loads.
 *
 * npm runs this script more often than a reader expects: at `npm ci`, and again whenever the
 * folder is installed as a link (`npx wflo` typed inside the clone installs the clone into npx's
 * cache; `npm install -g .` links it), possibly offline, possibly interrupted. So:
 *   - up to date (build/Release/wflo_kernel.stamp names the same sources, platform and ABI, and
 *     the kernel loads): nothing is compiled and nothing under build/ is written;
 *   - otherwise node-gyp builds in a staging folder of its own (build/staging-<pid>/) and the new
 *     kernel replaces the old one by a rename only once it has built and loaded; a build that
 *     fails or is killed leaves the previous kernel as it was.
 * Plain JavaScript: it runs before `prepare` compiles the TypeScript. Exit 1 with one line when
 * the build fails (node-gyp's own output above it says why).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = 'src/physics/native';
const RELEASE = path.join(ROOT, 'build', 'Release');
const KERNEL = path.join(RELEASE, 'wflo_kernel.node');
const STAMP = path.join(RELEASE, 'wflo_kernel.stamp');

/** What the kernel is built from: binding.gyp and every native source, for this platform and Node ABI. */
function fingerprint() {
  const hash = createHash('sha256');
  const files = [
    'binding.gyp',
    ...fs
      .readdirSync(path.join(ROOT, SOURCES))
      .sort()
      .map((f) => `${SOURCES}/${f}`),
  ];
  for (const rel of files) {
    hash.update(`${rel}\0`);
    hash.update(fs.readFileSync(path.join(ROOT, rel)));
    hash.update('\0');
  }
  return `${hash.digest('hex')} ${process.platform}-${process.arch} abi${process.versions.modules}`;
}

function loads(file) {
  try {
    createRequire(import.meta.url)(file);
    return true;
  } catch {
    return false;
  }
}

function upToDate(print) {
  if (!fs.existsSync(KERNEL) || !fs.existsSync(STAMP)) return false;
  return fs.readFileSync(STAMP, 'utf8').trim() === print && loads(KERNEL);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === 'EPERM';
  }
  // A killed build whose parent is gone can stay a zombie where nothing reaps orphans (a
  // container without an init): it exists, but it builds nothing any more.
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Staging folders of builds that were killed: their process is gone. */
function removeAbandonedStaging() {
  const build = path.join(ROOT, 'build');
  if (!fs.existsSync(build)) return;
  for (const name of fs.readdirSync(build)) {
    const m = /^staging-(\d+)$/.exec(name);
    if (m && !alive(Number(m[1]))) fs.rmSync(path.join(build, name), { recursive: true, force: true });
  }
}

/** node-gyp as npm provides it to install scripts, else the one on PATH. */
function nodeGyp(args, cwd) {
  const bundled = process.env.npm_config_node_gyp;
  const [cmd, argv] = bundled && fs.existsSync(bundled) ? [process.execPath, [bundled, ...args]] : ['node-gyp', args];
  return spawnSync(cmd, argv, { cwd, stdio: 'inherit' });
}

function replaceFile(from, to) {
  const tmp = `${to}.tmp-${process.pid}`;
  fs.copyFileSync(from, tmp);
  fs.renameSync(tmp, to);
}

function build(print) {
  const staging = path.join(ROOT, 'build', `staging-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.join(staging, SOURCES), { recursive: true });
  try {
    fs.copyFileSync(path.join(ROOT, 'binding.gyp'), path.join(staging, 'binding.gyp'));
    for (const f of fs.readdirSync(path.join(ROOT, SOURCES))) fs.copyFileSync(path.join(ROOT, SOURCES, f), path.join(staging, SOURCES, f));
    const r = nodeGyp(['rebuild'], staging);
    const built = path.join(staging, 'build', 'Release', 'wflo_kernel.node');
    if (r.error) return `cannot start node-gyp (${r.error.message}); it comes with npm: run \`npm ci\` or \`npm rebuild\``;
    if (r.status !== 0 || !fs.existsSync(built)) return `node-gyp rebuild failed (exit ${r.status ?? r.signal}; it needs g++, make and python3)`;
    if (!loads(built)) return `the kernel node-gyp built in ${staging} does not load`;
    fs.mkdirSync(RELEASE, { recursive: true });
    replaceFile(built, KERNEL);
    fs.writeFileSync(`${STAMP}.tmp-${process.pid}`, `${print}\n`);
    fs.renameSync(`${STAMP}.tmp-${process.pid}`, STAMP);
    return null;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

removeAbandonedStaging();
const print = fingerprint();
if (upToDate(print)) {
  process.stdout.write(`wflo: native kernel up to date (${path.relative(ROOT, KERNEL)}, built from these sources); not rebuilt\n`);
} else {
  const problem = build(print);
  if (problem) {
    process.stderr.write(
      `wflo: the native wake kernel was not built: ${problem}${fs.existsSync(KERNEL) ? `; ${path.relative(ROOT, KERNEL)} is left as it was` : ''}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`wflo: built the native kernel ${path.relative(ROOT, KERNEL)}\n`);
}
