/**
 * Case folders written by one Python process instead of one per case: a writer is Python source
 * defining `write(ref, out, extra)` (a reference case file, an empty output folder, a writer-specific
 * string); every job gets a folder of its own and the writer's `case.yaml` in it. Importing xarray
 * costs about a second of CPU per process, so the site-file tests write all their variants at once.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PYTHON, PYWAKE_REFERENCE, runWflo, tempDir } from '../helpers.js';

/**
 * Python a writer starts with: `load(ref)`, a fresh copy of a reference case's document per call
 * (each job edits its own); `edited(name, value, statement, **more)`, the value after a job's
 * statement edited the variable `name` (more: other names it may use); `save_case(doc, out,
 * site_file)`, out/case.yaml: the case with its site in the file written beside it.
 */
export const PY_CASE_TOOLS = `
import copy, yaml
_docs = {}
def load(ref):
    if ref not in _docs:
        _docs[ref] = yaml.safe_load(open(ref))
    return copy.deepcopy(_docs[ref])
def edited(name, value, statement, **more):
    scope = {name: value, **more}
    exec(statement, scope)
    return scope[name]
def save_case(doc, out, site_file):
    doc['site'] = {'file': site_file}
    yaml.safe_dump(doc, open(out + '/case.yaml', 'w'), sort_keys=False, width=120, default_flow_style=None)
`;

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

/** `wflo aep FILE --json` gives the AEP and every turbine's AEP of the file's PyWake `expected` block, to 1e-9. */
export function assertPyWakeAep(file: string): void {
  const r = runWflo(['aep', file, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const expected = parse(fs.readFileSync(file, 'utf8')).expected;
  assert.ok(rel(out.aep_mwh, expected.aep_mwh) <= 1e-9, `${out.aep_mwh} vs PyWake ${expected.aep_mwh}`);
  assert.equal(out.per_turbine_mwh.length, expected.aep_per_turbine_mwh.length);
  expected.aep_per_turbine_mwh.forEach((v: number, i: number) =>
    assert.ok(rel(out.per_turbine_mwh[i], v) <= 1e-9, `turbine ${i}: ${out.per_turbine_mwh[i]} vs ${v}`),
  );
}

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
