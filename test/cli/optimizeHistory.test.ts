/**
 * `wflo optimize --history FILE` (optimize/history.ts, io/historyFile.ts): one row per L-BFGS
 * iteration of the gradient method on cs1-16 — iterations counted 1, 2, … up to the result's
 * `iterations`, evaluations never going back and ending within the result's, each stage's wake
 * expansion factor the method's continuation (then the restart stage at 1), the last row the
 * returned AEP at the last stage's feasibility tolerance; the JSON form holds the same rows; the
 * global (population) method's rows are its starts and hops (generations) with the best AEP so
 * far, ending at the result's; an LCOE run's cost stages are in currency per MWh;
 * recording never changes the result (one LCOE run serves its history test and the result-file test at the end); --starts > 1, somebody else's file and a missing folder (also for --out) are refused (exit 2).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PYTHON, REPO, runWflo, tempDir } from '../helpers.js';
import { resolveSettings } from '../../src/optimize/settings.js';

interface Row {
  event: string;
  iteration: number | null;
  stage: number;
  wec: number | null;
  objective: number;
  max_violation_m: number;
  evaluations: number;
}

function readCsv(file: string): Row[] {
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  assert.equal(lines[0], '# Written by `wflo optimize --history`');
  assert.equal(lines[1], 'event,iteration,stage,wec,objective,max_violation_m,evaluations');
  const num = (s: string) => (s === '' ? null : Number(s));
  return lines.slice(2).map((l) => {
    const [event, iteration, stage, wec, objective, viol, evaluations] = l.split(',');
    return {
      event,
      iteration: num(iteration),
      stage: Number(stage),
      wec: num(wec),
      objective: Number(objective),
      max_violation_m: Number(viol),
      evaluations: Number(evaluations),
    };
  });
}

/**
 * The LCOE run of mixed-choice-cost.yaml (gradient, 8 iterations) with `--out`, `--history` and
 * `--json` at once, run once for the two tests that read it (the history's cost stages; the result
 * file's economics): `--history` does not change the result (checked on cs1-16 above).
 */
let lcoeShared: { dir: string; out: string; history: string; caseFile: string; r: ReturnType<typeof runWflo> } | null = null;
function lcoeRun(): NonNullable<typeof lcoeShared> {
  if (lcoeShared) return lcoeShared;
  const dir = tempDir('wflo-history-lcoe-');
  const out = path.join(dir, 'best.yaml');
  const history = path.join(dir, 'lcoe.json');
  const caseFile = path.join(REPO, 'examples', 'mixed-choice-cost.yaml');
  const r = runWflo(
    ['optimize', caseFile, '--method', 'gradient', '--objective', 'lcoe', '--max-iterations', '8', '--out', out, '--json', '--history', history],
    { timeoutMs: 300_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  lcoeShared = { dir, out, history, caseFile, r };
  return lcoeShared;
}
after(() => {
  if (lcoeShared) fs.rmSync(lcoeShared.dir, { recursive: true, force: true });
});

const GRADIENT = ['optimize', 'iea37-cs1-16', '--method', 'gradient', '--max-iterations', '20', '--seed', '3', '--json'];

test("--history of the gradient method: every L-BFGS iteration, counts up to the result's, the stages' factors, the last row the result", () => {
  const dir = tempDir('wflo-history-');
  try {
    const csv = path.join(dir, 'h.csv'),
      json = path.join(dir, 'h.json');
    const a = runWflo([...GRADIENT, '--history', csv], { timeoutMs: 300_000 });
    assert.equal(a.status, 0, a.stderr);
    const b = runWflo([...GRADIENT, '--history', json], { timeoutMs: 300_000 });
    assert.equal(b.status, 0, b.stderr);
    const plain = runWflo(GRADIENT, { timeoutMs: 300_000 });
    const strip = (s: string) => {
      const { wall_s: _w, ...rest } = JSON.parse(s) as Record<string, unknown>;
      return rest;
    };
    assert.deepEqual(strip(a.stdout), strip(plain.stdout), 'recording does not change the result');
    const r = JSON.parse(a.stdout) as { aep_mwh: number; iterations: number; evaluations: number };
    const rows = readCsv(csv);
    assert.ok(rows.length > 50, `${rows.length} rows`);
    assert.ok(rows.every((row) => row.event === 'descent'));
    assert.deepEqual(
      rows.map((row) => row.iteration),
      rows.map((_, k) => k + 1),
      'one row per iteration, counted from 1',
    );
    assert.equal(rows.at(-1)!.iteration, r.iterations);
    assert.ok(
      rows.every((row, k) => k === 0 || row.evaluations >= rows[k - 1].evaluations),
      'evaluations never go back',
    );
    assert.ok(rows.at(-1)!.evaluations <= r.evaluations && rows.at(-1)!.evaluations >= r.iterations);
    // The continuation's stages, then the restart stage at the model's own wake (factor 1).
    const factors = [...resolveSettings({ method: 'gradient' }).wec, 1];
    assert.deepEqual(
      [...new Set(rows.map((row) => row.stage))],
      factors.map((_, k) => k),
    );
    for (const row of rows) assert.equal(row.wec, factors[row.stage], `stage ${row.stage}`);
    // The last row is the returned layout: its AEP (Φ less the penalty term: a rounding apart) and
    // a violation within the last stage's tolerance, 1e-6 D (D = 130 m).
    assert.ok(Math.abs(rows.at(-1)!.objective - r.aep_mwh) <= 1e-9 * r.aep_mwh, `${rows.at(-1)!.objective} vs ${r.aep_mwh}`);
    assert.ok(rows.at(-1)!.max_violation_m >= 0 && rows.at(-1)!.max_violation_m <= 1.3e-4, String(rows.at(-1)!.max_violation_m));
    assert.ok(rows.every((row) => row.max_violation_m >= 0 && Number.isFinite(row.objective)));
    const doc = JSON.parse(fs.readFileSync(json, 'utf8')) as { format: string; columns: string[]; rows: Row[] };
    assert.equal(doc.format, 'wflo-history/1');
    assert.deepEqual(doc.columns, ['event', 'iteration', 'stage', 'wec', 'objective', 'max_violation_m', 'evaluations']);
    assert.deepEqual(doc.rows, rows, "the JSON file holds the CSV's rows");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("--history of the global and population methods: starts, then hops or generations, the best AEP so far, ending at the result's", () => {
  const dir = tempDir('wflo-history-');
  try {
    const csv = path.join(dir, 'g.csv');
    const g = runWflo(['optimize', 'iea37-cs1-16', '--method', 'global', '--hops', '2', '--max-iterations', '10', '--seed', '3', '--json', '--history', csv], {
      timeoutMs: 300_000,
    });
    assert.equal(g.status, 0, g.stderr);
    const r = JSON.parse(g.stdout) as { aep_mwh: number; evaluations: number };
    const rows = readCsv(csv);
    const starts = rows.filter((row) => row.event === 'start'),
      hops = rows.filter((row) => row.event === 'hop');
    assert.ok(starts.length >= 1);
    assert.deepEqual(
      starts.map((row) => row.stage),
      starts.map((_, k) => k),
    );
    assert.deepEqual(
      hops.map((row) => row.stage),
      [0, 1],
    );
    assert.deepEqual(
      rows.map((row) => row.event),
      [...starts.map(() => 'start'), 'hop', 'hop'],
    );
    assert.ok(
      rows.every(
        (row, k) =>
          row.iteration === null && row.wec === null && (k === 0 || (row.objective >= rows[k - 1].objective && row.evaluations >= rows[k - 1].evaluations)),
      ),
    );
    assert.equal(rows.at(-1)!.objective, r.aep_mwh);
    assert.ok(rows.at(-1)!.evaluations <= r.evaluations);
    // The population method: its starts, then its generations numbered on, the final polish last.
    const pfile = path.join(dir, 'p.csv');
    const p = runWflo(['optimize', 'iea37-cs1-16', '--method', 'population', '--max-iterations', '5', '--seed', '1', '--json', '--history', pfile], {
      timeoutMs: 300_000,
    });
    assert.equal(p.status, 0, p.stderr);
    const pr = JSON.parse(p.stdout) as { aep_mwh: number; evaluations: number };
    const prow = readCsv(pfile);
    const pstarts = prow.filter((row) => row.event === 'start'),
      generations = prow.filter((row) => row.event === 'generation');
    assert.ok(pstarts.length >= 1 && generations.length >= 2);
    assert.deepEqual(
      prow.map((row) => row.event),
      [...pstarts.map(() => 'start'), ...generations.map(() => 'generation')],
    );
    assert.deepEqual(
      generations.map((row) => row.stage),
      generations.map((_, k) => k),
    );
    assert.ok(prow.every((row, k) => k === 0 || (row.objective >= prow[k - 1].objective && row.evaluations >= prow[k - 1].evaluations)));
    assert.equal(prow.at(-1)!.objective, pr.aep_mwh);
    assert.ok(prow.at(-1)!.evaluations <= pr.evaluations);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("--history is refused with several starts and over somebody else's file (exit 2, nothing written); its own file is replaced", () => {
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

test("--history of an LCOE run: energy stages in MWh, cost stages in the case's LCOE, ending at the result's (0.1 %)", { timeout: 300_000 }, () => {
  {
    const { history: file, r } = lcoeRun();
    const j = JSON.parse(r.stdout) as { iterations: number; economics: { objective: string; value: number } };
    assert.equal(j.economics.objective, 'lcoe');
    const rows = (JSON.parse(fs.readFileSync(file, 'utf8')) as { rows: Row[] }).rows;
    assert.ok(
      rows.every((row, k) => k === 0 || row.iteration! > rows[k - 1].iteration!),
      'iterations count on across the runs of a model choice',
    );
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
  }
});

/*
 * `wflo optimize --out FILE` under a cost objective writes, beside the layout, the objective and
 * the layout's economics (LCOE, NPV, IRR, cable length and cost, cost items) and its collection
 * network (`wflo.economics.cable_to`, `cable_type`) in the file's own turbine order (a farm that
 * chose its models is written grouped by model). Read back by Debian's python3-yaml: the network is
 * a tree from the case's substation, within the cable's capacity, and its length recomputed from
 * the written layout equals the written cable_length_m (1e-9 relative); the figures are the ones
 * `--json` prints.
 */
const hasYaml = spawnSync(PYTHON, ['-c', 'import yaml'], { encoding: 'utf8' }).status === 0;

test('optimize --out with economics: the objective, the figures and the cable network in the result file', {
  skip: hasYaml ? false : 'python3-yaml is not installed',
  timeout: 300_000,
}, () => {
  const { out, caseFile, r } = lcoeRun();
  const printed = JSON.parse(r.stdout) as { economics: { lcoe: number; npv: number; cable_length_m: number; cable_cost: number }; turbine_types: number[] };
  const py = spawnSync(
    PYTHON,
    [
      '-c',
      `
import yaml, json, math, sys
doc = yaml.safe_load(open(sys.argv[1]))
case = yaml.safe_load(open(sys.argv[2]))
w = doc['wflo']
e = w['economics']
x, y = doc['layout']['x'], doc['layout']['y']
n = len(x)
subs = case['economics']['substations']
caps = {c['name']: c['capacity'] for c in case['economics']['cables']}
to, types = e['cable_to'], e['cable_type']
assert len(to) == n and len(types) == n
load = [1] * n
for i in range(n):
    j, steps = to[i], 0
    while j >= 0:
        assert j < n and j != i
        load[j] += 1
        j = to[j]; steps += 1
        assert steps <= n, 'cycle'
    assert -1 - j < len(subs)
assert all(load[i] <= caps[types[i]] for i in range(n)), (load, types)
total = sum(math.hypot(x[i] - (x[to[i]] if to[i] >= 0 else subs[-1 - to[i]][0]), y[i] - (y[to[i]] if to[i] >= 0 else subs[-1 - to[i]][1])) for i in range(n))
print(json.dumps({'objective': w['objective'], 'value': e['value'], 'lcoe': e['lcoe_per_mwh'], 'npv': e['npv'], 'length': e['cable_length_m'],
                  'cost': e['cable_cost'], 'recomputed': total, 'feeders': sum(1 for t in to if t < 0), 'items': sorted(e['cost_breakdown']),
                  'models': [t['n'] for t in doc['turbines']]}))
`,
      out,
      caseFile,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);
  const f = JSON.parse(py.stdout) as {
    objective: string;
    value: number;
    lcoe: number;
    npv: number;
    length: number;
    cost: number;
    recomputed: number;
    feeders: number;
    items: string[];
    models: number[];
  };
  assert.equal(f.objective, 'lcoe');
  assert.equal(f.value, f.lcoe);
  assert.equal(f.lcoe, printed.economics.lcoe);
  assert.equal(f.npv, printed.economics.npv);
  assert.equal(f.length, printed.economics.cable_length_m);
  assert.equal(f.cost, printed.economics.cable_cost);
  assert.ok(Math.abs(f.recomputed - f.length) <= 1e-9 * f.length, `${f.recomputed} vs ${f.length}`);
  // 16 turbines, capacity 5: at least 4 feeders.
  assert.ok(f.feeders >= 4, String(f.feeders));
  assert.ok(f.items.includes('capex_eur'), f.items.join(','));
  // The file stands alone: its AEP reproduces, and it is read as a case again.
  assert.doesNotMatch(r.stderr, /note:/);
  assert.equal(runWflo(['aep', out]).status, 0);
});
