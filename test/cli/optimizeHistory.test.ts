/**
 * `wflo optimize --history FILE` (optimize/history.ts, io/historyFile.ts): one row per L-BFGS
 * iteration of the gradient method on cs1-16 — iterations counted 1, 2, … up to the result's
 * `iterations`, evaluations never going back and ending within the result's, each stage's wake
 * expansion factor the method's continuation (then the restart stage at 1), the last row the
 * returned AEP at the last stage's feasibility tolerance; the JSON form holds the same rows; the
 * global (population) method's rows are its starts and hops (generations) with the best AEP so
 * far, ending at the result's; an LCOE run's cost stages are in currency per MWh;
 * recording never changes the result; --starts > 1, somebody else's file and a missing folder (also for --out) are refused (exit 2).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { resolveSettings } from '../../src/optimize/settings.js';

interface Row { event: string; iteration: number | null; stage: number; wec: number | null; objective: number; max_violation_m: number; evaluations: number }

function readCsv(file: string): Row[] {
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  assert.equal(lines[0], '# Written by `wflo optimize --history`');
  assert.equal(lines[1], 'event,iteration,stage,wec,objective,max_violation_m,evaluations');
  const num = (s: string) => (s === '' ? null : Number(s));
  return lines.slice(2).map((l) => {
    const [event, iteration, stage, wec, objective, viol, evaluations] = l.split(',');
    return { event, iteration: num(iteration), stage: Number(stage), wec: num(wec), objective: Number(objective), max_violation_m: Number(viol), evaluations: Number(evaluations) };
  });
}

const GRADIENT = ['optimize', 'iea37-cs1-16', '--method', 'gradient', '--max-iterations', '20', '--seed', '3', '--json'];

test('--history of the gradient method: every L-BFGS iteration, counts up to the result\'s, the stages\' factors, the last row the result', () => {
  const dir = tempDir('wflo-history-');
  try {
    const csv = path.join(dir, 'h.csv'), json = path.join(dir, 'h.json');
    const a = runWflo([...GRADIENT, '--history', csv], { timeoutMs: 300_000 });
    assert.equal(a.status, 0, a.stderr);
    const b = runWflo([...GRADIENT, '--history', json], { timeoutMs: 300_000 });
    assert.equal(b.status, 0, b.stderr);
    const plain = runWflo(GRADIENT, { timeoutMs: 300_000 });
    const strip = (s: string) => { const { wall_s: _w, ...rest } = JSON.parse(s) as Record<string, unknown>; return rest; };
    assert.deepEqual(strip(a.stdout), strip(plain.stdout), 'recording does not change the result');
    const r = JSON.parse(a.stdout) as { aep_mwh: number; iterations: number; evaluations: number };
    const rows = readCsv(csv);
    assert.ok(rows.length > 50, `${rows.length} rows`);
    assert.ok(rows.every((row) => row.event === 'descent'));
    assert.deepEqual(rows.map((row) => row.iteration), rows.map((_, k) => k + 1), 'one row per iteration, counted from 1');
    assert.equal(rows.at(-1)!.iteration, r.iterations);
    assert.ok(rows.every((row, k) => k === 0 || row.evaluations >= rows[k - 1].evaluations), 'evaluations never go back');
    assert.ok(rows.at(-1)!.evaluations <= r.evaluations && rows.at(-1)!.evaluations >= r.iterations);
    // The continuation's stages, then the restart stage at the model's own wake (factor 1).
    const factors = [...resolveSettings({ method: 'gradient' }).wec, 1];
    assert.deepEqual([...new Set(rows.map((row) => row.stage))], factors.map((_, k) => k));
    for (const row of rows) assert.equal(row.wec, factors[row.stage], `stage ${row.stage}`);
    // The last row is the returned layout: its AEP (Φ less the penalty term: a rounding apart) and
    // a violation within the last stage's tolerance, 1e-6 D (D = 130 m).
    assert.ok(Math.abs(rows.at(-1)!.objective - r.aep_mwh) <= 1e-9 * r.aep_mwh, `${rows.at(-1)!.objective} vs ${r.aep_mwh}`);
    assert.ok(rows.at(-1)!.max_violation_m >= 0 && rows.at(-1)!.max_violation_m <= 1.3e-4, String(rows.at(-1)!.max_violation_m));
    assert.ok(rows.every((row) => row.max_violation_m >= 0 && Number.isFinite(row.objective)));
    const doc = JSON.parse(fs.readFileSync(json, 'utf8')) as { format: string; columns: string[]; rows: Row[] };
    assert.equal(doc.format, 'wflo-history/1');
    assert.deepEqual(doc.columns, ['event', 'iteration', 'stage', 'wec', 'objective', 'max_violation_m', 'evaluations']);
    assert.deepEqual(doc.rows, rows, 'the JSON file holds the CSV\'s rows');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--history of the global and population methods: starts, then hops or generations, the best AEP so far, ending at the result\'s', () => {
  const dir = tempDir('wflo-history-');
  try {
    const csv = path.join(dir, 'g.csv');
    const g = runWflo(['optimize', 'iea37-cs1-16', '--method', 'global', '--hops', '2', '--max-iterations', '10', '--seed', '3', '--json', '--history', csv], { timeoutMs: 300_000 });
    assert.equal(g.status, 0, g.stderr);
    const r = JSON.parse(g.stdout) as { aep_mwh: number; evaluations: number };
    const rows = readCsv(csv);
    const starts = rows.filter((row) => row.event === 'start'), hops = rows.filter((row) => row.event === 'hop');
    assert.ok(starts.length >= 1);
    assert.deepEqual(starts.map((row) => row.stage), starts.map((_, k) => k));
    assert.deepEqual(hops.map((row) => row.stage), [0, 1]);
    assert.deepEqual(rows.map((row) => row.event), [...starts.map(() => 'start'), 'hop', 'hop']);
    assert.ok(rows.every((row, k) => row.iteration === null && row.wec === null && (k === 0 || (row.objective >= rows[k - 1].objective && row.evaluations >= rows[k - 1].evaluations))));
    assert.equal(rows.at(-1)!.objective, r.aep_mwh);
    assert.ok(rows.at(-1)!.evaluations <= r.evaluations);
    // The population method: its starts, then its generations numbered on, the final polish last.
    const pfile = path.join(dir, 'p.csv');
    const p = runWflo(['optimize', 'iea37-cs1-16', '--method', 'population', '--max-iterations', '5', '--seed', '1', '--json', '--history', pfile], { timeoutMs: 300_000 });
    assert.equal(p.status, 0, p.stderr);
    const pr = JSON.parse(p.stdout) as { aep_mwh: number; evaluations: number };
    const prow = readCsv(pfile);
    const pstarts = prow.filter((row) => row.event === 'start'), generations = prow.filter((row) => row.event === 'generation');
    assert.ok(pstarts.length >= 1 && generations.length >= 2);
    assert.deepEqual(prow.map((row) => row.event), [...pstarts.map(() => 'start'), ...generations.map(() => 'generation')]);
    assert.deepEqual(generations.map((row) => row.stage), generations.map((_, k) => k));
    assert.ok(prow.every((row, k) => k === 0 || (row.objective >= prow[k - 1].objective && row.evaluations >= prow[k - 1].evaluations)));
    assert.equal(prow.at(-1)!.objective, pr.aep_mwh);
    assert.ok(prow.at(-1)!.evaluations <= pr.evaluations);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--history is refused with several starts and over somebody else\'s file (exit 2, nothing written); its own file is replaced', () => {
  const dir = tempDir('wflo-history-');
  try {
    const file = path.join(dir, 'h.csv');
    const many = runWflo(['optimize', 'iea37-cs1-16', '--method', 'none', '--starts', '2', '--history', file]);
    assert.equal(many.status, 2);
    assert.equal(many.stderr, 'wflo: --history: records one optimization, not 2 starts (run each seed with --starts 1)\n');
    assert.equal(fs.existsSync(file), false);
    // A folder that is not there is said before the run (not after it, with the work lost).
    const nowhere = path.join(dir, 'no', 'h.csv');
    const missingDir = runWflo(['optimize', 'iea37-cs1-16', '--method', 'gradient', '--history', nowhere]);
    assert.equal(missingDir.status, 2);
    assert.equal(missingDir.stderr, `wflo: --history ${nowhere}: folder ${path.join(dir, 'no')} does not exist\n`);
    // Likewise --out (and every other file output through io/overwrite.ts): refused at once, nothing optimized.
    const outNowhere = path.join(dir, 'no', 'best.yaml');
    const missingOut = runWflo(['optimize', 'iea37-cs1-16', '--method', 'gradient', '--out', outNowhere]);
    assert.equal(missingOut.status, 2);
    assert.equal(missingOut.stderr, `wflo: --out ${outNowhere}: folder ${path.join(dir, 'no')} does not exist\n`);
    fs.writeFileSync(file, 'mine\n');
    const foreign = runWflo(['optimize', 'iea37-cs1-16', '--method', 'gradient', '--max-iterations', '3', '--history', file]);
    assert.equal(foreign.status, 2);
    assert.equal(foreign.stderr, `wflo: --history ${file}: the file exists and was not written by wflo; not replaced (give --force to replace it)\n`);
    assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
    const forced = runWflo(['optimize', 'iea37-cs1-16', '--method', 'gradient', '--max-iterations', '3', '--history', file, '--force']);
    assert.equal(forced.status, 0, forced.stderr);
    const again = runWflo(['optimize', 'iea37-cs1-16', '--method', 'gradient', '--max-iterations', '3', '--seed', '1', '--history', file]);
    assert.equal(again.status, 0, again.stderr);
    assert.ok(readCsv(file).length > 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--history of an LCOE run: energy stages in MWh, cost stages in the case\'s LCOE, ending at the result\'s (0.1 %)', { timeout: 300_000 }, () => {
  const dir = tempDir('wflo-history-');
  try {
    const file = path.join(dir, 'lcoe.json');
    const r = runWflo(['optimize', path.join('examples', 'mixed-choice-cost.yaml'), '--method', 'gradient', '--objective', 'lcoe', '--max-iterations', '8', '--json', '--history', file], { timeoutMs: 300_000 });
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { iterations: number; economics: { objective: string; value: number } };
    assert.equal(j.economics.objective, 'lcoe');
    const rows = (JSON.parse(fs.readFileSync(file, 'utf8')) as { rows: Row[] }).rows;
    assert.ok(rows.every((row, k) => k === 0 || row.iteration! > rows[k - 1].iteration!), 'iterations count on across the runs of a model choice');
    assert.ok(rows.at(-1)!.iteration! <= j.iterations);
    // Each stage is an energy stage (AEPs in MWh: thousands of times an LCOE) or a cost stage (at
    // wec 1, LCOEs near the result's); the model choice runs the optimization twice, so there are
    // two cost stages, each ending a run; the last row is the result's LCOE.
    const lcoe = j.economics.value;
    const stages = [...new Set(rows.map((row) => row.stage))];
    const kindOf = (stage: number) => {
      const of = rows.filter((row) => row.stage === stage);
      if (of.every((row) => row.objective > 1000 * lcoe)) return 'energy';
      if (of.every((row) => row.wec === 1 && Math.abs(row.objective - lcoe) < 0.5 * lcoe)) return 'cost';
      return 'mixed';
    };
    const kinds = stages.map(kindOf);
    assert.ok(!kinds.includes('mixed'), kinds.join(','));
    assert.deepEqual(stages.filter((_, k) => kinds[k] === 'cost').length, 2, kinds.join(','));
    assert.equal(kinds.at(-1), 'cost');
    assert.ok(Math.abs(rows.at(-1)!.objective - lcoe) <= 1e-3 * lcoe, `${rows.at(-1)!.objective} vs ${lcoe}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
