/**
 * Robust record runs (issue 28; not a `npm run bench` section: a search takes minutes to hours).
 * An IEA37 case whose rose is replaced by a treated one (physics/directionTreatment.ts: each bin
 * spread evenly over its width in n sub-directions) is an ordinary case, so every optimizer method
 * works on it with exact gradients; this script runs them, with continuation from a coarse spread
 * to a fine one, and keeps every result.
 *
 *   node dist/bench/robustRecords.js search CASE --spread N --method M --seeds A-B
 *        [--settings JSON] [--start FILE.jsonl:LINE] [--polish N] [--out DIR]
 *     for each seed: optimize CASE (a built-in case) on its rose spread in N sub-directions per bin
 *     (N = 0: the rose as it is) with the optimizer settings {method: M, ...JSON}; with --start,
 *     from the layout of an earlier result (initial: given); with --polish N2, then the gradient
 *     method from that layout on the spread N2 (the continuation). Prints, and appends to
 *     DIR/CASE.jsonl (default out/robust), the layout, its AEP on the rose (bins) and spread over
 *     20 sub-directions, its feasibility (1e-6 m) and the CPU seconds of this process for the seed.
 *   node dist/bench/robustRecords.js write CASE --measure spread20|bins [--line K] [--out DIR] [--name NAME]
 *     writes the best feasible result of DIR/CASE.jsonl on the measure (or its line K, from 0) as a self-contained case file
 *     examples/results/NAME (its wind: the rose written out with the treatment, so `wflo aep FILE`
 *     gives the recorded AEP), its `wflo:` block saying how it was made (the stages: method, seed,
 *     spread, settings, CPU s).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinCase } from '../src/io/builtinCases.js';
import { treatDirections } from '../src/physics/directionTreatment.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { checkFeasibility } from '../src/geometry/feasibility.js';
import { optimizeCase } from '../src/optimize/optimizeCase.js';
import type { Case } from '../src/case/case.js';
import type { OptimizerSettings } from '../src/optimize/optimizeLayout.js';
import { layoutResultYaml } from '../src/io/layoutResultYaml.js';
import { writeFileAtomic } from '../src/io/atomicWrite.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One stage of a result: what ran, on which rose, from what. */
interface Stage {
  method: string;
  seed: number;
  spread: number;
  settings: OptimizerSettings;
  start?: string;
  cpu_s: number;
  wall_s: number;
  aep_start: number;
  aep_stage: number;
  iterations?: number;
  evaluations?: number;
}
interface ResultLine {
  case: string;
  seed: number;
  stages: Stage[];
  x: number[];
  y: number[];
  aep_bins: number;
  aep_spread20: number;
  feasible: boolean;
  max_violation_m: number;
  cpu_s_total: number;
}

/** The case with its rose spread over n sub-directions per bin (0: the rose as it is). */
export function treatedCase(name: string, spread: number): Case {
  const c = builtinCase(name);
  if (spread > 0) c.wind = treatDirections(c.wind, { kind: 'spread', n: spread }).wind;
  return c;
}

function measures(name: string, x: Float64Array, y: Float64Array): { bins: number; spread20: number; feasible: boolean; violation: number } {
  const c = builtinCase(name);
  const bins = createFarmEvaluator(c.turbine, c.wind, c.model).aep(x, y).aepMwh;
  const s = treatedCase(name, 20);
  const spread20 = createFarmEvaluator(s.turbine, s.wind, s.model).aep(x, y).aepMwh;
  const f = checkFeasibility(c.boundary, x, y, c.minSpacing, 1e-6);
  return { bins, spread20, feasible: f.feasible, violation: f.maxViolationM };
}

const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function readLines(file: string): ResultLine[] {
  return fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ResultLine)
    : [];
}

function search(name: string, args: Map<string, string>): void {
  const spread = Number(args.get('--spread') ?? '0');
  const method = args.get('--method') ?? 'population';
  const [a, b] = (args.get('--seeds') ?? '0').split('-').map(Number);
  const extra = JSON.parse(args.get('--settings') ?? '{}') as Record<string, unknown>;
  const polish = Number(args.get('--polish') ?? '0');
  const outDir = path.resolve(args.get('--out') ?? path.join(REPO, 'out', 'robust'));
  const file = path.join(outDir, `${name}.jsonl`);
  fs.mkdirSync(outDir, { recursive: true });
  const startSpec = args.get('--start');
  let from: ResultLine | null = null;
  if (startSpec) {
    const [f, line] = startSpec.split(':');
    from = readLines(path.resolve(f!))[Number(line)] ?? null;
    if (!from) throw new Error(`--start ${startSpec}: no such result`);
  }
  for (let seed = a!; seed <= (b ?? a)!; seed++) {
    const t0 = cpuSeconds(),
      w0 = Date.now();
    const stages: Stage[] = from ? [...from.stages] : [];
    const c = treatedCase(name, spread);
    const settings: OptimizerSettings = { method, ...extra };
    if (from) {
      c.layout = { x: Float64Array.from(from.x), y: Float64Array.from(from.y) };
      settings.initial = 'given';
    }
    const r = optimizeCase(c, settings, seed);
    stages.push({
      method,
      seed,
      spread,
      settings,
      ...(startSpec ? { start: startSpec } : {}),
      cpu_s: Number((cpuSeconds() - t0).toFixed(2)),
      wall_s: (Date.now() - w0) / 1000,
      aep_start: r.aepInitial,
      aep_stage: r.aep,
      iterations: r.iterations,
      evaluations: r.evaluations,
    });
    let x = r.x,
      y = r.y;
    if (polish > 0) {
      const t1 = cpuSeconds(),
        w1 = Date.now();
      const p = treatedCase(name, polish);
      p.layout = { x, y };
      const ps: OptimizerSettings = { method: 'gradient', initial: 'given', wec: [1] };
      const q = optimizeCase(p, ps, seed);
      stages.push({
        method: 'gradient',
        seed,
        spread: polish,
        settings: ps,
        cpu_s: Number((cpuSeconds() - t1).toFixed(2)),
        wall_s: (Date.now() - w1) / 1000,
        aep_start: q.aepInitial,
        aep_stage: q.aep,
        iterations: q.iterations,
        evaluations: q.evaluations,
      });
      x = q.x;
      y = q.y;
    }
    const m = measures(name, x, y);
    const line: ResultLine = {
      case: name,
      seed,
      stages,
      x: Array.from(x),
      y: Array.from(y),
      aep_bins: m.bins,
      aep_spread20: m.spread20,
      feasible: m.feasible,
      max_violation_m: m.violation,
      cpu_s_total: Number(stages.reduce((s, st) => s + st.cpu_s, 0).toFixed(2)),
    };
    fs.appendFileSync(file, JSON.stringify(line) + '\n');
    const index = readLines(file).length - 1;
    console.log(
      `${name} seed ${seed} [${file}:${index}] ${stages.map((s) => `${s.method}@${s.spread || 'bins'} ${s.aep_stage.toFixed(2)} (${s.cpu_s} s)`).join(' → ')}` +
        ` | bins ${m.bins.toFixed(2)} spread20 ${m.spread20.toFixed(2)} feasible ${m.feasible} (${m.violation.toExponential(2)} m) | ${line.cpu_s_total} CPU s`,
    );
  }
}

function write(name: string, args: Map<string, string>): void {
  const measure = args.get('--measure') ?? 'spread20';
  const outDir = path.resolve(args.get('--out') ?? path.join(REPO, 'out', 'robust'));
  const lines = readLines(path.join(outDir, `${name}.jsonl`)).filter((l) => l.feasible);
  const key = measure === 'bins' ? 'aep_bins' : 'aep_spread20';
  const pick = args.get('--line');
  const best =
    pick !== undefined
      ? (readLines(path.join(outDir, `${name}.jsonl`))[Number(pick)] ?? null)
      : lines.reduce<ResultLine | null>((b, l) => (!b || l[key] > b[key] ? l : b), null);
  if (!best) throw new Error(`${name}: no feasible result`);
  const c = treatedCase(name, measure === 'bins' ? 0 : 20);
  const x = Float64Array.from(best.x),
    y = Float64Array.from(best.y);
  const f = checkFeasibility(c.boundary, x, y, c.minSpacing, 1e-6);
  if (!f.feasible) throw new Error(`${name}: not feasible: ${f.worst}`);
  const aep = createFarmEvaluator(c.turbine, c.wind, c.model).aep(x, y);
  const last = best.stages[best.stages.length - 1]!;
  const fileName = args.get('--name') ?? `${name}-robust.yaml`;
  const file = path.join(REPO, 'examples', 'results', fileName);
  const how = best.stages.map((s) => `${s.method} on ${s.spread ? `spread ${s.spread}` : 'the rose'} (seed ${s.seed}, ${s.cpu_s} CPU s)`).join(', then ');
  writeFileAtomic(
    file,
    layoutResultYaml({
      case: c,
      caseSpec: name,
      seed: best.stages[0]!.seed,
      method: best.stages[0]!.method,
      settings: { ...best.stages[0]!.settings },
      x,
      y,
      aepMwh: aep.aepMwh,
      perDirectionMwh: aep.perDirectionMwh,
      aepInitialMwh: best.stages[0]!.aep_start,
      iterations: best.stages.reduce((t, st) => t + (st.iterations ?? NaN), 0),
      evaluations: best.stages.reduce((t, st) => t + (st.evaluations ?? NaN), 0),
      wallS: best.stages.reduce((t, st) => t + st.wall_s, 0),
      feasible: true,
      maxViolationM: f.maxViolationM,
      extra: {
        ...(measure === 'bins' ? {} : { directions: { spread: 20 } }),
        aep_bins_mwh: best.aep_bins,
        aep_spread20_mwh: best.aep_spread20,
        script: 'bench/robustRecords.ts',
        stages: JSON.parse(JSON.stringify(best.stages)) as unknown,
        cpu_s_total: best.cpu_s_total,
      },
      header: [
        `Written by wflo's bench/robustRecords.ts (issue 28): ${name}, ${measure === 'bins' ? "on the case's own rose" : 'each bin of the rose spread evenly over its width in 20 sub-directions (the wind below is that rose written out)'},`,
        `AEP ${aep.aepMwh.toFixed(5)} MWh; made by ${how}; ${best.cpu_s_total} CPU s in all.`,
        'A complete wflo case file: turbine, wind, site, wake model and the layout are all here, so `wflo aep FILE`',
        'and `wflo plot FILE` need nothing else; `wflo:` says how it was made.',
      ],
    }),
  );
  console.log(
    `${file}: seed ${best.seed}, AEP ${aep.aepMwh.toFixed(2)} MWh (${measure}); bins ${best.aep_bins.toFixed(2)}, spread20 ${best.aep_spread20.toFixed(2)}; last stage ${last.method}`,
  );
}

const [command, name, ...rest] = process.argv.slice(2);
const args = new Map<string, string>();
for (let i = 0; i < rest.length; i += 2) args.set(rest[i]!, rest[i + 1]!);
if (command === 'search' && name) search(name, args);
else if (command === 'write' && name) write(name, args);
else {
  console.error("usage: node dist/bench/robustRecords.js search|write CASE [options] (see the file's header)");
  process.exitCode = 2;
}
