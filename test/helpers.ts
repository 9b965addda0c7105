/** Paths and small helpers shared by the test files (compiled to dist/test/). */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tests run from dist/test/…). */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * IEA37 case-study files in the published format, written by test/writeIea37Files.ts from the
 * facts in test/data/iea37/facts.yaml (SOURCE.md there says where each number comes from).
 */
export const IEA37 = path.join(REPO, 'test', 'data', 'iea37');
/** PyWake reference cases, copied as they were written (test/data/reference/SOURCE.md). */
export const PYWAKE_REFERENCE = path.join(REPO, 'test', 'data', 'reference');
export const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function runWflo(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? REPO,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 120_000,
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function tempDir(prefix = 'wflo-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The Python that has Debian's python3-h5py (installed by .ci/run). The python3 first on PATH may
 * be another interpreter (pyenv) that cannot see Debian's packages.
 */
export const PYTHON = process.env.WFLO_PYTHON ?? (fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

/** Whether h5py is importable (interoperability tests skip with a message when not); asked once per process. */
let h5pyImportable: boolean | undefined;
export function hasH5py(): boolean {
  h5pyImportable ??= spawnSync(PYTHON, ['-c', 'import h5py'], { encoding: 'utf8' }).status === 0;
  return h5pyImportable;
}
