/**
 * Case folders written by one Python process instead of one per case: a writer is Python source
 * defining `write(ref, out, extra)` (a reference case file, an empty output folder, a writer-specific
 * string); every job gets a folder of its own and the writer's `case.yaml` in it. Importing xarray
 * costs about a second of CPU per process, so the site-file tests write all their variants at once.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PYTHON, PYWAKE_REFERENCE, tempDir } from '../helpers.js';

const DRIVER = `
import sys, json
for ref, out, extra in json.load(sys.stdin):
    write(ref, out, extra)
`;

/** Runs `writer` once per [reference file name in test/data/reference, extra]; returns each job's case.yaml, in order. */
export function pythonCases(writer: string, jobs: [reference: string, extra: string][], prefix = 'wflo-pycase-'): string[] {
  if (jobs.length === 0) return [];
  const dirs = jobs.map(() => tempDir(prefix));
  const input = JSON.stringify(jobs.map(([reference, extra], i) => [path.join(PYWAKE_REFERENCE, reference), dirs[i], extra]));
  const r = spawnSync(PYTHON, ['-c', writer + DRIVER], { input, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return dirs.map((d) => path.join(d, 'case.yaml'));
}

/** Whether Debian's Python imports `modules` (a comma-separated import list), asked once per list. */
const imports = new Map<string, boolean>();
export function pythonHas(modules: string): boolean {
  if (!imports.has(modules)) imports.set(modules, spawnSync(PYTHON, ['-c', `import ${modules}`], { encoding: 'utf8' }).status === 0);
  return imports.get(modules)!;
}

/**
 * `jobs` written by one `pythonCases` run on the first call (so a test that is skipped writes
 * nothing); then the case.yaml of one job, by its reference and extra.
 */
export function casesOnce(writer: string, jobs: [reference: string, extra: string][], prefix?: string): (reference: string, extra: string) => string {
  let files: Map<string, string> | null = null;
  return (reference, extra) => {
    files ??= new Map(pythonCases(writer, jobs, prefix).map((file, i) => [JSON.stringify(jobs[i]), file]));
    const file = files.get(JSON.stringify([reference, extra]));
    assert.ok(file, `no job [${reference}, ${extra}] in this batch`);
    return file;
  };
}
