/**
 * Run by .ci/run in its fresh copy of the repository, right after `npm ci` and before `npm test`:
 * the README's first commands exactly as written, `npm ci` included (a second install, offline:
 * npm may use only the cache the first one filled), with the real npm and no `wflo` on PATH
 * (test/helpers/readerShell.ts). Fails (exit 1, one line) unless every line exits 0, the native
 * kernel the first `npm ci` built is left as it was (build/Release/wflo_kernel.node: bytes,
 * modification time, what build/ holds) and nothing new appeared in npm's npx cache.
 * test/cli/firstCommand.test.ts checks the same without the `npm ci`, in the suite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './helpers.js';
import { readmeFirstCommands } from './helpers/docCommands.js';
import { kernelFile } from './helpers/kernelFile.js';
import { readerShell } from './helpers/readerShell.js';

const fail = (message: string): never => {
  process.stderr.write(`ciFirstCommand: ${message}\n`);
  process.exit(1);
};

const shell = readerShell({ userCache: true });
try {
  const lines = readmeFirstCommands(fs.readFileSync(path.join(REPO, 'README.md'), 'utf8'), { withPrepared: true });
  const npx = path.join(shell.npmCache, '_npx');
  const npxEntries = () => (fs.existsSync(npx) ? fs.readdirSync(npx).sort() : []);
  const before = { kernel: kernelFile(REPO), npx: npxEntries() };
  for (const line of lines) {
    const t0 = Date.now();
    const r = shell.run(line, REPO, 1_800_000);
    if (r.status !== 0)
      fail(`\`${line}\` exited ${r.status ?? r.signal}:\n${r.stdout.split('\n').slice(-10).join('\n')}\n${r.stderr.split('\n').slice(-20).join('\n')}`);
    process.stdout.write(`ci: README's first commands: \`${line}\` exited 0 in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }
  const after = { kernel: kernelFile(REPO), npx: npxEntries() };
  if (JSON.stringify(after.kernel) !== JSON.stringify(before.kernel)) {
    fail(`build/Release/wflo_kernel.node changed: before ${JSON.stringify(before.kernel)}, after ${JSON.stringify(after.kernel)}`);
  }
  if (JSON.stringify(after.npx) !== JSON.stringify(before.npx))
    fail(`npm's npx cache ${npx} gained ${after.npx.filter((e) => !before.npx.includes(e)).join(', ')}`);
  process.stdout.write(`ci: build/Release/wflo_kernel.node unchanged (sha256 ${before.kernel.sha256.slice(0, 16)}…, same mtime)\n`);
} finally {
  shell.remove();
}
