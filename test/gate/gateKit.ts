/**
 * Helpers for the gate's tests: read layouts.h5 with h5py (an independent reader) as plain rows,
 * and edit files the way a person with sqlite3 or h5py would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { CLI, PYTHON } from '../helpers.js';

export interface H5Row {
  task_id: string;
  aep: number;
  layout: number[][];
  source: string;
}

/** Every row of a layouts.h5 as h5py reads it (task id, AEP, layout without padding, source). */
export async function layoutsRows(file: string): Promise<H5Row[]> {
  const script = `
import h5py, json, sys, numpy as np
with h5py.File(sys.argv[1], 'r') as f:
    ids = f['task_id'].asstr()[:]
    n = f['n_turbines'][:]
    lay = f['layout'][:]
    aep = f['aep'][:]
    src = f['source'].asstr()[:] if 'source' in f else [''] * len(ids)
    rows = [{'task_id': str(ids[i]), 'aep': float(aep[i]), 'layout': lay[i, :n[i], :].tolist(), 'source': str(src[i])} for i in range(len(ids))]
print(json.dumps(rows))
`;
  const r = spawnSync(PYTHON, ['-c', script, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`h5py could not read ${file}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as H5Row[]).map((row) => ({ ...row, source: row.source.split(':')[0] }));
}

/** Run a Python snippet (h5py, numpy, json available); throws with its stderr when it fails. */
export function python(script: string, args: string[] = []): string {
  const r = spawnSync(PYTHON, ['-c', script, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python failed: ${r.stderr}`);
  return r.stdout;
}

/** The real `wflo` command (dist/src/cli/main.js) in a child process. */
export function wflo(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '',
    stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
