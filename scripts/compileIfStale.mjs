/**
 * package.json's `prepare` script: compile the TypeScript (`tsc -p tsconfig.json`) into dist/,
 * unless every source tsconfig.json includes already has its dist/ output, newer than the source
 * and than tsconfig.json, package.json and package-lock.json (as make decides).
 *
 * npm runs `prepare` at `npm ci`, `npm pack`, and whenever the folder is installed as a link
 * (`npx wflo` typed inside the clone, `npm install -g .`): a compile there would take a minute of
 * a reader's time for nothing. `npm run build` and `npm test` always compile.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The folders tsconfig.json's `include` names (src/**/*.ts, test/**/*.ts, bench/**/*.ts).
const SOURCE_FOLDERS = ['src', 'test', 'bench'];
const SETTINGS = ['tsconfig.json', 'package.json', 'package-lock.json'];

function* typescriptFiles(rel) {
  for (const entry of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
    const child = path.join(rel, entry.name);
    if (entry.isDirectory()) yield* typescriptFiles(child);
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield child;
  }
}

const mtime = (file) => fs.statSync(file).mtimeMs;

/** The first reason to compile, or null when dist/ is up to date. */
function staleReason() {
  const settingsTime = Math.max(...SETTINGS.filter((f) => fs.existsSync(path.join(ROOT, f))).map((f) => mtime(path.join(ROOT, f))));
  for (const folder of SOURCE_FOLDERS) {
    if (!fs.existsSync(path.join(ROOT, folder))) continue;
    for (const source of typescriptFiles(folder)) {
      const output = path.join(ROOT, 'dist', source.replace(/\.ts$/, '.js'));
      if (!fs.existsSync(output)) return `${path.relative(ROOT, output)} is missing`;
      const outTime = mtime(output);
      if (outTime < mtime(path.join(ROOT, source))) return `${source} changed`;
      if (outTime < settingsTime) return `${SETTINGS.join(' or ')} changed`;
    }
  }
  return null;
}

const reason = staleReason();
if (reason === null) {
  process.stdout.write('wflo: dist/ is up to date with every TypeScript source; not compiled again\n');
} else {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  process.stdout.write(`wflo: compiling (${reason})\n`);
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
