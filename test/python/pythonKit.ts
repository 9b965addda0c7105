/**
 * Helpers for the Python package's tests: Debian's python3 with python/ on PYTHONPATH, and little-endian
 * float64 hex (what the Python side prints with struct.pack('<d…').hex()) read back exactly,
 * and whether a process (an engine, a worker) is still alive.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PYTHON, REPO } from '../helpers.js';

export const PYTHON_PACKAGE = path.join(REPO, 'python');

/** Why the tests cannot run here (Python without NumPy, or SciPy when `scipy`), or false. */
export function pythonMissing(scipy = false): string | false {
  const r = spawnSync(PYTHON, ['-c', scipy ? 'import numpy, scipy' : 'import numpy'], { encoding: 'utf8' });
  return r.status === 0 ? false : `${PYTHON} with ${scipy ? 'numpy and scipy' : 'numpy'} is not available (apt-get install python3-numpy python3-scipy)`;
}

/** Run Python code (or a script with `args`) with the package on PYTHONPATH. */
export function runPython(args: string[], opts: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): SpawnSyncReturns<string> {
  return spawnSync(PYTHON, args, {
    cwd: opts.cwd ?? REPO,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 180_000,
    env: { ...process.env, PYTHONPATH: PYTHON_PACKAGE, WFLO_CLI: '', ...opts.env },
  });
}

/** The float64 values of a little-endian hex string. */
export function doublesOfHex(hex: string): Float64Array {
  const b = Buffer.from(hex, 'hex');
  const out = new Float64Array(b.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = b.readDoubleLE(i * 8);
  return out;
}

/** Whether pid is a live process (a zombie waiting for its reaper counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
