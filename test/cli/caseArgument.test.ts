/**
 * Every command that takes a case takes a built-in case name where it takes a case file
 * (src/io/caseArgument.ts): `wflo aep NAME` (was "file not found"), `aep --case`, `validate`,
 * `optimize`, `plot`, `plot --case`. The AEPs are the IEA37 case-study references
 * (test/data/iea37/facts.yaml, published with the case studies), not wflo's own numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IEA37, runWflo, tempDir } from '../helpers.js';
import { readIea37Facts } from '../writeIea37Files.js';

const facts = readIea37Facts();
const ex16 = facts.baselines.ex16.aep_mwh;
const ex64 = facts.baselines.ex64.aep_mwh;
const relative = (a: number, b: number): number => Math.abs(a - b) / b;

test("wflo aep NAME evaluates the built-in case's baseline layout, as --case NAME does", () => {
  for (const args of [
    ['aep', 'iea37-cs1-64', '--json'],
    ['aep', '--case', 'iea37-cs1-64', '--json'],
  ]) {
    const r = runWflo(args);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { aep_mwh: number; n_turbines: number };
    assert.equal(out.n_turbines, 64);
    assert.ok(relative(out.aep_mwh, ex64) < 1e-9, `${args.join(' ')}: ${out.aep_mwh} vs the IEA37 reference ${ex64}`);
  }
});

test('aep --case takes a case file too, and a layout FILE with it is evaluated on that case', () => {
  const dir = tempDir();
  try {
    const caseFile = path.join(dir, 'site.yaml');
    fs.writeFileSync(caseFile, 'base: iea37-cs1-16\n');
    const r = runWflo(['aep', path.join(IEA37, 'cs1-2', 'iea37-ex16.yaml'), '--case', caseFile, '--json']);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(relative((JSON.parse(r.stdout) as { aep_mwh: number }).aep_mwh, ex16) < 1e-9);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('validate, optimize and plot take the name; a file written ./NAME is a file', () => {
  const v = runWflo(['validate', 'iea37-cs4', '--json']);
  assert.equal(v.status, 0, v.stderr);
  assert.deepEqual((({ kind, n_turbines }) => ({ kind, n_turbines }))(JSON.parse(v.stdout) as { kind: string; n_turbines: number }), {
    kind: 'case',
    n_turbines: 81,
  });
  const o = runWflo(['optimize', 'iea37-cs1-16', '--method', 'none', '--initial', 'given', '--json']);
  assert.equal(o.status, 0, o.stderr);
  assert.ok(relative((JSON.parse(o.stdout) as { aep_initial_mwh: number }).aep_initial_mwh, ex16) < 1e-9, "it starts from the case's (baseline) layout");
  const dir = tempDir();
  try {
    const p = runWflo(['plot', 'iea37-cs1-16', '-o', path.join(dir, 'p.svg')]);
    assert.equal(p.status, 0, p.stderr);
    assert.ok(fs.statSync(path.join(dir, 'p.svg')).size > 1000);
    const layout = runWflo(['plot', path.join(IEA37, 'cs1-2', 'iea37-ex16.yaml'), '--case', 'iea37-cs1-16', '-o', path.join(dir, 'q.svg')]);
    assert.equal(layout.status, 0, layout.stderr);
    // A file named like a built-in case is reached as ./NAME.
    fs.writeFileSync(path.join(dir, 'iea37-cs1-36'), 'base: iea37-cs1-16\n');
    const asFile = runWflo(['aep', './iea37-cs1-36', '--json'], { cwd: dir });
    assert.equal(asFile.status, 0, asFile.stderr);
    assert.equal(
      (JSON.parse(asFile.stdout) as { n_turbines: number }).n_turbines,
      16,
      './iea37-cs1-36 is the 16-turbine case file, not the built-in 36-turbine case',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a word that is neither a built-in case nor a file: one line, exit 2, the nearest name', () => {
  for (const args of [
    ['aep', 'iea37-cs1-61'],
    ['optimize', 'iea37-cs1-61'],
    ['validate', 'iea37-cs1-61'],
    ['plot', 'iea37-cs1-61'],
    ['aep', '--case', 'iea37-cs1-61'],
  ]) {
    const r = runWflo(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /unknown case 'iea37-cs1-61': not a built-in case .* and no file of that name; did you mean 'iea37-cs1-16'\?/);
  }
});
