/**
 * Issue 41's combination matrix: every pair of ten features (a site field, a per-point Weibull
 * site, shear with hub heights, several turbine models, neighbours, a time series, blockage, the
 * weighted sum, TurbOPark, a rotor average) either runs equal to PyWake to 1e-9 — the AEP in total
 * and per turbine — or is refused by `wflo validate` in one line naming the field, exit 2, and is a
 * row of docs/inputs.md's "Feature pairs" table with its reason.
 *
 * The cases are test/data/reference/matrix/<a>+<b>.yaml, written with PyWake b81c149 by
 * bench/peers/pywake_matrix.py (SOURCE.md there), also for the pairs wflo refuses: when a refusal is
 * lifted, its pair is checked against PyWake here at once, and this test fails until its docs row
 * goes. A pair PyWake does not compute has no `expected` and says why (`pywake_cannot`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { CLI, PYWAKE_REFERENCE, REPO } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { caseEvaluator, casePlan } from '../../src/optimize/caseEvaluator.js';
import type { Case } from '../../src/case/case.js';
import type { Site } from '../../src/physics/site/site.js';

const FEATURES = ['site', 'weibull', 'shear', 'mixed', 'neighbours', 'timeseries', 'blockage', 'weighted', 'turbopark', 'rotor'] as const;
const MATRIX = path.join(PYWAKE_REFERENCE, 'matrix');
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

/** A matrix case's document, read once. */
const docs = new Map<string, { pair?: string[]; expected?: unknown; pywake_cannot?: string }>();
function docOf(pair: string): { pair?: string[]; expected?: unknown; pywake_cannot?: string } {
  if (!docs.has(pair)) docs.set(pair, readYamlFile(path.join(MATRIX, `${pair}.yaml`)) as { pair?: string[] });
  return docs.get(pair)!;
}

/** The 45 pairs in FEATURES' order, as the files name them. */
const PAIRS: string[] = [];
FEATURES.forEach((a, i) => FEATURES.slice(i + 1).forEach((b) => PAIRS.push(`${a}+${b}`)));

/** `run` with WFLO_KERNEL=js (`js`) or as the environment has it (`plan`); the solve plan reads the variable when it plans. */
function withKernel<T>(kernel: 'plan' | 'js', run: () => T): T {
  if (kernel === 'plan') return run();
  const before = process.env.WFLO_KERNEL;
  process.env.WFLO_KERNEL = 'js';
  try {
    return run();
  } finally {
    if (before === undefined) delete process.env.WFLO_KERNEL;
    else process.env.WFLO_KERNEL = before;
  }
}

/** `wflo validate FILE` (the built CLI), at most `limit` at a time. */
async function validateAll(files: string[], limit = 3): Promise<Map<string, { status: number; stdout: string; stderr: string }>> {
  const out = new Map<string, { status: number; stdout: string; stderr: string }>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++];
      out.set(
        file,
        await new Promise((resolve) => {
          execFile(process.execPath, [CLI, 'validate', file], { cwd: REPO, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
            const status = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
            resolve({ status, stdout, stderr });
          });
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

/** The rows of docs/inputs.md's "Feature pairs" table: pair (`a × b` → `a+b`), the field refused, the PyWake column. */
function docsRows(): Map<string, { field: string; pywake: string; why: string }> {
  const text = fs.readFileSync(path.join(REPO, 'docs', 'inputs.md'), 'utf8');
  const start = text.indexOf('<!-- feature-pairs:start -->');
  const end = text.indexOf('<!-- feature-pairs:end -->');
  assert.ok(start >= 0 && end > start, 'docs/inputs.md has the feature-pairs table between its markers');
  const rows = new Map<string, { field: string; pywake: string; why: string }>();
  for (const line of text.slice(start, end).split('\n')) {
    const m = /^\|\s*`(\w+)`\s*×\s*`(\w+)`\s*\|\s*`((?:model\.)?\w+)`\s*\|([^|]+)\|([^|]+)\|\s*$/.exec(line);
    if (!m) continue;
    const key = `${m[1]}+${m[2]}`;
    assert.ok(!rows.has(key), `docs/inputs.md lists ${key} twice`);
    rows.set(key, { field: m[3], pywake: m[4].trim(), why: m[5].trim() });
  }
  return rows;
}

test('the matrix folder holds one case for each of the 45 feature pairs', () => {
  const files = fs
    .readdirSync(MATRIX)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();
  assert.deepEqual(files, [...PAIRS].sort());
  for (const pair of PAIRS) {
    const doc = docOf(pair);
    assert.deepEqual(doc.pair, pair.split('+'), `${pair}: the file's pair`);
    assert.ok((doc.expected === undefined) !== (doc.pywake_cannot === undefined), `${pair}: either PyWake's numbers or why PyWake cannot`);
  }
});

test('every feature pair runs equal to PyWake to 1e-9, or is refused in one line (exit 2) and documented', async () => {
  const rows = docsRows();
  // The in-process reader (what `validate` runs) on every pair; the built CLI on the refused ones.
  const read = new Map<string, { c: ReturnType<typeof caseFromReferenceDocument> | null; error: Error | null; doc: { pywake_cannot?: string } }>();
  for (const pair of PAIRS) {
    const file = path.join(MATRIX, `${pair}.yaml`);
    const doc = docOf(pair);
    try {
      read.set(pair, { c: caseFromReferenceDocument(doc, file), error: null, doc });
    } catch (e) {
      read.set(pair, { c: null, error: e as Error, doc });
    }
  }
  const refused = new Set(PAIRS.filter((p) => read.get(p)!.error));
  const results = await validateAll([...refused].map((p) => path.join(MATRIX, `${p}.yaml`)));
  for (const pair of PAIRS) {
    const file = path.join(MATRIX, `${pair}.yaml`);
    const { c, error, doc } = read.get(pair)!;
    if (error) {
      const cli = results.get(file)!;
      // The built CLI's validate refuses it as the reader does: one line naming the file and the field, exit 2.
      assert.equal(cli.status, 2, `${pair}: validate exit ${cli.status}: ${cli.stderr}`);
      const lines = cli.stderr.trim().split('\n');
      assert.equal(lines.length, 1, `${pair}: one line, got ${cli.stderr}`);
      const m = /^wflo: (.+?)(?::\d+)?: ((?:model\.)?\w+): (.+)$/.exec(lines[0]);
      assert.ok(m, `${pair}: names the file and the field: ${lines[0]}`);
      assert.equal(m[1], file, `${pair}: names the file`);
      assert.ok(error.message.includes(m[3]), `${pair}: the reader's words are the CLI's: ${error.message}`);
      const row = rows.get(pair);
      assert.ok(row, `${pair} is refused (${m[2]}: ${m[3]}) but docs/inputs.md's feature-pairs table has no row for it`);
      assert.equal(row.field, m[2], `${pair}: docs name ${row.field}, validate ${m[2]}`);
      continue;
    }
    assert.ok(c!.expected, `${pair}: wflo accepts a pair PyWake does not compute (${doc.pywake_cannot}); it needs a check of its own`);
    const e = c!.expected!;
    // The kernel the plan picks (native where it covers the pair), and the JavaScript one.
    for (const kernel of ['plan', 'js'] as const) {
      const r = withKernel(kernel, () => caseEvaluator(c!).aep(c!.layout!.x, c!.layout!.y));
      const what = `${pair} (${kernel === 'js' ? 'WFLO_KERNEL=js' : `the plan's kernel, ${casePlan(c!).kernel}`})`;
      assert.ok(rel(r.aepMwh, e.aepMwh) <= 1e-9, `${what}: AEP ${r.aepMwh} vs PyWake ${e.aepMwh} (${rel(r.aepMwh, e.aepMwh).toExponential(2)})`);
      assert.equal(r.perTurbineMwh.length, e.perTurbineMwh.length, `${what}: turbines`);
      e.perTurbineMwh.forEach((v, i) => assert.ok(rel(r.perTurbineMwh[i], v) <= 1e-9, `${what}: turbine ${i}: ${r.perTurbineMwh[i]} vs PyWake ${v}`));
    }
  }
  // The docs table is the refused set: a lifted pair fails here until its row goes.
  const stale = [...rows.keys()].filter((p) => !refused.has(p));
  assert.deepEqual(stale, [], `docs/inputs.md lists pairs wflo now runs (remove their rows): ${stale.join(', ')}`);
  for (const [pair, row] of rows) {
    const doc = docOf(pair);
    // The PyWake column says whether PyWake computes the pair (then the row says what it would take) or why it cannot.
    assert.equal(/^cannot\b/i.test(row.pywake), doc.pywake_cannot !== undefined, `${pair}: docs' PyWake column '${row.pywake}' vs the reference file`);
    assert.ok(row.why.length > 20, `${pair}: the row says why`);
  }
});

/**
 * A case without one of its features, or null where the feature is the case's wind or wake model
 * itself (a time series, TurbOPark): what "the feature shows" is checked against.
 */
function without(c: Case, feature: (typeof FEATURES)[number]): Case | null {
  const m = { ...c.model };
  const site = (edit: Partial<Site>): void => {
    const s = { ...m.site!, ...edit };
    m.site = s.speedup || s.ti || s.shear || s.weibull ? s : undefined;
  };
  switch (feature) {
    case 'site':
      site({ speedup: null, ti: null });
      break;
    case 'weibull':
      site({ weibull: null });
      break;
    case 'shear':
      site({ shear: null });
      break;
    case 'mixed':
      return { ...c, turbines: { ...c.turbines!, typeOf: new Int32Array(c.nTurbines) } };
    case 'neighbours':
      return { ...c, neighbours: undefined };
    case 'blockage':
      delete m.blockage;
      break;
    case 'weighted':
      m.superposition = 'linear';
      break;
    case 'rotor':
      m.rotorAverage = 'center';
      break;
    case 'timeseries':
    case 'turbopark':
      return null;
  }
  return { ...c, model: m };
}

test('each feature shows in the cases that run: without it the AEP departs from PyWake', () => {
  for (const pair of PAIRS) {
    const file = path.join(MATRIX, `${pair}.yaml`);
    let c: ReturnType<typeof caseFromReferenceDocument>;
    try {
      c = caseFromReferenceDocument(docOf(pair), file);
    } catch {
      continue;
    }
    for (const feature of pair.split('+') as (typeof FEATURES)[number][]) {
      const less = without(c, feature);
      if (!less) continue;
      const aep = caseEvaluator(less).aep(less.layout!.x, less.layout!.y).aepMwh;
      assert.ok(rel(aep, c.expected!.aepMwh) > 1e-6, `${pair}: without ${feature} the AEP ${aep} is still PyWake's ${c.expected!.aepMwh}`);
    }
  }
});
