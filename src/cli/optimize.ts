/** `wflo optimize`: optimize one layout (one seed) or keep the best of K seeds run in parallel. */
import os from 'node:os';
import type { Command } from 'commander';
import { loadCaseWithDirections } from '../io/aepInput.js';
import { describeDirections, directionsDocument, directionsFlag } from '../io/directionsField.js';
import { caseTreatment } from '../optimize/caseDirections.js';
import { resultReproduces, writeLayoutResult } from '../io/layoutResultYaml.js';
import { checkOverwrite } from '../io/overwrite.js';
import { betterRecord, runOptimization, type OptimizationRecord } from '../optimize/runOptimization.js';
import { combineHooks } from '../optimize/optimizeLayout.js';
import { HistoryRecorder } from '../optimize/history.js';
import { checkHistoryTarget, writeHistory } from '../io/historyFile.js';
import { withHubHeight } from '../optimize/hubHeight.js';
import { withObjective } from '../io/objectiveField.js';
import { resolveSettings, type OptimizerSettings } from '../optimize/settings.js';
import { runMultiStart } from '../runner/multiStart.js';
import { InputError, RuntimeFailure } from '../util/errors.js';
import { costItemText, lcoeText, millionsText } from '../cost/currency.js';

function integer(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new InputError(`${name}: expected a whole number >= ${min}, got '${v}'`);
  return n;
}

function factorList(name: string, v: string | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  const list = v.split(',').map((s) => Number(s.trim()));
  if (list.some((f) => !Number.isFinite(f))) throw new InputError(`${name}: expected comma-separated numbers, got '${v}'`);
  return list;
}

/** The economics and the turbine choice's reason of a record, as lines (none for an AEP objective), money with its currency (cost/currency.ts). */
function economicLines(r: OptimizationRecord): string[] {
  const lines: string[] = [];
  const e = r.economics;
  if (e) {
    const cur = e.currency;
    const value = (v: number) => (e.objective === 'lcoe' ? lcoeText(v, cur, 6) : millionsText(v, cur, 6));
    const initial = e.value_initial !== null ? ` (initial ${value(e.value_initial)})` : '';
    lines.push(
      `objective   ${e.objective} ${value(e.value)}${initial}; cost model ${e.cost_model} (${cur})`,
      `economics   LCOE ${lcoeText(e.lcoe, cur, 6)}, NPV ${millionsText(e.npv, cur, 6)}, IRR ${e.irr === null ? 'none' : `${(100 * e.irr).toFixed(3)} %`}`,
      `cables      ${e.cable_length_m.toFixed(1)} m, cost ${millionsText(e.cable_cost, cur, 6)} (${e.cable_edges.length} edges)`,
      `costs       ${Object.entries(e.cost_breakdown)
        .map(([k, v]) => costItemText(k, v, cur))
        .join(', ')}`,
    );
  }
  if (r.type_choice) lines.push(`models      ${r.type_choice.reason}`);
  for (const note of r.notes ?? []) lines.push(`note        ${note}`);
  return lines;
}

export function registerOptimize(program: Command): void {
  program
    .command('optimize')
    .description('optimize a layout for a built-in case or a case YAML file')
    .argument('<case>', 'built-in case (iea37-cs1-16|36|64, iea37-cs3, iea37-cs4) or a case YAML file')
    .option('--seed <n>', 'random seed (first seed with --starts)', '0')
    .option(
      '--method <name>',
      'global (structured starts + basin hopping) | population (lattice starts, moves, crossover; for large farms) | gradient | basin | hybrid | random | none',
      'global',
    )
    .option(
      '--initial <kind>',
      'initial layout: random | grid | given | rings | hex | rows | greedy | structured (default: structured for global, else random)',
    )
    .option('--wec <factors>', 'wake expansion continuation factors, e.g. 3,2,1.5,1.25,1')
    .option('--hops <n>', 'basin-hopping rounds (methods basin and global; for global it replaces the work budget)')
    .option('--hop-wec <factors>', 'continuation factors for each hop, e.g. 2,1')
    .option('--max-iterations <n>', 'L-BFGS iterations per augmented-Lagrangian round')
    .option('--random-iterations <n>', 'random-search proposals (random, hybrid)')
    .option('--starts <k>', 'run K seeds (seed, seed+1, …) in parallel processes and keep the best', '1')
    .option('--workers <n>', 'worker processes for --starts (default: one per core)')
    .option(
      '--directions <treatment>',
      "the objective's wind directions: bins (as listed, the benchmark measure) | spread:N (each bin over its width in N sub-directions) | gaussian:SIGMA:N | refine:STEP; replaces the case file's `directions`. A fine treatment is optimized on a coarse one first (docs/optimize.md)",
    )
    .option(
      '--objective <name>',
      "what to optimize: aep (default) | lcoe | npv; lcoe and npv need the case's economics (docs/optimize.md); replaces the case file's `objective`",
    )
    .option('-o, --out <file>', 'write the (best) layout as a self-contained case file (turbine, wind, site, model, layout)')
    .option(
      '--history <file>',
      "write the optimization's history, one row per iteration (objective, max violation, evaluations): CSV, or JSON when FILE ends in .json (docs/optimize.md)",
    )
    .option('--force', 'replace --out FILE (or --history FILE) even if it exists and was not written by wflo')
    .option('--json', 'print the result as JSON')
    .action(async (caseSpec: string, opts: Record<string, string | boolean | undefined>) => {
      const str = (k: string) => opts[k] as string | undefined;
      const settings: OptimizerSettings = { method: str('method')! };
      if (str('initial') !== undefined) settings.initial = str('initial') as OptimizerSettings['initial'];
      const wec = factorList('--wec', str('wec'));
      if (wec) settings.wec = wec;
      const hopWec = factorList('--hop-wec', str('hopWec'));
      if (hopWec) settings.hopWec = hopWec;
      const hops = integer('--hops', str('hops'), 0);
      if (hops !== undefined) settings.hops = hops;
      const maxIterations = integer('--max-iterations', str('maxIterations'), 1);
      if (maxIterations !== undefined) settings.maxIterations = maxIterations;
      const randomIterations = integer('--random-iterations', str('randomIterations'), 0);
      if (randomIterations !== undefined) settings.randomIterations = randomIterations;
      resolveSettings(settings); // validate before starting anything
      const seed = integer('--seed', str('seed'), 0)!;
      const starts = integer('--starts', str('starts'), 1)!;
      const workers = integer('--workers', str('workers'), 1) ?? os.availableParallelism();
      const c = withObjective(loadCaseWithDirections(caseSpec, str('directions')), str('objective'), caseSpec);
      const treatment = caseTreatment(c);
      if (str('out')) await checkOverwrite(str('out')!, !!opts.force, '--out');
      const historyFile = str('history');
      if (historyFile !== undefined && starts > 1)
        throw new InputError(`--history: records one optimization, not ${starts} starts (run each seed with --starts 1)`);
      if (historyFile !== undefined) {
        checkHistoryTarget(historyFile);
        await checkOverwrite(historyFile, !!opts.force, '--history');
      }
      const t0 = process.hrtime.bigint();

      let best: OptimizationRecord;
      let failures: { seed: number; error: string }[] = [];
      if (starts === 1) {
        // A bar on a terminal only; piped or redirected, nothing but the result.
        const bar = process.stderr.isTTY
          ? (await import('../runner/optimizeProgress.js')).optimizeProgress(process.stderr, `${c.name} ${settings.method} seed ${seed}`)
          : null;
        const recorder = historyFile !== undefined ? new HistoryRecorder() : null;
        try {
          best = runOptimization(c, settings, seed, combineHooks(bar?.hooks ?? {}, recorder?.hooks() ?? {}));
        } finally {
          bar?.stop();
        }
        if (recorder) writeHistory(historyFile!, recorder.rows);
      } else {
        const seeds = Array.from({ length: starts }, (_, i) => seed + i);
        let bestSoFar = -Infinity;
        const tty = process.stderr.isTTY;
        const outcome = await runMultiStart({
          caseSpec,
          directions: str('directions'),
          objective: str('objective'),
          settings,
          seeds,
          workers,
          onResult: (done, total, record, s, error) => {
            if (record && record.aep_mwh > bestSoFar) bestSoFar = record.aep_mwh;
            const line = `[${done}/${total}] seed ${s}: ${record ? `${record.aep_mwh.toFixed(2)} MWh` : `failed (${error})`}; best ${bestSoFar.toFixed(2)} MWh`;
            process.stderr.write(tty ? `\r\x1b[2K${line}${done === total ? '\n' : ''}` : `${line}\n`);
          },
        });
        failures = outcome.failures;
        if (outcome.records.length === 0) throw new RuntimeFailure(`all ${starts} starts failed; first error: ${failures[0]?.error}`);
        best = outcome.records.reduce((a, b) => (betterRecord(b, a) ? b : a));
      }
      const totalWallS = Number(process.hrtime.bigint() - t0) / 1e9;
      if (str('out')) {
        writeLayoutResult(str('out')!, {
          // A chosen hub height is the written turbine's: the file reproduces the AEP alone.
          case: best.hub_height_m !== undefined ? withHubHeight(c, best.hub_height_m) : c,
          caseSpec,
          seed: best.seed,
          method: String(settings.method),
          settings: { ...settings },
          x: Float64Array.from(best.x),
          y: Float64Array.from(best.y),
          aepMwh: best.aep_mwh,
          perDirectionMwh: Float64Array.from(best.per_direction_mwh),
          aepInitialMwh: best.aep_initial_mwh,
          iterations: best.iterations,
          evaluations: best.evaluations,
          wallS: best.wall_s,
          feasible: best.feasible,
          maxViolationM: best.max_violation_m,
          starts: starts > 1 ? starts : undefined,
          ...(best.turbine_types ? { typeOf: Int32Array.from(best.turbine_types) } : {}),
          objective: best.economics?.objective ?? c.objective ?? 'aep',
          ...(best.economics ? { economics: best.economics } : {}),
        });
      }
      // The file stands alone: reading it back must give the same AEP (say so if the format lost something).
      const lost = str('out') ? resultReproduces(str('out')!, best.aep_mwh) : null;
      if (lost) process.stderr.write(`wflo: note: ${lost}\n`);
      if (opts.json) {
        const { per_direction_mwh: _pd, x_initial: _xi, y_initial: _yi, ...rest } = best;
        process.stdout.write(
          `${JSON.stringify({
            ...rest,
            case: c.name,
            method: settings.method,
            ...(c.directions ? { directions: directionsDocument(treatment) } : {}),
            ...(starts > 1 ? { starts, failed_starts: failures.length, total_wall_s: totalWallS } : {}),
          })}\n`,
        );
        return;
      }
      const lines = [
        `case        ${c.name} (${c.nTurbines} turbines, min spacing ${c.minSpacing} m)`,
        `method      ${settings.method}${starts > 1 ? `, best of ${starts} starts (${failures.length} failed)` : ''}`,
        `seed        ${best.seed}`,
        ...(c.directions
          ? [`directions  ${directionsFlag(treatment)}: ${describeDirections(treatment)}; the AEP below is on this measure, not on the bins as listed`]
          : []),
        `AEP         ${best.aep_mwh.toFixed(5)} MWh (initial ${best.aep_initial_mwh.toFixed(2)} MWh, ${best.aep_mwh >= best.aep_initial_mwh ? '+' : ''}${(100 * (best.aep_mwh / best.aep_initial_mwh - 1)).toFixed(2)} %)`,
        ...economicLines(best),
        ...(best.hub_height_m !== undefined
          ? [
              `hub height  ${best.hub_height_m.toFixed(3)} m (initial ${best.hub_height_initial_m!.toFixed(1)} m, within ${c.hubHeightRange!.min}…${c.hubHeightRange!.max} m)`,
            ]
          : []),
        `feasible    ${best.feasible} (max violation ${best.max_violation_m.toExponential(2)} m)`,
        `work        ${best.iterations} iterations, ${best.evaluations} evaluations, ${best.wall_s.toFixed(2)} s${starts > 1 ? `; all starts ${totalWallS.toFixed(1)} s wall` : ''}`,
      ];
      if (str('out')) lines.push(`written     ${str('out')}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
