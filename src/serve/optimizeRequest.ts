/**
 * The `optimize` request of the engine session (docs/python.md): one optimization of an open
 * farm, as `wflo optimize CASE` runs it — the same options (method, seed, initial, wec, hops,
 * hop_wec, max_iterations, random_iterations, starts, directions, objective; each refused with
 * the CLI's message for the same value), the same case handling (`--directions`, `--objective`)
 * and the same optimizer call (optimize/runOptimization.ts), so a seeded run gives the CLI's
 * layout and AEP bit for bit. Several starts run one after another in the engine process (the
 * CLI runs them in worker processes: each seed's result is the same) and the best is kept by the
 * CLI's rule (`betterRecord`). Arrays x, y, when given, are the starting layout for
 * `initial: given` (as a case file's layout would be).
 */
import { applyDirectionsFlag } from '../io/aepInput.js';
import { withObjective } from '../io/objectiveField.js';
import { caseTreatment } from '../optimize/caseDirections.js';
import { betterRecord, runOptimization, type OptimizationRecord } from '../optimize/runOptimization.js';
import { combineHooks, type OptimizeHooks } from '../optimize/optimizeLayout.js';
import { HistoryRecorder, historyArrays, type HistoryRow } from '../optimize/history.js';
import { resolveSettings, type OptimizerSettings } from '../optimize/settings.js';
import { InputError, RuntimeFailure, WfloError } from '../util/errors.js';
import { coordinates, shown, stringField, wholeField } from './requestFields.js';
import type { RequestHandler } from './sessionTypes.js';

/** The request's fields, by the CLI option each one is. */
const OPTIONS: Record<string, string> = {
  method: '--method',
  seed: '--seed',
  initial: '--initial',
  wec: '--wec',
  hops: '--hops',
  hop_wec: '--hop-wec',
  max_iterations: '--max-iterations',
  random_iterations: '--random-iterations',
  starts: '--starts',
  directions: '--directions',
  objective: '--objective',
};

function factorList(flag: string, v: unknown): number[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((f) => typeof f !== 'number' || !Number.isFinite(f)))
    throw new InputError(`${flag}: expected comma-separated numbers, got '${shown(v)}'`);
  return v as number[];
}

export const OPTIMIZE_REQUEST: RequestHandler = {
  // progress: true sends a `progress` frame for every history row and gradient stage before the reply.
  fields: ['handle', 'progress', ...Object.keys(OPTIONS)],
  arrays: ['x', 'y'],
  answer(farms, h, arrays, kind, emit) {
    if (h.progress !== undefined && typeof h.progress !== 'boolean') throw new InputError(`${kind}.progress: expected true or false`);
    const send = h.progress === true ? emit : undefined;
    const farm = farms.farm(kind, h.handle);
    const settings: OptimizerSettings = { method: stringField(OPTIONS.method, h.method) ?? 'global' };
    const initial = stringField(OPTIONS.initial, h.initial);
    if (initial !== undefined) settings.initial = initial as OptimizerSettings['initial'];
    const wec = factorList(OPTIONS.wec, h.wec);
    if (wec) settings.wec = wec;
    const hopWec = factorList(OPTIONS.hop_wec, h.hop_wec);
    if (hopWec) settings.hopWec = hopWec;
    if (h.hops !== undefined) settings.hops = wholeField(OPTIONS.hops, h.hops, 0);
    if (h.max_iterations !== undefined) settings.maxIterations = wholeField(OPTIONS.max_iterations, h.max_iterations, 1);
    if (h.random_iterations !== undefined) settings.randomIterations = wholeField(OPTIONS.random_iterations, h.random_iterations, 0);
    resolveSettings(settings); // validate before starting anything, as the CLI does
    const seed = h.seed === undefined ? 0 : wholeField(OPTIONS.seed, h.seed, 0);
    const starts = h.starts === undefined ? 1 : wholeField(OPTIONS.starts, h.starts, 1);
    let c = farm.c;
    if (arrays.size > 0) {
      const x = coordinates(kind, 'x', arrays, farm.n),
        y = coordinates(kind, 'y', arrays, farm.n);
      c = { ...c, layout: { x: Float64Array.from(x), y: Float64Array.from(y) }, nTurbines: farm.n, referenceAepMwh: undefined };
    }
    const directions = stringField(OPTIONS.directions, h.directions);
    if (directions !== undefined) c = applyDirectionsFlag(c, directions, caseTreatment(c), farm.source);
    c = withObjective(c, stringField(OPTIONS.objective, h.objective), farm.source);
    const records: OptimizationRecord[] = [];
    const histories = new Map<OptimizationRecord, HistoryRow[]>();
    const failures: { seed: number; error: string }[] = [];
    for (let s = seed; s < seed + starts; s++) {
      // Every start's history is recorded (the best start's is returned); with progress, each row is sent as it comes.
      const recorder = new HistoryRecorder(send && ((row) => send({ seed: s, ...row })));
      const stages: OptimizeHooks = send
        ? {
            onGradientStage: (e) =>
              send({ seed: s, event: 'stage', stage: e.stage, stages: e.stages, evaluations: e.evaluations, done: (e.stage + 1) / e.stages }),
          }
        : {};
      try {
        const record = runOptimization(c, settings, s, combineHooks(recorder.hooks(), stages));
        records.push(record);
        histories.set(record, recorder.rows);
      } catch (err) {
        if (starts === 1 || !(err instanceof WfloError)) throw err;
        failures.push({ seed: s, error: err.message });
      }
    }
    if (records.length === 0) throw new RuntimeFailure(`all ${starts} starts failed; first error: ${failures[0]?.error}`);
    const best = records.reduce((a, b) => (betterRecord(b, a) ? b : a));
    const { x, y, x_initial, y_initial, per_direction_mwh, turbine_types, ...rest } = best;
    return {
      fields: { ...rest, case: c.name, method: settings.method, ...(starts > 1 ? { starts, failed_starts: failures.length } : {}) },
      arrays: {
        x: Float64Array.from(x),
        y: Float64Array.from(y),
        x_initial: Float64Array.from(x_initial),
        y_initial: Float64Array.from(y_initial),
        per_direction_mwh: Float64Array.from(per_direction_mwh),
        ...(turbine_types ? { turbine_types: Float64Array.from(turbine_types) } : {}),
        ...historyArrays(histories.get(best) ?? []),
      },
    };
  },
};
