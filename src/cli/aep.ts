/** `wflo aep`: AEP of a layout, with per-direction and per-turbine breakdowns. */
import type { Command } from 'commander';
import { resolveAepRequest } from '../io/aepInput.js';
import type { AepWithGradient } from '../physics/aep.js';
import { caseEvaluator, caseNeighbourLoss, caseTypeOf } from '../optimize/caseEvaluator.js';
import { explainPlan, planDocument } from '../physics/solvePlan.js';
import { parallelCaseAep } from '../optimize/parallelCaseAep.js';
import { InputError } from '../util/errors.js';
import { WAKE_MODEL_NAMES, BLOCKAGE_MODEL_NAMES, GROUND_MODEL_NAMES } from '../physics/farmModel.js';
import { windShape } from '../io/inputKind.js';
import { caseListedWind, caseTreatment, withDirections } from '../optimize/caseDirections.js';
import { energyByBin } from '../physics/directionTreatment.js';
import { describeDirections, directionsDocument, directionsFlag } from '../io/directionsField.js';

export function registerAep(program: Command): void {
  program
    .command('aep')
    .description('compute the AEP of a layout (a built-in case, an IEA37 layout file, a case file, a windIO plant file)')
    .argument('[case]', 'a built-in case name (`wflo cases`) or a file: an IEA37 layout YAML (its $refs are followed), a wflo case YAML, a windIO plant file')
    .option('--case <name|file>', 'the case (built-in name or case file) whose site, turbine and wind evaluate the layout of FILE')
    .option('--turbine <file|name>', 'override the turbine (file or built-in: iea37-3.35mw, iea37-10mw, v80)')
    .option('--wind <file|name>', 'override the wind resource (file or built-in: iea37-cs1, iea37-cs3)')
    .option('--wake <model>', `wake model: ${WAKE_MODEL_NAMES.join(' | ')}`)
    .option('--superposition <rule>', 'deficit superposition: sos | linear | max')
    .option('--k <value>', 'wake growth/decay parameter k of the wake model')
    .option('--blockage <model>', `add an induction (blockage) model solved with the wakes: ${BLOCKAGE_MODEL_NAMES.join(' | ')}`)
    .option('--ground <model>', `ground model: ${GROUND_MODEL_NAMES.join(' | ')} (mirror: every wake also from its source's image below the ground)`)
    .option(
      '--directions <treatment>',
      "how the rose's directions are treated: bins (as listed, the benchmark measure) | spread:N (each bin over its width in N sub-directions) | gaussian:SIGMA:N (direction uncertainty) | refine:STEP (the rose interpolated to every STEP°); replaces the file's `directions`",
    )
    .option('--gradient', 'also print dAEP/dx and dAEP/dy (MWh per metre)')
    .option(
      '--threads <n>',
      'worker threads for this one evaluation, the directions split among them (the same AEP; pays for big farms on fine roses); one turbine model, no neighbours or blockage',
    )
    .option('--explain', 'also print which solver (free-stream, waked, weighted-sum, blockage) and kernel (native, js) ran, and why: the solve plan')
    .option('--json', 'print JSON (with the solve plan as solve_plan: solver, kernel, why_solver, why_kernel)')
    .action(async (file: string | undefined, opts: Record<string, string | boolean | undefined>) => {
      let wakeParams: Record<string, number> | undefined;
      if (opts.k !== undefined) {
        const k = Number(opts.k);
        if (!(k > 0)) throw new InputError(`--k: expected a positive number, got '${opts.k}'`);
        wakeParams = { k };
      }
      const c = resolveAepRequest({
        file,
        caseName: opts.case as string | undefined,
        turbine: opts.turbine as string | undefined,
        wind: opts.wind as string | undefined,
        wake: opts.wake as string | undefined,
        blockage: opts.blockage as string | undefined,
        ground: opts.ground as string | undefined,
        superposition: opts.superposition as string | undefined,
        wakeParams,
        directions: opts.directions as string | undefined,
      });
      const treatment = caseTreatment(c);
      const listed = caseListedWind(c);
      const threads = opts.threads === undefined ? 1 : Number(opts.threads);
      if (!Number.isInteger(threads) || threads < 1 || threads > 256)
        throw new InputError(`--threads: expected a whole number from 1 to 256, got '${String(opts.threads)}'`);
      const t0 = process.hrtime.bigint();
      // The evaluator carries its solve plan (which solver and kernel ran, and why): --explain and solve_plan report it.
      const evaluator = threads > 1 ? null : caseEvaluator(c, c.model, undefined, { gradient: !!opts.gradient });
      const parallel = threads > 1 ? await parallelCaseAep(c, threads, !!opts.gradient) : null;
      const r = parallel ?? (opts.gradient ? evaluator!.aepWithGradient(c.layout!.x, c.layout!.y) : evaluator!.aep(c.layout!.x, c.layout!.y));
      const plan = parallel ? parallel.plan : evaluator!.plan;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      // Under a treatment: the benchmark AEP (the bins as listed) beside it, and the energy by listed bin.
      const binsAep = c.directions ? caseEvaluator(withDirections(c, { kind: 'bins' })).aep(c.layout!.x, c.layout!.y).aepMwh : r.aepMwh;
      const byBin = c.directions && !listed.series ? energyByBin(r.perDirectionMwh, c.directions.binOf, listed.directionsDeg.length) : r.perDirectionMwh;
      const shownDirections = c.directions && !listed.series ? listed.directionsDeg : c.wind.directionsDeg;
      const loss = caseNeighbourLoss(c, c.layout!.x, c.layout!.y);
      const typeNames = c.turbines ? Array.from(caseTypeOf(c), (t) => c.turbines!.types[t].name) : null;
      if (opts.json) {
        const out: Record<string, unknown> = {
          aep_mwh: r.aepMwh,
          ...(c.directions ? { aep_bins_mwh: binsAep, directions: directionsDocument(treatment), n_directions_evaluated: c.wind.directionsDeg.length } : {}),
          per_direction_mwh: Array.from(byBin),
          per_turbine_mwh: Array.from(r.perTurbineMwh),
          directions_deg: Array.from(shownDirections),
          n_turbines: c.layout!.x.length,
          n_directions: shownDirections.length,
          n_speeds: c.wind.speeds.length,
          ...(listed.series ? { n_samples: listed.series.speeds.length } : {}),
          ...(c.model.blockage ? { blockage: c.model.blockage } : {}),
          ...(c.model.ground && c.model.ground !== 'none' ? { ground: c.model.ground } : {}),
          turbine: c.turbine.name,
          wake_model: c.model.wake,
          superposition: c.model.superposition,
          solve_plan: planDocument(plan),
        };
        if (typeNames) out.turbine_types = typeNames;
        if (loss) {
          out.n_neighbours = c.neighbours!.x.length;
          out.neighbour_loss_mwh = loss.totalMwh;
          out.neighbour_alone_aep_mwh = loss.aloneMwh;
        }
        if (c.referenceAepMwh !== undefined) {
          out.reference_aep_mwh = c.referenceAepMwh;
          out.relative_difference = (binsAep - c.referenceAepMwh) / c.referenceAepMwh;
        }
        if (opts.gradient && 'gradX' in r) {
          out.grad_x_mwh_per_m = Array.from((r as AepWithGradient).gradX);
          out.grad_y_mwh_per_m = Array.from((r as AepWithGradient).gradY);
        }
        process.stdout.write(`${JSON.stringify(out)}\n`);
        return;
      }
      const typeOf = caseTypeOf(c);
      const turbines = typeNames
        ? c
            .turbines!.types.map((t, k) => [typeOf.filter((v) => v === k).length, t.name] as const)
            .filter(([count]) => count > 0)
            .map(([count, name]) => `${count} ${name}`)
            .join(' + ')
        : c.turbine.name;
      const lines = [
        `case        ${c.name} (${c.layout!.x.length} turbines, ${turbines}, ${windShape(listed)})`,
        `model       ${c.model.wake} wake, ${c.model.superposition} superposition${c.model.blockage ? `, ${c.model.blockage} blockage` : ''}${c.model.ground && c.model.ground !== 'none' ? `, ground ${c.model.ground}` : ''}`,
        `AEP         ${r.aepMwh.toFixed(5)} MWh${loss ? ' (own turbines, beside the neighbours)' : ''}${c.directions ? ` with directions ${directionsFlag(treatment)}: ${describeDirections(treatment)} (${c.wind.directionsDeg.length} directions evaluated)` : ''}`,
      ];
      if (c.directions) {
        lines.push(
          `AEP bins    ${binsAep.toFixed(5)} MWh on ${listed.series ? 'the samples as listed (no direction uncertainty)' : `the ${listed.directionsDeg.length} bins as listed (the benchmark measure)`}; ${directionsFlag(treatment)} ${r.aepMwh >= binsAep ? '+' : ''}${(100 * (r.aepMwh / binsAep - 1)).toFixed(2)} %`,
        );
      }
      if (loss)
        lines.push(
          `neighbours  ${c.neighbours!.x.length} turbines lose ${loss.totalMwh.toFixed(5)} MWh to this farm (${((100 * loss.totalMwh) / loss.aloneMwh).toFixed(3)} % of ${loss.aloneMwh.toFixed(2)} MWh alone)`,
        );
      if (c.referenceAepMwh !== undefined) {
        const rel = (binsAep - c.referenceAepMwh) / c.referenceAepMwh;
        lines.push(`reference   ${c.referenceAepMwh.toFixed(5)} MWh (relative difference ${rel.toExponential(2)}${c.directions ? " of the bins' AEP" : ''})`);
      }
      if (opts.explain) lines.push(...explainPlan(plan));
      lines.push(`time        ${ms.toFixed(2)} ms`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
